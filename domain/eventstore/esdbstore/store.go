// Package esdbstore is the EventStoreDB / KurrentDB backend, for clusters.
// It maps the eventstore contract onto the gRPC client
// github.com/EventStore/EventStore-Client-Go/v4:
//
//   - Append is AppendToStream with the matching expected revision (Any,
//     NoStream, StreamExists, or an exact revision). The server enforces it
//     and performs the idempotence check on event ids itself.
//   - Our metadata (actor, role, correlation and causation ids, recorded
//     time and schema version) is the event's JSON user metadata; the ids
//     use the server's "$correlationId" and "$causationId" keys so its
//     system projections can follow them.
//   - The global position is the $all commit position: it increases but has
//     gaps. A checkpoint p is sent back as Position{Commit: p, Prepare: p},
//     which is exact for events written without explicit transactions (the
//     only way this package writes).
//   - ReadAll and Subscribe skip system events (types or streams starting
//     with '$'); Subscribe uses the server-side ExcludeSystemEventsFilter.
//   - Every call returns by its context's deadline (or Options.Timeout), a
//     client that failed to connect is replaced after a backoff, and a
//     subscription whose connection drops resubscribes after the last event
//     it delivered (see liaison.go).
package esdbstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"arbitre/domain/eventstore"

	"github.com/EventStore/EventStore-Client-Go/v4/esdb"
)

// Options tune a Store.
type Options struct {
	// Clock stamps RecordedAt; the system clock when nil.
	Clock eventstore.Clock
	// Timeout bounds each append and read whose context has no earlier
	// deadline; DefaultTimeout when zero.
	Timeout time.Duration
	// Backoff is the wait before a new connection after the first failed
	// one, doubling with each failure up to MaxBackoff; DefaultBackoff when
	// zero.
	Backoff time.Duration
}

// DefaultTimeout and DefaultBackoff are the Options used when zero.
const (
	DefaultTimeout = 10 * time.Second
	DefaultBackoff = 100 * time.Millisecond
)

// Store is the EventStoreDB event store. It is safe for concurrent use.
type Store struct {
	liaison *liaison
	clock   eventstore.Clock
	timeout time.Duration
	// closed is cancelled by Close and stops running subscriptions.
	closed context.Context
	close  context.CancelFunc
}

var _ eventstore.Store = (*Store)(nil)

