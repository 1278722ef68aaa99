package partie

import (
	"context"
	"errors"

	"arbitre/domain/eventstore"
)

// Depot loads and saves matches in an event store.
type Depot struct{ depot eventstore.Depot[*Partie] }

// NewDepot returns a repository; registry must hold the match events
// (Register).
func NewDepot(store eventstore.Store, registry *eventstore.Registry, regles *Regles) *Depot {
	return &Depot{depot: eventstore.Depot[*Partie]{
		Flux:    eventstore.Flux{Store: store, Registry: registry},
		Nouveau: func() *Partie { return &Partie{regles: regles} },
	}}
}

// Charger replays a match from its stream. With a command envelope in ctx
// (eventstore.Commande) it reports eventstore.ErrDejaTraitee when the
// command was applied already, and a conflict when the client's version is
// not the stream's.
func (d *Depot) Charger(ctx context.Context, id string) (*Partie, error) {
	stream, err := eventstore.MatchStream(id)
	if err != nil {
		return nil, refusCause(CodeNotFound, err, "Le match %q est introuvable", id)
	}
	p, err := d.depot.Charger(ctx, stream)
	var unknown *eventstore.UnknownEventTypeError
	switch {
	case errors.Is(err, eventstore.ErrMalformedPayload), errors.As(err, &unknown), errors.Is(err, eventstore.ErrFutureSchemaVersion):
		return nil, refusCause(CodeCorruptHistory, err, "Historique illisible du match %s", id)
	case err != nil:
		return nil, err
	case p.Version() == 0:
		return nil, refus(CodeNotFound, "Le match %s n'existe pas", id)
	}
	return p, nil
}

// Enregistrer appends the match's new events, expecting nobody else wrote
// since it was loaded; a conflict returns CodeConflict and nothing is
// written. On success the events are no longer new.
func (d *Depot) Enregistrer(ctx context.Context, p *Partie, md eventstore.Metadata) error {
	if len(p.nouveaux) == 0 {
		return nil
	}
	stream, err := eventstore.MatchStream(p.ID())
	if err != nil {
		return refusCause(CodeInvalidMatch, err, "Identifiant de match %q invalide", p.ID())
	}
	err = d.depot.Enregistrer(ctx, stream, p, md)
	if errors.Is(err, eventstore.ErrConflict) {
		return refusCause(CodeConflict, err, "Le match %s a été modifié entre-temps", p.ID())
	}
	return err
}

// Executer loads a match, runs one command on it and saves the result. A
// command already applied (same client mutation id) succeeds without
// running again.
func (d *Depot) Executer(ctx context.Context, id string, md eventstore.Metadata, commande func(*Partie) error) error {
	p, err := d.Charger(ctx, id)
	if errors.Is(err, eventstore.ErrDejaTraitee) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := commande(p); err != nil {
		return err
	}
	return d.Enregistrer(ctx, p, md)
}
