package eventstore

import (
	"context"
	"encoding/json"
	"fmt"
)

// Handler receives the events of a subscription one by one, in global order.
// Returning an error stops the subscription, which returns that error.
type Handler func(ctx context.Context, e Event) error

// Reader reads recorded events.
type Reader interface {
	// ReadStream returns up to limit events of one stream, starting at
	// revision from (inclusive), in revision order. A stream without events
	// yields an empty slice and no error.
	ReadStream(ctx context.Context, stream string, from uint64, limit int) ([]Event, error)
	// ReadAll returns up to limit events of the global log, starting at
	// global position from (inclusive; 0 means the beginning), in global
	// order. System events of the backend never appear. from must be 0 or
	// the position of an event read from this store.
	ReadAll(ctx context.Context, from uint64, limit int) ([]Event, error)
	// ReadAllAfter returns up to limit events of the global log whose
	// position is after the given one (exclusive; 0 means the beginning),
	// in global order: how a caller reads on from an event it has seen.
	// Positions are opaque: they increase along the log but may have gaps
	// (EventStoreDB), so a caller compares, stores and passes them back as
	// given and never computes one.
	ReadAllAfter(ctx context.Context, after uint64, limit int) ([]Event, error)
}

// Store is the event store the domain uses.
type Store interface {
	Reader
	// Append writes events at the end of a stream, all or nothing, if the
	// stream satisfies expected. A stale expectation returns a *ConflictError
	// (errors.Is(err, ErrConflict)) and writes nothing.
	Append(ctx context.Context, stream string, expected ExpectedRevision, events ...EventData) (AppendResult, error)
	// Subscribe calls h for every event whose global position is after
	// checkpoint: the history first, then live events as they are appended.
	// It blocks until ctx is done (returning ctx.Err()), h fails (returning
	// its error) or the store fails or closes.
	Subscribe(ctx context.Context, checkpoint uint64, h Handler) error
	// Close releases the store; running subscriptions return ErrClosed.
	Close() error
}

// BoundKeys is a store that binds each idempotency key to one request: an
// append whose events carry a key (their Metadata.Actor and a CausationID)
// and a request fingerprint (Metadata.Request) is refused in its own
// transaction with ErrKeyReused, and writes nothing, when the log holds an
// event under that key recorded for another request; and it answers that
// question without reading the log. The SQLite store does.
// EventStoreDB has neither a transaction over the log nor such a hook:
// there idempotency.Keys reads the log before each command.
type BoundKeys interface {
	// KeyReused reports whether the log holds an event under the key
	// (actor, id) recorded for another request than request; a key or a
	// request left empty is never reused.
	KeyReused(ctx context.Context, actor, id, request string) (bool, error)
	// LoadKeys prepares the first KeyReused ahead (a server at its start).
	LoadKeys(ctx context.Context) error
}

// PageSize is the number of events ReadWholeStream and replays read at once.
const PageSize = 1000

// ReadWholeStream returns every event of a stream, in revision order.
func ReadWholeStream(ctx context.Context, r Reader, stream string) ([]Event, error) {
	return ReadStreamFrom(ctx, r, stream, 0)
}

// ForEachAfter calls fn for every event of the global log after position
// after, in global order, reading PageSize events at a time, until the end
// of the log or fn's first error. It returns the position of the last event
// it passed to fn (after when there was none).
func ForEachAfter(ctx context.Context, r Reader, after uint64, fn func(Event) error) (uint64, error) {
	last := after
	_, err := ForEachPage(ctx, r, after, PageSize, func(page []Event) error {
		for _, e := range page {
			if err := fn(e); err != nil {
				return err
			}
			last = e.Position
		}
		return nil
	})
	return last, err
}

// ForEachPage reads the global log after position after, size events at a
// time, and calls fn with each page until the end of the log or fn's first
// error. It returns the position of the last event read.
func ForEachPage(ctx context.Context, r Reader, after uint64, size int, fn func([]Event) error) (uint64, error) {
	for {
		page, err := r.ReadAllAfter(ctx, after, size)
		if err != nil || len(page) == 0 {
			return after, err
		}
		if err := fn(page); err != nil {
			return after, err
		}
		after = page[len(page)-1].Position
		if len(page) < size {
			return after, nil
		}
	}
}

// ValidateAppend checks the arguments of an append the same way for every
// backend: a stream name, at least one event, non-nil and distinct ids, a
// type, a version of at least 1 and a JSON payload.
func ValidateAppend(stream string, events []EventData) error {
	if stream == "" {
		return newError(CodeInvalidArgument, "stream name is empty", nil)
	}
	if len(events) == 0 {
		return newError(CodeInvalidArgument, "append to "+stream+" has no event", nil)
	}
	seen := make(map[[16]byte]struct{}, len(events))
	for i, e := range events {
		// Named only for a refusal: a federation's history is millions
		// of events.
		where := func() string { return fmt.Sprintf("event %d of append to %s", i, stream) }
		switch {
		case e.ID == [16]byte{}:
			return newError(CodeInvalidEvent, where()+": id is the nil UUID", nil)
		case e.Type == "":
			return newError(CodeInvalidEvent, where()+": type is empty", nil)
		case e.Version < 1:
			return newError(CodeInvalidEvent, fmt.Sprintf("%s: schema version %d is below 1", where(), e.Version), nil)
		case !isJSON(e.Data):
			return newError(CodeInvalidEvent, where()+": data is not valid JSON", nil)
		}
		if _, dup := seen[e.ID]; dup {
			return newError(CodeInvalidEvent, where()+": id "+e.ID.String()+" appears twice in the batch", nil)
		}
		seen[e.ID] = struct{}{}
	}
	return nil
}

// ValidateLimit refuses a non-positive read limit.
func ValidateLimit(limit int) error {
	if limit <= 0 {
		return newError(CodeInvalidArgument, fmt.Sprintf("read limit %d must be positive", limit), nil)
	}
	return nil
}

// ReadStreamFrom returns the events of a stream from a revision on.
func ReadStreamFrom(ctx context.Context, r Reader, stream string, from uint64) ([]Event, error) {
	var all []Event
	for {
		page, err := r.ReadStream(ctx, stream, from, PageSize)
		if err != nil {
			return nil, err
		}
		all = append(all, page...)
		if len(page) < PageSize {
			return all, nil
		}
		from = page[len(page)-1].Revision + 1
	}
}

func isJSON(data []byte) bool { return len(data) > 0 && json.Valid(data) }