// Open connects to a server or cluster given a connection string such as
// "esdb://localhost:2113?tls=false" or
// "esdb+discover://node1:2113,node2:2113,node3:2113". The connection is
// made by the first call.
func Open(url string, opts Options) (*Store, error) {
	cfg, err := esdb.ParseConnectionString(url)
	if err != nil {
		return nil, eventstore.NewError(eventstore.CodeInvalidArgument, "parsing EventStoreDB URL", err)
	}
	cfg.Logger = clientLog
	if opts.Clock == nil {
		opts.Clock = eventstore.SystemClock
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Backoff <= 0 {
		opts.Backoff = DefaultBackoff
	}
	l := &liaison{newClient: func() (*esdb.Client, error) { return esdb.NewClient(cfg) }, backoff: opts.Backoff}
	if _, err := l.get(); err != nil {
		return nil, err
	}
	closed, closeFn := context.WithCancel(context.Background())
	return &Store{liaison: l, clock: opts.Clock, timeout: opts.Timeout, closed: closed, close: closeFn}, nil
}

// clientLog sends the client library's messages (each discovery attempt,
// each failure) to slog at debug level: the store reports what matters
// through its errors.
func clientLog(level esdb.LogLevel, format string, args ...any) {
	slog.Debug(fmt.Sprintf(format, args...), "source", "esdb", "level", level)
}

// Close closes the connection; running subscriptions return ErrClosed.
func (s *Store) Close() error {
	s.close()
	s.liaison.close()
	return nil
}

// call runs fn on the current client within the store's timeout.
func (s *Store) call(ctx context.Context, fn func(ctx context.Context, c *esdb.Client) error) error {
	return s.liaison.call(ctx, s.timeout, fn)
}

// storedMetadata is the JSON user metadata of each event.
type storedMetadata struct {
	Actor         string    `json:"actor,omitempty"`
	Role          string    `json:"role,omitempty"`
	CorrelationID string    `json:"$correlationId,omitempty"`
	CausationID   string    `json:"$causationId,omitempty"`
	Request       string    `json:"requete,omitempty"`
	RecordedAt    time.Time `json:"recordedAt"`
	SchemaVersion int       `json:"schemaVersion"`
}

func toExpected(e eventstore.ExpectedRevision) esdb.ExpectedRevision {
	if rev, ok := e.Exact(); ok {
		return esdb.Revision(rev)
	}
	switch {
	case e.IsNoStream():
		return esdb.NoStream{}
	case e.IsStreamExists():
		return esdb.StreamExists{}
	default:
		return esdb.Any{}
	}
}

func toEventData(e eventstore.EventData, recordedAt time.Time) (esdb.EventData, error) {
	md, err := json.Marshal(storedMetadata{
		Actor: e.Metadata.Actor, Role: e.Metadata.Role,
		CorrelationID: e.Metadata.CorrelationID, CausationID: e.Metadata.CausationID,
		Request: e.Metadata.Request, RecordedAt: recordedAt, SchemaVersion: e.Version,
	})
	if err != nil {
		return esdb.EventData{}, eventstore.NewError(eventstore.CodeInvalidEvent, "encoding metadata", err)
	}
	return esdb.EventData{EventID: e.ID, EventType: e.Type, ContentType: esdb.ContentTypeJson, Data: e.Data, Metadata: md}, nil
}

// fromRecorded converts a recorded event. Events written by other tools
// without our metadata read as version 1, recorded at the server's date.
func fromRecorded(r *esdb.RecordedEvent) eventstore.Event {
	e := eventstore.Event{
		ID: r.EventID, Stream: r.StreamID, Revision: r.EventNumber, Position: r.Position.Commit,
		Type: r.EventType, Version: 1, Data: r.Data,
		Metadata: eventstore.Metadata{RecordedAt: r.CreatedDate.UTC()},
	}
	var md storedMetadata
	if json.Unmarshal(r.UserMetadata, &md) == nil && md.SchemaVersion > 0 {
		e.Version = md.SchemaVersion
		e.Metadata = eventstore.Metadata{
			Actor: md.Actor, Role: md.Role, CorrelationID: md.CorrelationID, CausationID: md.CausationID,
			Request: md.Request, RecordedAt: md.RecordedAt.UTC(),
		}
	}
	return e
}

func isSystem(r *esdb.RecordedEvent) bool {
	return strings.HasPrefix(r.EventType, "$") || strings.HasPrefix(r.StreamID, "$")
}

func allPosition(p uint64) esdb.AllPosition {
	if p == 0 {
		return esdb.Start{}
	}
	return esdb.Position{Commit: p, Prepare: p}
}

// Append implements eventstore.Store.
func (s *Store) Append(ctx context.Context, stream string, expected eventstore.ExpectedRevision, events ...eventstore.EventData) (eventstore.AppendResult, error) {
	if err := eventstore.ValidateAppend(stream, events); err != nil {
		return eventstore.AppendResult{}, err
	}
	now := s.clock.Now().UTC()
	proposed := make([]esdb.EventData, len(events))
	for i, e := range events {
		var err error
		if proposed[i], err = toEventData(e, now); err != nil {
			return eventstore.AppendResult{}, err
		}
	}
	var res *esdb.WriteResult
	err := s.call(ctx, func(ctx context.Context, c *esdb.Client) error {
		var err error
		res, err = c.AppendToStream(ctx, stream, esdb.AppendToStreamOptions{ExpectedRevision: toExpected(expected)}, proposed...)
		return err
	})
	if err != nil {
		if hasCode(err, esdb.ErrorCodeWrongExpectedVersion) {
			return eventstore.AppendResult{}, s.conflict(ctx, stream, expected)
		}
		return eventstore.AppendResult{}, classify(ctx, "appending to "+stream, err)
	}
	return eventstore.AppendResult{Revision: res.NextExpectedVersion, Position: res.CommitPosition}, nil
}

// conflict reads the current revision, which the client's error does not
// carry as a value, to build the typed conflict.
func (s *Store) conflict(ctx context.Context, stream string, expected eventstore.ExpectedRevision) error {
	c := &eventstore.ConflictError{Stream: stream, Expected: expected}
	err := s.call(ctx, func(ctx context.Context, client *esdb.Client) error {
		last, err := client.ReadStream(ctx, stream, esdb.ReadStreamOptions{Direction: esdb.Backwards, From: esdb.End{}}, 1)
		if err != nil {
			return err
		}
		defer last.Close()
		ev, err := last.Recv()
		switch {
		case err == nil:
			c.Current, c.StreamExists = ev.OriginalEvent().EventNumber, true
		case hasCode(err, esdb.ErrorCodeResourceNotFound), errors.Is(err, io.EOF):
		default:
			return err
		}
		return nil
	})
	if err != nil {
		return errors.Join(c, classify(ctx, "reading the revision of "+stream, err))
	}
	return c
}

// ReadStream implements eventstore.Reader.
func (s *Store) ReadStream(ctx context.Context, stream string, from uint64, limit int) ([]eventstore.Event, error) {
	if err := eventstore.ValidateLimit(limit); err != nil {
		return nil, err
	}
	var out []eventstore.Event
	err := s.call(ctx, func(ctx context.Context, c *esdb.Client) error {
		rs, err := c.ReadStream(ctx, stream, esdb.ReadStreamOptions{Direction: esdb.Forwards, From: esdb.Revision(from)}, uint64(limit))
		if err != nil {
			return err
		}
		defer rs.Close()
		for {
			ev, err := rs.Recv()
			switch {
			case errors.Is(err, io.EOF), hasCode(err, esdb.ErrorCodeResourceNotFound):
				return nil
			case err != nil:
				return err
			}
			out = append(out, fromRecorded(ev.OriginalEvent()))
		}
	})
	if err != nil {
		return nil, classify(ctx, "reading "+stream, err)
	}
	return out, nil
}

// ReadAll implements eventstore.Reader. It reads $all pages until limit
// non-system events are collected or the log ends.
func (s *Store) ReadAll(ctx context.Context, from uint64, limit int) ([]eventstore.Event, error) {
	return s.readAll(ctx, from, true, limit)
}

// ReadAllAfter implements eventstore.Reader: the server reads $all from a
// position inclusively, so the event at after itself is dropped.
func (s *Store) ReadAllAfter(ctx context.Context, after uint64, limit int) ([]eventstore.Event, error) {
	return s.readAll(ctx, after, false, limit)
}

// readAll reads from cursor, including the event at cursor when inclusive.
func (s *Store) readAll(ctx context.Context, cursor uint64, inclusive bool, limit int) ([]eventstore.Event, error) {
	if err := eventstore.ValidateLimit(limit); err != nil {
		return nil, err
	}
	var out []eventstore.Event
	for len(out) < limit {
		var read int
		var last uint64
		err := s.call(ctx, func(ctx context.Context, c *esdb.Client) error {
			rs, err := c.ReadAll(ctx, esdb.ReadAllOptions{Direction: esdb.Forwards, From: allPosition(cursor)}, uint64(limit))
			if err != nil {
				return err
			}
			defer rs.Close()
			read, last, err = drainAll(rs, cursor, inclusive, limit-len(out), &out)
			return err
		})
		if err != nil {
			return nil, classify(ctx, "reading $all", err)
		}
		if read < limit {
			return out, nil
		}
		cursor, inclusive = last, false
	}
	return out, nil
}

// drainAll appends the non-system events of one $all page to out. Reading
// from a position includes it: unless inclusive, the event at the cursor
// (already seen, or excluded by the caller) is skipped.
func drainAll(rs *esdb.ReadStream, cursor uint64, inclusive bool, want int, out *[]eventstore.Event) (read int, last uint64, err error) {
	last = cursor
	for {
		ev, err := rs.Recv()
		if errors.Is(err, io.EOF) {
			return read, last, nil
		}
		if err != nil {
			return read, last, err
		}
		read++
		r := ev.OriginalEvent()
		last = r.Position.Commit
		if (!inclusive && r.Position.Commit <= cursor) || isSystem(r) || want == 0 {
			continue
		}
		*out = append(*out, fromRecorded(r))
		want--
	}
}

// Subscribe implements eventstore.Store with a catch-up subscription to $all
// from the checkpoint (exclusive), filtering system events on the server.
// When the connection drops it subscribes again after the last event it
// delivered, waiting Options.Backoff, doubling up to MaxBackoff, between
// tries; it returns on the handler's error, ctx's end or Close.
func (s *Store) Subscribe(ctx context.Context, checkpoint uint64, h eventstore.Handler) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(s.closed, cancel)
	defer stop()
	last, wait := checkpoint, s.liaison.backoff
	for {
		delivered, err := s.subscribeOnce(ctx, &last, h)
		var refused handlerError
		switch {
		case errors.As(err, &refused):
			return refused.err
		case ctx.Err() != nil:
			return s.stopReason(ctx, err)
		case !transient(err):
			return classify(ctx, "subscribing to $all", err)
		}
		if delivered {
			wait = s.liaison.backoff
		}
		select {
		case <-ctx.Done():
			return s.stopReason(ctx, err)
		case <-time.After(wait):
		}
		wait = min(2*wait, MaxBackoff)
	}
}

