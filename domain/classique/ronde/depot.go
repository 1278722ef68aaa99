package ronde

import (
	"context"
	"errors"

	"arbitre/domain/eventstore"
)

// Depot loads and saves tournaments in an event store.
type Depot struct{ depot eventstore.Depot[*Tournoi] }

// NewDepot returns a repository; registry must hold the tournament events.
func NewDepot(store eventstore.Store, registry *eventstore.Registry) *Depot {
	return &Depot{depot: eventstore.Depot[*Tournoi]{Flux: eventstore.Flux{Store: store, Registry: registry}, Nouveau: nouveau}}
}

// Charger replays a tournament from its stream. With a command envelope in
// ctx it reports eventstore.ErrDejaTraitee when the command was applied
// already, and a conflict when the client's version is not the stream's.
func (d *Depot) Charger(ctx context.Context, id string) (*Tournoi, error) {
	stream, err := Stream(id)
	if err != nil {
		return nil, refusCause(CodeNotFound, err, "Le tournoi %q est introuvable", id)
	}
	t, err := d.depot.Charger(ctx, stream)
	var unknown *eventstore.UnknownEventTypeError
	switch {
	case errors.Is(err, eventstore.ErrMalformedPayload), errors.As(err, &unknown), errors.Is(err, eventstore.ErrFutureSchemaVersion):
		return nil, refusCause(CodeCorruptHistory, err, "Historique illisible du tournoi %s", id)
	case err != nil:
		return nil, err
	case t.Version() == 0:
		return nil, refus(CodeNotFound, "Le tournoi %s n'existe pas", id)
	}
	return t, nil
}

// Enregistrer appends the new events with an exact expected revision; a
// conflict returns CodeConflict and writes nothing.
func (d *Depot) Enregistrer(ctx context.Context, t *Tournoi, md eventstore.Metadata) error {
	if len(t.nouveaux) == 0 {
		return nil
	}
	stream, err := Stream(t.ID())
	if err != nil {
		return refusCause(CodeInvalidTournoi, err, "Identifiant de tournoi %.32q invalide", t.ID())
	}
	if err := d.identifiantLibre(ctx, t); err != nil {
		return err
	}
	err = d.depot.Enregistrer(ctx, stream, t, md)
	if errors.Is(err, eventstore.ErrConflict) {
		return refusCause(CodeConflict, err, "Le tournoi %s a été modifié entre-temps", t.ID())
	}
	return err
}

// identifiantLibre refuses a new tournament whose id a duplicate tournament
// already uses: one id names one tournament.
func (d *Depot) identifiantLibre(ctx context.Context, t *Tournoi) error {
	if t.version > len(t.nouveaux) {
		return nil
	}
	duplicate, err := eventstore.TournoiStream(t.ID())
	if err != nil {
		return nil // an id no duplicate tournament can have
	}
	pris, err := d.depot.Flux.Existe(ctx, duplicate)
	if err != nil {
		return err
	}
	if pris {
		return refus(CodeIdTaken, "L'identifiant %s est déjà celui d'un tournoi duplicate", t.ID())
	}
	return nil
}

// Executer loads a tournament, runs one command on it and saves the result.
// A command already applied (same client mutation id) succeeds without
// running again.
func (d *Depot) Executer(ctx context.Context, id string, md eventstore.Metadata, commande func(*Tournoi) error) error {
	t, err := d.Charger(ctx, id)
	if errors.Is(err, eventstore.ErrDejaTraitee) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := commande(t); err != nil {
		return err
	}
	return d.Enregistrer(ctx, t, md)
}
