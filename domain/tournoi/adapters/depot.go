// Package adapters stores tournaments in the event store: one stream
// "tournoi-<id>" per tournament.
package adapters

import (
	"context"
	"fmt"

	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/repository"
	"arbitre/domain/eventstore/streamname"
	"arbitre/domain/tournoi"
)

// Depot loads and saves tournaments.
type Depot struct {
	depot repository.Repository[*tournoi.Tournoi]
}

// NewDepot returns a repository over store; registre must hold the
// tournament's event types (tournoi.RegisterEvents).
func NewDepot(store eventstore.Store, registre *eventstore.Registry) *Depot {
	return &Depot{depot: repository.Repository[*tournoi.Tournoi]{
		Streams: repository.Streams{Store: store, Registry: registre},
		New:     tournoi.Nouveau,
	}}
}

// Charger replays a tournament; an unknown id gives an empty aggregate
// (version 0) ready for Creer. With a command envelope in ctx it also
// checks the client's version and whether the command was applied already
// (eventstore.Command.Verifier).
func (d *Depot) Charger(ctx context.Context, id string) (*tournoi.Tournoi, error) {
	stream, err := streamname.TournoiStream(id)
	if err != nil {
		return nil, &erreur.Erreur{Code: tournoi.CodeInvalidTournoi, Message: fmt.Sprintf("identifiant de tournoi %.32q invalide : lettres, chiffres, « - » ou « _ », sans le préfixe « classique- » des tournois classiques", id)}
	}
	return d.depot.Load(ctx, stream)
}

// Enregistrer appends the tournament's new events, expecting the stream to
// be exactly as loaded: a concurrent writer gets a *eventstore.ConflictError
// and nothing is written. The events carry the command id as causation. A
// new tournament may not take the id of a classique tournament
// (CodeIdentifiantPris): one id names one tournament.
func (d *Depot) Enregistrer(ctx context.Context, t *tournoi.Tournoi, md eventstore.Metadata) error {
	stream, err := streamname.TournoiStream(t.ID())
	if err != nil {
		return err
	}
	if nouveaux := len(t.Pending()); nouveaux > 0 && t.Version() == nouveaux {
		classique, err := streamname.ClassiqueStream(t.ID())
		if err != nil {
			return err
		}
		pris, err := d.depot.Streams.Exists(ctx, classique)
		if err != nil {
			return err
		}
		if pris {
			return &erreur.Erreur{Code: tournoi.CodeIdentifiantPris, Message: fmt.Sprintf("l'identifiant %s est déjà celui d'un tournoi classique", t.ID())}
		}
	}
	return repository.Conflict(d.depot.Save(ctx, stream, t, md), "le tournoi %s a été modifié entre-temps : recharger", t.ID())
}
