package eventstore

import (
	"context"
	"fmt"
)

// Agregat is an event-sourced aggregate as the repository sees it. Every
// aggregate of the domain follows one idiom (docs/architecture.md): a
// command records its events all or nothing, Appliquer replays one event,
// Nouveaux reads the events recorded and not saved yet without forgetting
// them, and Sauves forgets them once the repository has appended them.
type Agregat interface {
	// Appliquer is the transition function shared by commands and replay.
	Appliquer(e any) error
	// Version is the number of events the aggregate holds, saved or not.
	Version() int
	// Nouveaux are the events recorded since the last save.
	Nouveaux() []any
	// Sauves tells the aggregate its new events are stored.
	Sauves()
}

// Depot is the one repository of the aggregates: it replays a stream into
// a new aggregate and appends the aggregate's new events expecting the
// stream to hold exactly what was loaded. The aggregates' adapters name the
// streams and give the store's errors their own codes.
type Depot[A Agregat] struct {
	Flux Flux
	// Nouveau returns an empty aggregate, ready for a replay.
	Nouveau func() A
}

// Charger replays a stream whole (Flux.Charger) into a new aggregate; an
// empty stream gives an aggregate at version 0.
func (d Depot[A]) Charger(ctx context.Context, stream string) (A, error) {
	var zero A
	evts, err := d.Flux.Charger(ctx, stream)
	if err != nil {
		return zero, err
	}
	a, err := Rejouer(d.Nouveau(), evts)
	if err != nil {
		return zero, fmt.Errorf("%s, %w", stream, err)
	}
	return a, nil
}

// Rejouer applies a stream's events in order to a new aggregate.
func Rejouer[A Agregat](a A, evts []any) (A, error) {
	for i, e := range evts {
		if err := a.Appliquer(e); err != nil {
			var zero A
			return zero, fmt.Errorf("événement %d : %w", i, err)
		}
	}
	return a, nil
}

// Enregistrer appends the aggregate's new events (Flux.Enregistrer) and, once
// they are stored, tells the aggregate so. On an error nothing is written
// and the events stay new.
func (d Depot[A]) Enregistrer(ctx context.Context, stream string, a A, md Metadata) error {
	nouveaux := a.Nouveaux()
	if len(nouveaux) == 0 {
		return nil
	}
	if err := d.Flux.Enregistrer(ctx, stream, a.Version()-len(nouveaux), nouveaux, md); err != nil {
		return err
	}
	a.Sauves()
	return nil
}