// handlerError is the handler's own error, which ends a subscription.
type handlerError struct{ err error }

func (e handlerError) Error() string { return e.err.Error() }

// transient tells whether a subscription that failed with err is tried
// again: a dropped connection or an unreachable server, not a refusal.
func transient(err error) bool {
	return broken(err) || errors.Is(err, errDropped) || eventstore.CodeOf(err) == eventstore.CodeUnavailable
}

// errDropped marks a subscription the server or the transport dropped.
var errDropped = errors.New("subscription to $all dropped")

// subscribeOnce runs one subscription after *last, moving *last along the
// events it delivers, and tells whether it delivered any.
func (s *Store) subscribeOnce(ctx context.Context, last *uint64, h eventstore.Handler) (bool, error) {
	var sub *esdb.Subscription
	err := s.call(ctx, func(callCtx context.Context, c *esdb.Client) error {
		var err error
		// The subscription outlives the call: it runs under ctx, and the
		// call only bounds how long the server takes to confirm it.
		sub, err = c.SubscribeToAll(ctx, esdb.SubscribeToAllOptions{From: allPosition(*last), Filter: esdb.ExcludeSystemEventsFilter()})
		if err == nil && callCtx.Err() != nil {
			sub.Close()
			return callCtx.Err()
		}
		return err
	})
	if err != nil {
		return false, err
	}
	defer sub.Close()
	delivered := false
	for {
		msg := sub.Recv()
		switch {
		case msg.SubscriptionDropped != nil:
			return delivered, fmt.Errorf("%w: %w", errDropped, msg.SubscriptionDropped.Error)
		case msg.EventAppeared != nil:
			r := msg.EventAppeared.OriginalEvent()
			if isSystem(r) || r.Position.Commit <= *last {
				continue
			}
			if err := h(ctx, fromRecorded(r)); err != nil {
				return delivered, handlerError{err}
			}
			*last, delivered = r.Position.Commit, true
		}
	}
}

