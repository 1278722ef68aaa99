package repository

import (
	"context"
	"fmt"

	"arbitre/domain/eventstore"
)

// Aggregate is an event-sourced aggregate as the repository sees it. Every
// aggregate of the domain follows one idiom (docs/architecture.md): a
// command records its events all or nothing, Apply replays one event,
// Pending reads the events recorded and not saved yet without forgetting
// them, and MarkSaved forgets them once the repository has appended them.
type Aggregate interface {
	// Apply is the transition function shared by commands and replay.
	Apply(e any) error
	// Version is the number of events the aggregate holds, saved or not.
	Version() int
	// Pending are the events recorded since the last save.
	Pending() []any
	// MarkSaved tells the aggregate its new events are stored.
	MarkSaved()
}

// Repository is the one repository of the aggregates: it replays a stream into
// a new aggregate and appends the aggregate's new events expecting the
// stream to hold exactly what was loaded. The aggregates' adapters name the
// streams and give the store's errors their own codes.
type Repository[A Aggregate] struct {
	Streams Streams
	// New returns an empty aggregate, ready for a replay.
	New func() A
}

// Load replays a stream whole (Streams.Load) into a new aggregate; an
// empty stream gives an aggregate at version 0.
func (d Repository[A]) Load(ctx context.Context, stream string) (A, error) {
	var zero A
	evts, err := d.Streams.Load(ctx, stream)
	if err != nil {
		return zero, err
	}
	a, err := Replay(d.New(), evts)
	if err != nil {
		return zero, fmt.Errorf("%s, %w", stream, err)
	}
	return a, nil
}

// Replay applies a stream's events in order to a new aggregate.
func Replay[A Aggregate](a A, evts []any) (A, error) {
	for i, e := range evts {
		if err := a.Apply(e); err != nil {
			var zero A
			return zero, fmt.Errorf("événement %d : %w", i, err)
		}
	}
	return a, nil
}

// Save appends the aggregate's new events (Streams.Save) and, once
// they are stored, tells the aggregate so. On an error nothing is written
// and the events stay new.
func (d Repository[A]) Save(ctx context.Context, stream string, a A, md eventstore.Metadata) error {
	nouveaux := a.Pending()
	if len(nouveaux) == 0 {
		return nil
	}
	if err := d.Streams.Save(ctx, stream, a.Version()-len(nouveaux), nouveaux, md); err != nil {
		return err
	}
	a.MarkSaved()
	return nil
}
