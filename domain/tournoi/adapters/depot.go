// Package adapters stores tournaments in the event store: one stream
// "tournoi-<id>" per tournament.
package adapters

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"arbitre/domain/eventstore"
	"arbitre/domain/tournoi"
)

// Depot loads and saves tournaments.
type Depot struct {
	store    eventstore.Store
	registre *eventstore.Registry
}

// NewDepot returns a repository over store; registre must hold the
// tournament's event types (tournoi.Enregistrer).
func NewDepot(store eventstore.Store, registre *eventstore.Registry) *Depot {
	return &Depot{store: store, registre: registre}
}

// Charger replays a tournament; an unknown id gives an empty aggregate
// (version 0) ready for Creer. With a command envelope in ctx it also
// checks the client's version and whether the command was applied already
// (eventstore.Commande.Verifier).
func (d *Depot) Charger(ctx context.Context, id string) (*tournoi.Tournoi, error) {
	stream, err := eventstore.TournoiStream(id)
	if err != nil {
		return nil, &tournoi.Erreur{Code: "INVALID_TOURNOI", Message: fmt.Sprintf("identifiant de tournoi %q invalide", id)}
	}
	evts, err := eventstore.ReadWholeStream(ctx, d.store, stream)
	if err != nil {
		return nil, err
	}
	t := tournoi.Nouveau()
	for _, e := range evts {
		payload, err := d.registre.Decode(e)
		if err != nil {
			return nil, err
		}
		if err := t.Appliquer(payload); err != nil {
			return nil, err
		}
	}
	return t, eventstore.CommandeDe(ctx).Verifier(stream, evts)
}

// Enregistrer appends the tournament's new events, expecting the stream to
// be exactly as loaded: a concurrent writer gets a *eventstore.ConflictError
// and nothing is written. The events carry the command id as causation.
func (d *Depot) Enregistrer(ctx context.Context, t *tournoi.Tournoi, md eventstore.Metadata) error {
	nouveaux := t.Nouveaux()
	if len(nouveaux) == 0 {
		return nil
	}
	stream, err := eventstore.TournoiStream(t.ID())
	if err != nil {
		return err
	}
	avant := t.Version() - len(nouveaux)
	attendu := eventstore.NoStream
	if avant > 0 {
		attendu = eventstore.Exact(uint64(avant - 1))
	}
	md = eventstore.CommandeDe(ctx).Metadata(md)
	data := make([]eventstore.EventData, len(nouveaux))
	for i, e := range nouveaux {
		if data[i], err = d.registre.NewEventData(uuid.New(), e, md); err != nil {
			return err
		}
	}
	_, err = d.store.Append(ctx, stream, attendu, data...)
	return err
}
