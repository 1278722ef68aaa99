// Package adapters connects the appeal to the event store: Depot keeps
// appeals (one stream each, appel.Flux), Faits reads the games and
// tournaments an appeal is checked against. It imports no use case: the
// decision carried into the duplicate game is the use cases' own step
// (command.CorrecteurDuplicate).
package adapters

import (
	"context"

	"arbitre/domain/appel"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/idempotency"
	"arbitre/domain/eventstore/repository"
)

// Depot loads and saves appeals.
type Depot struct {
	depot repository.Repository[*appel.Appel]
}

// NewDepot returns a repository over store; registre must hold the appeal's
// event types (appel.RegisterEvents).
func NewDepot(store eventstore.Store, registre *eventstore.Registry) *Depot {
	return &Depot{depot: repository.Repository[*appel.Appel]{
		Streams: repository.Streams{Store: store, Registry: registre},
		New:     appel.Nouveau,
	}}
}

// Charger replays appeal id of tournament tournoi from its stream
// (appel.Retrouver: an appeal filed while ids were global is read from its
// old stream). With a command envelope in ctx it also reports
// eventstore.ErrAlreadyApplied when the command was applied already
// (looked for in each stream read), and CONFLICT when the client's
// version is not the one of the appeal's stream.
func (d *Depot) Charger(ctx context.Context, tournoi, id string) (*appel.Appel, error) {
	commande := idempotency.CommandFrom(ctx)
	sonde := commande
	sonde.Version = nil
	a, err := appel.Retrouver(tournoi, id, func(flux string) (*appel.Appel, error) {
		return d.depot.Load(idempotency.WithCommand(ctx, sonde), flux)
	})
	if err == nil && a.Version() == 0 {
		return nil, appel.Inconnu(id)
	}
	if err == nil {
		err = commande.CheckVersion(a.Flux(), a.Version())
	}
	if err != nil {
		return nil, repository.Conflict(err, "le recours %s a été modifié entre-temps : recharger", id)
	}
	return a, nil
}

// Enregistrer appends the appeal's new events to its stream (Flux),
// expecting it to hold exactly the events the appeal was loaded with. A
// concurrent writer makes it fail with CONFLICT, wrapping the store's
// *eventstore.ConflictError (current revision), nothing is written and
// the events stay new.
func (d *Depot) Enregistrer(ctx context.Context, a *appel.Appel, md eventstore.Metadata) error {
	return repository.Conflict(d.depot.Save(ctx, a.Flux(), a, md), "le recours %s a été modifié entre-temps : recharger", a.ID())
}
