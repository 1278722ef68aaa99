package partie

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"arbitre/domain/eventstore"

	"github.com/google/uuid"
)

// Depot loads and saves matches in an event store.
type Depot struct {
	store    eventstore.Store
	registry *eventstore.Registry
	regles   *Regles
}

// NewDepot returns a repository; registry must hold the match events
// (Register).
func NewDepot(store eventstore.Store, registry *eventstore.Registry, regles *Regles) *Depot {
	return &Depot{store: store, registry: registry, regles: regles}
}

// namespace makes event ids deterministic: the id of an event is derived
// from its stream, revision and content, so a retried save is idempotent, a
// different command at the same revision is a conflict, and a simulation
// gives the same log for the same seed.
var namespace = uuid.MustParse("5b0b2c1e-6f0d-4c55-9a43-6c1a55a1c1a5")

// EventID is the id of an event payload at a revision of a stream.
func EventID(stream string, revision int, payload any) (uuid.UUID, error) {
	data, err := json.Marshal(payload)
	if err != nil {
		return uuid.Nil, err
	}
	return uuid.NewSHA1(namespace, fmt.Appendf(nil, "%s/%d/%T/%s", stream, revision, payload, data)), nil
}

// Charger replays a match from its stream. With a command envelope in ctx
// (eventstore.Commande) it reports eventstore.ErrDejaTraitee when the
// command was applied already, and a conflict when the client's version is
// not the stream's.
func (d *Depot) Charger(ctx context.Context, id string) (*Partie, error) {
	stream, err := eventstore.MatchStream(id)
	if err != nil {
		return nil, refusCause(CodeNotFound, err, "match %q", id)
	}
	recorded, err := eventstore.ReadWholeStream(ctx, d.store, stream)
	if err != nil {
		return nil, err
	}
	if err := eventstore.CommandeDe(ctx).Verifier(stream, recorded); err != nil {
		return nil, err
	}
	if len(recorded) == 0 {
		return nil, refus(CodeNotFound, "no match %s", id)
	}
	events := make([]any, len(recorded))
	for i, e := range recorded {
		if events[i], err = d.registry.Decode(e); err != nil {
			return nil, refusCause(CodeCorruptHistory, err, "match %s", id)
		}
	}
	return Rejouer(d.regles, events)
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
		return refusCause(CodeInvalidMatch, err, "match %q", p.ID())
	}
	md = eventstore.CommandeDe(ctx).Metadata(md)
	data := make([]eventstore.EventData, len(p.nouveaux))
	for i, e := range p.nouveaux {
		id, err := EventID(stream, p.enregistres+i, e)
		if err != nil {
			return err
		}
		if data[i], err = d.registry.NewEventData(id, e, md); err != nil {
			return err
		}
	}
	expected := eventstore.NoStream
	if p.enregistres > 0 {
		expected = eventstore.Exact(uint64(p.enregistres - 1))
	}
	if _, err := d.store.Append(ctx, stream, expected, data...); err != nil {
		if errors.Is(err, eventstore.ErrConflict) {
			return refusCause(CodeConflict, err, "match %s changed since it was loaded", p.ID())
		}
		return err
	}
	p.enregistres, p.nouveaux = p.version, nil
	return nil
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
