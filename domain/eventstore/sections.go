package eventstore

import (
	"context"
	"fmt"
)

// Guard is a condition an append checks in its own transaction: the stream
// Stream (with Sections, its sub-streams instead) holds no event after
// global position After. A command decided on what it read guards what it
// read and did not write.
type Guard struct {
	Stream   string
	Sections bool
	After    uint64
}

// String describes the guard for errors.
func (g Guard) String() string {
	if g.Sections {
		return fmt.Sprintf("the table streams of %s after position %d", g.Stream, g.After)
	}
	return fmt.Sprintf("%s after position %d", g.Stream, g.After)
}

// Sections is a store that keeps an aggregate across a stream and its
// sub-streams atomically: the SQLite store. EventStoreDB has no transaction
// over several streams and does not implement it; there a game keeps every
// event in its own stream (docs/eventstore.md).
type Sections interface {
	// ReadSections returns every event of stream and of its sub-streams
	// whose global position is after the given one (0: all), in global
	// order.
	ReadSections(ctx context.Context, stream string, after uint64) ([]Event, error)
	// AppendGuarded is Append that also checks every guard in the same
	// transaction: a guard that fails is a *ConflictError naming the
	// guarded stream, and nothing is written.
	AppendGuarded(ctx context.Context, stream string, expected ExpectedRevision, gardes []Guard, events ...EventData) (AppendResult, error)
}

// ReadFamily returns the events of stream and of its sub-streams in global
// order on a store that keeps sub-streams (Sections), the stream alone on
// any other.
func ReadFamily(ctx context.Context, r Reader, stream string) ([]Event, error) {
	if s, ok := r.(Sections); ok {
		return s.ReadSections(ctx, stream, 0)
	}
	return ReadWholeStream(ctx, r, stream)
}
