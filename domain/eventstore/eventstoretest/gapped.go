package eventstoretest

import (
	"context"
	"fmt"

	"arbitre/domain/eventstore"
)

// Gapped wraps a store whose positions are 1, 2, 3... (SQLite) so that its
// positions have irregular gaps, as EventStoreDB's do: the event at inner
// position p is at p*1000 + p*p%997. Like EventStoreDB, which cannot start
// a read between two events, it refuses a position it never gave (other
// than 0), so a caller that computes a position (p+1, p-1) fails instead of
// reading the wrong events (issue 16, item 7). Run(t, Gapped-factory) runs
// the whole contract on it.
func Gapped(inner eventstore.Store) eventstore.Store { return gapped{inner} }

type gapped struct{ inner eventstore.Store }

// outer maps an inner position to the one callers see.
func outer(p uint64) uint64 { return p*1000 + p*p%997 }

// inward maps a position given by a caller back, refusing one the store
// never gave.
func inward(p uint64) (uint64, error) {
	if p == 0 {
		return 0, nil
	}
	if q := p / 1000; q > 0 && outer(q) == p {
		return q, nil
	}
	return 0, eventstore.NewError(eventstore.CodeInvalidArgument, fmt.Sprintf("position %d is not the position of an event: positions are opaque, never computed", p), nil)
}

func outerEvents(events []eventstore.Event, err error) ([]eventstore.Event, error) {
	for i := range events {
		events[i].Position = outer(events[i].Position)
	}
	return events, err
}

func (g gapped) ReadStream(ctx context.Context, stream string, from uint64, limit int) ([]eventstore.Event, error) {
	return outerEvents(g.inner.ReadStream(ctx, stream, from, limit))
}

func (g gapped) ReadAll(ctx context.Context, from uint64, limit int) ([]eventstore.Event, error) {
	p, err := inward(from)
	if err != nil {
		return nil, err
	}
	return outerEvents(g.inner.ReadAll(ctx, p, limit))
}

func (g gapped) ReadAllAfter(ctx context.Context, after uint64, limit int) ([]eventstore.Event, error) {
	p, err := inward(after)
	if err != nil {
		return nil, err
	}
	return outerEvents(g.inner.ReadAllAfter(ctx, p, limit))
}

func (g gapped) Append(ctx context.Context, stream string, expected eventstore.ExpectedRevision, events ...eventstore.EventData) (eventstore.AppendResult, error) {
	res, err := g.inner.Append(ctx, stream, expected, events...)
	if err == nil {
		res.Position = outer(res.Position)
	}
	return res, err
}

func (g gapped) Subscribe(ctx context.Context, checkpoint uint64, h eventstore.Handler) error {
	p, err := inward(checkpoint)
	if err != nil {
		return err
	}
	return g.inner.Subscribe(ctx, p, func(ctx context.Context, e eventstore.Event) error {
		e.Position = outer(e.Position)
		return h(ctx, e)
	})
}

func (g gapped) Close() error { return g.inner.Close() }
