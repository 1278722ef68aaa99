package repository

import (
	"context"
	"errors"
	"strconv"

	"github.com/google/uuid"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/idempotency"
)

// Streams loads and saves the events of one aggregate's stream. Every
// repository shares it, so that all of them decode, check the command
// envelope, name events and detect conflicts the same way.
type Streams struct {
	Store    eventstore.Store
	Registry *eventstore.Registry
}

// Load reads a stream whole and decodes its events in order. With a
// command envelope in ctx it first checks it (Command.Check): a command
// already applied gives ErrAlreadyApplied, a stale client version a
// *ConflictError.
func (f Streams) Load(ctx context.Context, stream string) ([]any, error) {
	payloads, _, err := f.charger(ctx, stream, eventstore.ReadWholeStream)
	return payloads, err
}

// charger reads with lire, checks the command envelope of ctx over what it
// read and decodes it.
func (f Streams) charger(ctx context.Context, stream string, lire func(context.Context, eventstore.Reader, string) ([]eventstore.Event, error)) ([]any, []eventstore.Event, error) {
	recorded, err := lire(ctx, f.Store, stream)
	if err != nil {
		return nil, nil, err
	}
	if err := idempotency.CommandFrom(ctx).Check(stream, recorded); err != nil {
		return nil, nil, err
	}
	payloads, err := f.decoder(recorded)
	return payloads, recorded, err
}

// decoder decodes recorded events in order.
func (f Streams) decoder(recorded []eventstore.Event) ([]any, error) {
	payloads := make([]any, len(recorded))
	for i, e := range recorded {
		var err error
		if payloads[i], err = f.Registry.Decode(e); err != nil {
			return nil, err
		}
	}
	return payloads, nil
}

// Save appends the events an aggregate recorded since it was loaded
// with `charges` events, expecting the stream to hold exactly those: a
// concurrent writer gets a *ConflictError and nothing is written. The
// events carry the command id of ctx as causation; when the stream turns
// out to hold that command's events already it is done, when another
// request's under the same key it is ErrKeyReused.
func (f Streams) Save(ctx context.Context, stream string, charges int, nouveaux []any, md eventstore.Metadata) error {
	if len(nouveaux) == 0 {
		return nil
	}
	data, expected, err := f.donnees(ctx, stream, charges, nouveaux, md)
	if err != nil {
		return err
	}
	_, err = f.Store.Append(ctx, stream, expected, data...)
	if errors.Is(err, eventstore.ErrConflict) && idempotency.CommandFrom(ctx).ID != "" {
		return f.apresConflit(ctx, stream, err, eventstore.ReadWholeStream)
	}
	return err
}

// BatchPart is one part of SaveBatch: the events recorded for Stream
// after the Version events it held when loaded.
type BatchPart struct {
	Stream  string
	Version int
	Events  []any
}

// SaveBatch saves several streams' new events, each part as Save does, in
// one batch (eventstore.AppendBatch: on a store with Batches, every part
// or none, in one commit). A conflict is the batch's *ConflictError.
func (f Streams) SaveBatch(ctx context.Context, lot []BatchPart, md eventstore.Metadata) error {
	if len(lot) == 0 {
		return nil
	}
	ajouts := make([]eventstore.BatchPart, len(lot))
	for i, n := range lot {
		data, expected, err := f.donnees(ctx, n.Stream, n.Version, n.Events, md)
		if err != nil {
			return err
		}
		ajouts[i] = eventstore.BatchPart{Stream: n.Stream, Expected: expected, Events: data}
	}
	_, err := eventstore.AppendBatch(ctx, f.Store, ajouts)
	return err
}

// donnees encodes the events an aggregate recorded, to be appended to
// stream after its `charges` events, under the command envelope of ctx.
func (f Streams) donnees(ctx context.Context, stream string, charges int, nouveaux []any, md eventstore.Metadata) ([]eventstore.EventData, eventstore.ExpectedRevision, error) {
	md = idempotency.CommandFrom(ctx).Metadata(md)
	data := make([]eventstore.EventData, len(nouveaux))
	for i, e := range nouveaux {
		var err error
		if data[i], err = f.Registry.NewEventData(uuid.Nil, e, md); err != nil {
			return nil, eventstore.Any, err
		}
		data[i].ID = EventID(stream, charges+i, &data[i])
	}
	if charges > 0 {
		return data, eventstore.Exact(uint64(charges - 1)), nil
	}
	return data, eventstore.NoStream, nil
}

// apresConflit looks again at a stream another writer changed under a
// command with an id: the writer may have been this very request (a retry
// that raced it, done: nil) or another request under its key
// (ErrKeyReused); otherwise the conflict stands.
func (f Streams) apresConflit(ctx context.Context, stream string, conflit error, lire func(context.Context, eventstore.Reader, string) ([]eventstore.Event, error)) error {
	recorded, err := lire(ctx, f.Store, stream)
	if err != nil {
		return conflit
	}
	switch err := idempotency.CommandFrom(ctx).Check(stream, recorded); {
	case errors.Is(err, idempotency.ErrAlreadyApplied):
		return nil
	case errors.Is(err, idempotency.ErrKeyReused):
		return err
	}
	return conflit
}

// Exists reports whether a stream holds at least one event.
func (f Streams) Exists(ctx context.Context, stream string) (bool, error) {
	page, err := f.Store.ReadStream(ctx, stream, 0, 1)
	return len(page) > 0, err
}

// EventID names an event by its place in the stream, its content and
// the request that caused it: the same request retried gives the same ids
// (the store recognizes the retry and writes nothing), while another writer
// at the same place (another request or other content) gets other ids and a
// conflict, never a silent success.
func EventID(stream string, revision int, e *eventstore.EventData) uuid.UUID {
	// Appended by hand, one buffer sized for all: a federation's history
	// names millions of events.
	md := &e.Metadata
	h := make([]byte, 0, len(stream)+len(e.Type)+len(md.Actor)+len(md.Role)+len(md.CorrelationID)+len(md.CausationID)+len(md.Request)+len(e.Data)+48)
	h = append(append(h, stream...), '/')
	h = append(strconv.AppendInt(h, int64(revision), 10), '/')
	h = append(append(h, e.Type...), '/')
	h = append(strconv.AppendInt(h, int64(e.Version), 10), '/')
	for _, v := range [...]string{md.Actor, md.Role, md.CorrelationID, md.CausationID, md.Request} {
		h = append(append(h, v...), '/')
	}
	return uuid.NewSHA1(uuid.NameSpaceOID, append(h, e.Data...))
}