// stopReason prefers the caller's cancellation and the store's closing to
// the transport error they caused.
func (s *Store) stopReason(ctx context.Context, err error) error {
	switch {
	case s.closed.Err() != nil:
		return eventstore.ErrClosed
	case ctx.Err() != nil:
		return ctx.Err()
	}
	return err
}

// LastPosition returns the commit position of the last event in $all.
func (s *Store) LastPosition(ctx context.Context) (uint64, error) {
	var last uint64
	err := s.call(ctx, func(ctx context.Context, c *esdb.Client) error {
		rs, err := c.ReadAll(ctx, esdb.ReadAllOptions{Direction: esdb.Backwards, From: esdb.End{}}, 1)
		if err != nil {
			return err
		}
		defer rs.Close()
		ev, err := rs.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		last = ev.OriginalEvent().Position.Commit
		return nil
	})
	if err != nil {
		return 0, classify(ctx, "reading the end of $all", err)
	}
	return last, nil
}

func hasCode(err error, code esdb.ErrorCode) bool {
	var esErr *esdb.Error
	return errors.As(err, &esErr) && esErr.IsErrorCode(code)
}

// classify maps client errors to store codes.
func classify(ctx context.Context, what string, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if eventstore.CodeOf(err) != "" {
		return err
	}
	if hasCode(err, esdb.ErrorCodeParsing) {
		return eventstore.NewError(eventstore.CodeMalformedPayload, what, err)
	}
	return eventstore.NewError(eventstore.CodeUnavailable, fmt.Sprintf("%s on EventStoreDB", what), err)
}
