package ronde

import (
	"context"
	"errors"

	"arbitre/domain/classique/partie"
	"arbitre/domain/eventstore"
)

// Depot loads and saves tournaments in an event store.
type Depot struct {
	store    eventstore.Store
	registry *eventstore.Registry
}

// NewDepot returns a repository; registry must hold the tournament events.
func NewDepot(store eventstore.Store, registry *eventstore.Registry) *Depot {
	return &Depot{store: store, registry: registry}
}

// Charger replays a tournament from its stream. With a command envelope in
// ctx (eventstore.Commande) it reports eventstore.ErrDejaTraitee when the
// command was applied already, and a conflict when the client's version is
// not the stream's.
func (d *Depot) Charger(ctx context.Context, id string) (*Tournoi, error) {
	stream, err := Stream(id)
	if err != nil {
		return nil, refusCause(CodeNotFound, err, "tournament %q", id)
	}
	recorded, err := eventstore.ReadWholeStream(ctx, d.store, stream)
	if err != nil {
		return nil, err
	}
	if err := eventstore.CommandeDe(ctx).Verifier(stream, recorded); err != nil {
		return nil, err
	}
	if len(recorded) == 0 {
		return nil, refus(CodeNotFound, "no tournament %s", id)
	}
	events := make([]any, len(recorded))
	for i, e := range recorded {
		if events[i], err = d.registry.Decode(e); err != nil {
			return nil, refusCause(CodeCorruptHistory, err, "tournament %s", id)
		}
	}
	return Rejouer(events)
}

// Enregistrer appends the new events with an exact expected revision; a
// conflict returns CodeConflict and writes nothing.
func (d *Depot) Enregistrer(ctx context.Context, t *Tournoi, md eventstore.Metadata) error {
	if len(t.nouveaux) == 0 {
		return nil
	}
	stream, err := Stream(t.ID())
	if err != nil {
		return refusCause(CodeInvalidTournoi, err, "tournament %q", t.ID())
	}
	md = eventstore.CommandeDe(ctx).Metadata(md)
	data := make([]eventstore.EventData, len(t.nouveaux))
	for i, e := range t.nouveaux {
		id, err := partie.EventID(stream, t.enregistres+i, e)
		if err != nil {
			return err
		}
		if data[i], err = d.registry.NewEventData(id, e, md); err != nil {
			return err
		}
	}
	expected := eventstore.NoStream
	if t.enregistres > 0 {
		expected = eventstore.Exact(uint64(t.enregistres - 1))
	}
	if _, err := d.store.Append(ctx, stream, expected, data...); err != nil {
		if errors.Is(err, eventstore.ErrConflict) {
			return refusCause(CodeConflict, err, "tournament %s changed since it was loaded", t.ID())
		}
		return err
	}
	t.enregistres, t.nouveaux = t.version, nil
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
