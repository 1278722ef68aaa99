// Package eventstoretest is the conformance suite every eventstore.Store
// backend must pass. A backend's tests call Run with a factory.
package eventstoretest

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/streamname"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Factory returns a store whose appends are stamped by clock. The store may
// hold events from earlier tests (EventStoreDB cannot be emptied): the suite
// uses unique stream names and positions it learned itself. The factory
// registers the store's Close with t.Cleanup.
type Factory func(t *testing.T, clock eventstore.Clock) eventstore.Store

// Capabilities are the backend differences the contract allows.
type Capabilities struct {
	// GaplessPositions: global positions are 1, 2, 3... (SQLite).
	GaplessPositions bool
}

// StepClock is a deterministic clock that advances one millisecond per call.
type StepClock struct {
	mu   sync.Mutex
	next time.Time
}

// NewStepClock starts at start.
func NewStepClock(start time.Time) *StepClock { return &StepClock{next: start.UTC()} }

// Now returns the current time and advances.
func (c *StepClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.next
	c.next = c.next.Add(time.Millisecond)
	return now
}

// Epoch is the first time every StepClock of the suite returns.
var Epoch = time.Date(2025, 3, 15, 9, 30, 0, 0, time.UTC)

// Run runs the whole contract.
func Run(t *testing.T, newStore Factory, caps Capabilities) {
	t.Run("AppendThenReadStreamRoundTripsEveryField", func(t *testing.T) { testRoundTrip(t, newStore) })
	t.Run("ExpectedRevisionIsEnforced", func(t *testing.T) { testExpectedRevision(t, newStore) })
	t.Run("RetryOfStoredBatchIsIdempotent", func(t *testing.T) { testIdempotence(t, newStore) })
	t.Run("InvalidAppendIsRefusedAndWritesNothing", func(t *testing.T) { testInvalidAppend(t, newStore) })
	t.Run("ReadStreamPagesFromRevision", func(t *testing.T) { testReadStreamPaging(t, newStore) })
	t.Run("ReadAllIsInGlobalOrder", func(t *testing.T) { testReadAll(t, newStore, caps) })
	t.Run("SubscribeDeliversHistoryThenLiveWithoutGapOrDuplicate", func(t *testing.T) { testSubscribeCatchUp(t, newStore) })
	t.Run("SubscribeStopsOnHandlerErrorAndCancellation", func(t *testing.T) { testSubscribeStops(t, newStore) })
	t.Run("ConcurrentWritersGetExactlyOneWinnerPerRevision", func(t *testing.T) { testOneWinnerPerRevision(t, newStore) })
	t.Run("ConcurrentWritersNeverLeaveGapsOrDuplicates", func(t *testing.T) { testFreeForAll(t, newStore) })
}

// uniqueStream returns a stream name no earlier run used.
func uniqueStream(kind streamname.StreamKind) string {
	name, err := streamname.StreamName(kind, uuid.NewString())
	if err != nil {
		panic(err)
	}
	return name
}

// Events builds n distinct events of type "test.coup" with payload {"n":i}.
func Events(n int) []eventstore.EventData {
	out := make([]eventstore.EventData, n)
	for i := range out {
		out[i] = eventstore.EventData{
			ID:      uuid.New(),
			Type:    "test.coup",
			Version: 1,
			Data:    json.RawMessage(fmt.Sprintf(`{"n":%d}`, i)),
			Metadata: eventstore.Metadata{
				Actor: "arbitre-42", Role: "arbitre",
				CorrelationID: "corr-1", CausationID: fmt.Sprintf("cmd-%d", i), Request: fmt.Sprintf("tirer:%d", i),
			},
		}
	}
	return out
}

func testRoundTrip(t *testing.T, newStore Factory) {
	ctx := context.Background()
	store := newStore(t, NewStepClock(Epoch))
	stream := uniqueStream(streamname.KindPartie)
	in := Events(3)
	in[1].Version = 2
	in[2].Data = json.RawMessage(`{"mot":"ÉTOILÉ","points":[1,2,3]}`)

	res, err := store.Append(ctx, stream, eventstore.NoStream, in...)
	require.NoError(t, err)
	assert.Equal(t, uint64(2), res.Revision)

	got, err := eventstore.ReadWholeStream(ctx, store, stream)
	require.NoError(t, err)
	require.Len(t, got, 3)
	for i, e := range got {
		assert.Equal(t, in[i].ID, e.ID, "id of event %d", i)
		assert.Equal(t, stream, e.Stream)
		assert.Equal(t, uint64(i), e.Revision)
		assert.Equal(t, in[i].Type, e.Type)
		assert.Equal(t, in[i].Version, e.Version)
		assert.JSONEq(t, string(in[i].Data), string(e.Data))
		assert.Equal(t, in[i].Metadata.Actor, e.Metadata.Actor)
		assert.Equal(t, in[i].Metadata.Role, e.Metadata.Role)
		assert.Equal(t, in[i].Metadata.CorrelationID, e.Metadata.CorrelationID)
		assert.Equal(t, in[i].Metadata.CausationID, e.Metadata.CausationID)
		assert.Equal(t, in[i].Metadata.Request, e.Metadata.Request)
		assert.True(t, e.Metadata.RecordedAt.Equal(Epoch), "recorded at %v, want the clock's %v", e.Metadata.RecordedAt, Epoch)
	}
	assert.Equal(t, res.Position, got[2].Position)
	assert.Less(t, got[0].Position, got[1].Position)
}

func testExpectedRevision(t *testing.T, newStore Factory) {
	ctx := context.Background()
	store := newStore(t, NewStepClock(Epoch))
	cases := []struct {
		name     string
		existing int // events already in the stream
		expected eventstore.ExpectedRevision
		ok       bool
	}{
		{"NoStreamOnNewStream", 0, eventstore.NoStream, true},
		{"NoStreamOnExistingStream", 2, eventstore.NoStream, false},
		{"StreamExistsOnNewStream", 0, eventstore.StreamExists, false},
		{"StreamExistsOnExistingStream", 2, eventstore.StreamExists, true},
		{"AnyOnNewStream", 0, eventstore.Any, true},
		{"AnyOnExistingStream", 2, eventstore.Any, true},
		{"ExactCurrentRevision", 2, eventstore.Exact(1), true},
		{"ExactStaleRevision", 2, eventstore.Exact(0), false},
		{"ExactFutureRevision", 2, eventstore.Exact(5), false},
		{"ExactOnNewStream", 0, eventstore.Exact(0), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			stream := uniqueStream(streamname.KindMatch)
			if tc.existing > 0 {
				_, err := store.Append(ctx, stream, eventstore.NoStream, Events(tc.existing)...)
				require.NoError(t, err)
			}
			res, err := store.Append(ctx, stream, tc.expected, Events(2)...)
			after, readErr := eventstore.ReadWholeStream(ctx, store, stream)
			require.NoError(t, readErr)
			if tc.ok {
				require.NoError(t, err)
				assert.Equal(t, uint64(tc.existing+1), res.Revision)
				assert.Len(t, after, tc.existing+2)
				return
			}
			require.ErrorIs(t, err, eventstore.ErrConflict)
			assert.Equal(t, eventstore.CodeConflict, eventstore.CodeOf(err))
			var conflict *eventstore.ConflictError
			require.ErrorAs(t, err, &conflict)
			assert.Equal(t, stream, conflict.Stream)
			assert.Equal(t, tc.existing > 0, conflict.StreamExists)
			if tc.existing > 0 {
				assert.Equal(t, uint64(tc.existing-1), conflict.Current)
			}
			assert.Len(t, after, tc.existing, "a refused append writes nothing")
		})
	}
}

func testIdempotence(t *testing.T, newStore Factory) {
	ctx := context.Background()
	store := newStore(t, NewStepClock(Epoch))
	cases := []struct {
		name     string
		first    eventstore.ExpectedRevision
		retry    eventstore.ExpectedRevision
		prefix   int // events appended before the batch
		mutate   func(batch []eventstore.EventData) []eventstore.EventData
		wantErr  error
		wantSize int
	}{
		{name: "SameBatchNoStream", first: eventstore.NoStream, retry: eventstore.NoStream, wantSize: 3},
		{name: "SameBatchExactRevision", prefix: 2, first: eventstore.Exact(1), retry: eventstore.Exact(1), wantSize: 5},
		{name: "SameBatchAny", prefix: 1, first: eventstore.Any, retry: eventstore.Any, wantSize: 4},
		{name: "PartialOverlapIsConflict", prefix: 1, first: eventstore.Exact(0), retry: eventstore.Exact(0),
			mutate: func(b []eventstore.EventData) []eventstore.EventData {
				return append(b[:2:2], Events(1)...)
			}, wantErr: eventstore.ErrConflict, wantSize: 4},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			stream := uniqueStream(streamname.KindTournoi)
			if tc.prefix > 0 {
				_, err := store.Append(ctx, stream, eventstore.NoStream, Events(tc.prefix)...)
				require.NoError(t, err)
			}
			batch := Events(3)
			first, err := store.Append(ctx, stream, tc.first, batch...)
			require.NoError(t, err)
			retryBatch := batch
			if tc.mutate != nil {
				retryBatch = tc.mutate(batch)
			}
			again, err := store.Append(ctx, stream, tc.retry, retryBatch...)
			if tc.wantErr != nil {
				require.ErrorIs(t, err, tc.wantErr)
			} else {
				require.NoError(t, err)
				assert.Equal(t, first, again, "a retry returns the original result")
			}
			all, err := eventstore.ReadWholeStream(ctx, store, stream)
			require.NoError(t, err)
			assert.Len(t, all, tc.wantSize)
		})
	}
}

func testInvalidAppend(t *testing.T, newStore Factory) {
	ctx := context.Background()
	store := newStore(t, NewStepClock(Epoch))
	stream := uniqueStream(streamname.KindAppel)
	dup := Events(2)
	dup[1].ID = dup[0].ID
	cases := []struct {
		name   string
		stream string
		events []eventstore.EventData
		code   eventstore.Code
	}{
		{"EmptyStreamName", "", Events(1), eventstore.CodeInvalidArgument},
		{"NoEvent", stream, nil, eventstore.CodeInvalidArgument},
		{"NilID", stream, func() []eventstore.EventData { e := Events(1); e[0].ID = uuid.Nil; return e }(), eventstore.CodeInvalidEvent},
		{"EmptyType", stream, func() []eventstore.EventData { e := Events(1); e[0].Type = ""; return e }(), eventstore.CodeInvalidEvent},
		{"VersionZero", stream, func() []eventstore.EventData { e := Events(1); e[0].Version = 0; return e }(), eventstore.CodeInvalidEvent},
		{"DataNotJSON", stream, func() []eventstore.EventData { e := Events(1); e[0].Data = []byte(`{"n":`); return e }(), eventstore.CodeInvalidEvent},
		{"DuplicateIDInBatch", stream, dup, eventstore.CodeInvalidEvent},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := store.Append(ctx, tc.stream, eventstore.Any, tc.events...)
			require.Error(t, err)
			assert.Equal(t, tc.code, eventstore.CodeOf(err), "error %v", err)
			got, err := store.ReadStream(ctx, stream, 0, 10)
			require.NoError(t, err)
			assert.Empty(t, got)
		})
	}
	_, err := store.ReadAll(ctx, 0, 0)
	assert.ErrorIs(t, err, eventstore.ErrInvalidArgument, "a zero read limit is refused")
}

func testReadStreamPaging(t *testing.T, newStore Factory) {
	ctx := context.Background()
	store := newStore(t, NewStepClock(Epoch))
	stream := uniqueStream(streamname.KindPartie)
	other := uniqueStream(streamname.KindPartie)
	for i := 0; i < 4; i++ {
		_, err := store.Append(ctx, stream, eventstore.Any, Events(3)...)
		require.NoError(t, err)
		_, err = store.Append(ctx, other, eventstore.Any, Events(1)...)
		require.NoError(t, err)
	}
	cases := []struct {
		from  uint64
		limit int
		want  []uint64
	}{
		{0, 3, []uint64{0, 1, 2}},
		{5, 4, []uint64{5, 6, 7, 8}},
		{10, 100, []uint64{10, 11}},
		{12, 5, nil},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("From%dLimit%d", tc.from, tc.limit), func(t *testing.T) {
			got, err := store.ReadStream(ctx, stream, tc.from, tc.limit)
			require.NoError(t, err)
			var revs []uint64
			for _, e := range got {
				assert.Equal(t, stream, e.Stream)
				revs = append(revs, e.Revision)
			}
			assert.Equal(t, tc.want, revs)
		})
	}
	missing, err := store.ReadStream(ctx, uniqueStream(streamname.KindPartie), 0, 10)
	require.NoError(t, err)
	assert.Empty(t, missing, "a stream without events reads as empty")
}

// ownEvents keeps the events of the given streams, in read order.
func ownEvents(events []eventstore.Event, streams map[string]bool) []eventstore.Event {
	var out []eventstore.Event
	for _, e := range events {
		if streams[e.Stream] {
			out = append(out, e)
		}
	}
	return out
}

// readAllFrom reads the log from position from (inclusive) to its end,
// paging on from the last position read.
func readAllFrom(t *testing.T, r eventstore.Reader, from uint64) []eventstore.Event {
	all, err := r.ReadAll(context.Background(), from, 100)
	require.NoError(t, err)
	if len(all) == 0 {
		return nil
	}
	_, err = eventstore.ForEachAfter(context.Background(), r, all[len(all)-1].Position, func(e eventstore.Event) error {
		all = append(all, e)
		return nil
	})
	require.NoError(t, err)
	return all
}

func testReadAll(t *testing.T, newStore Factory, caps Capabilities) {
	ctx := context.Background()
	store := newStore(t, NewStepClock(Epoch))
	a, b := uniqueStream(streamname.KindPartie), uniqueStream(streamname.KindAppel)
	first, err := store.Append(ctx, a, eventstore.NoStream, Events(1)...)
	require.NoError(t, err)
	_, err = store.Append(ctx, b, eventstore.NoStream, Events(2)...)
	require.NoError(t, err)
	_, err = store.Append(ctx, a, eventstore.Exact(0), Events(3)...)
	require.NoError(t, err)

	got := ownEvents(readAllFrom(t, store, first.Position), map[string]bool{a: true, b: true})
	require.Len(t, got, 6)
	order := []string{a, b, b, a, a, a}
	for i, e := range got {
		assert.Equal(t, order[i], e.Stream, "event %d", i)
		if i > 0 {
			assert.Greater(t, e.Position, got[i-1].Position)
			if caps.GaplessPositions {
				assert.Equal(t, got[i-1].Position+1, e.Position)
			}
		}
	}
	assert.Equal(t, first.Position, got[0].Position, "ReadAll includes its from position")

	page, err := store.ReadAll(ctx, got[2].Position, 2)
	require.NoError(t, err)
	require.Len(t, page, 2)
	assert.Equal(t, got[2].ID, page[0].ID)

	after, err := store.ReadAllAfter(ctx, got[2].Position, 2)
	require.NoError(t, err)
	require.Len(t, after, 2)
	assert.Equal(t, got[3].ID, after[0].ID, "ReadAllAfter excludes its position")
	assert.Equal(t, got[4].ID, after[1].ID)
}

func testSubscribeCatchUp(t *testing.T, newStore Factory) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	store := newStore(t, NewStepClock(Epoch))
	stream := uniqueStream(streamname.KindTournoi)
	var want []uuid.UUID
	appendOne := func(expected eventstore.ExpectedRevision) eventstore.AppendResult {
		batch := Events(1)
		res, err := store.Append(ctx, stream, expected, batch...)
		require.NoError(t, err)
		want = append(want, batch[0].ID)
		return res
	}
	first := appendOne(eventstore.NoStream)
	for i := 1; i < 5; i++ {
		appendOne(eventstore.Exact(uint64(i - 1)))
	}
	const live = 20
	total := 5 + live
	received := make(chan eventstore.Event, total+10)
	subCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		done <- store.Subscribe(subCtx, first.Position, func(_ context.Context, e eventstore.Event) error {
			if e.Stream == stream {
				received <- e
			}
			return nil
		})
	}()
	// The checkpoint is exclusive: the first event was already processed.
	want = want[1:]
	for i := 5; i < total; i++ {
		appendOne(eventstore.Exact(uint64(i - 1)))
		if i%5 == 0 {
			time.Sleep(5 * time.Millisecond)
		}
	}
	var got []uuid.UUID
	var lastPos uint64
	for len(got) < len(want) {
		select {
		case e := <-received:
			assert.Greater(t, e.Position, lastPos, "positions increase")
			lastPos = e.Position
			got = append(got, e.ID)
		case <-ctx.Done():
			t.Fatalf("received %d of %d events", len(got), len(want))
		}
	}
	assert.Equal(t, want, got)
	stop()
	select {
	case err := <-done:
		assert.ErrorIs(t, err, context.Canceled)
	case <-time.After(10 * time.Second):
		t.Fatal("subscription did not stop after cancellation")
	}
	assert.Empty(t, received, "no duplicate after the last event")
}

func testSubscribeStops(t *testing.T, newStore Factory) {
	ctx := context.Background()
	store := newStore(t, NewStepClock(Epoch))
	stream := uniqueStream(streamname.KindMatch)
	// The checkpoint is an event the store gave, never a computed position.
	mark, err := store.Append(ctx, uniqueStream(streamname.KindMatch), eventstore.NoStream, Events(1)...)
	require.NoError(t, err)
	first, err := store.Append(ctx, stream, eventstore.NoStream, Events(3)...)
	require.NoError(t, err)
	stopHere := fmt.Errorf("handler refuses")
	var calls atomic.Int32
	err = store.Subscribe(ctx, mark.Position, func(_ context.Context, e eventstore.Event) error {
		calls.Add(1)
		return stopHere
	})
	assert.ErrorIs(t, err, stopHere, "the handler's error is returned")
	assert.Equal(t, int32(1), calls.Load())

	before := goroutines()
	for i := 0; i < 5; i++ {
		subCtx, cancel := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() {
			done <- store.Subscribe(subCtx, first.Position, func(context.Context, eventstore.Event) error { return nil })
		}()
		time.Sleep(20 * time.Millisecond)
		cancel()
		select {
		case err := <-done:
			assert.ErrorIs(t, err, context.Canceled)
		case <-time.After(10 * time.Second):
			t.Fatal("subscription ignored cancellation")
		}
	}
	// Polled by hand: assert.Eventually runs its condition in goroutines of
	// its own, which would be counted.
	for deadline := time.Now().Add(5 * time.Second); goroutines() > before && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	if after := goroutines(); after > before {
		t.Errorf("cancelled subscriptions leaked goroutines: %d before, %d after:\n%s", before, after, goroutineStacks())
	}
}

func testOneWinnerPerRevision(t *testing.T, newStore Factory) {
	ctx := context.Background()
	store := newStore(t, NewStepClock(Epoch))
	stream := uniqueStream(streamname.KindPartie)
	const writers, rounds = 8, 20
	winners := make([]uuid.UUID, rounds)
	for round := 0; round < rounds; round++ {
		expected := eventstore.NoStream
		if round > 0 {
			expected = eventstore.Exact(uint64(round - 1))
		}
		var wins, conflicts atomic.Int32
		var wg sync.WaitGroup
		start := make(chan struct{})
		for w := 0; w < writers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				batch := Events(1)
				<-start
				res, err := store.Append(ctx, stream, expected, batch...)
				switch {
				case err == nil:
					wins.Add(1)
					winners[round] = batch[0].ID
					assert.Equal(t, uint64(round), res.Revision)
				case assert.ErrorIs(t, err, eventstore.ErrConflict):
					conflicts.Add(1)
				}
			}()
		}
		close(start)
		wg.Wait()
		require.Equal(t, int32(1), wins.Load(), "round %d: exactly one winner", round)
		require.Equal(t, int32(writers-1), conflicts.Load(), "round %d: every other writer conflicts", round)
	}
	got, err := eventstore.ReadWholeStream(ctx, store, stream)
	require.NoError(t, err)
	require.Len(t, got, rounds)
	for i, e := range got {
		assert.Equal(t, uint64(i), e.Revision)
		assert.Equal(t, winners[i], e.ID, "revision %d holds its round's winner", i)
	}
}

func testFreeForAll(t *testing.T, newStore Factory) {
	ctx := context.Background()
	store := newStore(t, NewStepClock(Epoch))
	stream := uniqueStream(streamname.KindTournoi)
	const writers, perWriter = 8, 15
	var wg sync.WaitGroup
	var mu sync.Mutex
	acked := map[uuid.UUID]uint64{}
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for done := 0; done < perWriter; {
				head, err := eventstore.ReadWholeStream(ctx, store, stream)
				if !assert.NoError(t, err) {
					return
				}
				expected := eventstore.NoStream
				if len(head) > 0 {
					expected = eventstore.Exact(head[len(head)-1].Revision)
				}
				batch := Events(1)
				res, err := store.Append(ctx, stream, expected, batch...)
				if err == nil {
					mu.Lock()
					acked[batch[0].ID] = res.Revision
					mu.Unlock()
					done++
					continue
				}
				if !assert.ErrorIs(t, err, eventstore.ErrConflict) {
					return
				}
			}
		}()
	}
	wg.Wait()
	got, err := eventstore.ReadWholeStream(ctx, store, stream)
	require.NoError(t, err)
	require.Len(t, got, writers*perWriter)
	seen := map[uuid.UUID]bool{}
	for i, e := range got {
		assert.Equal(t, uint64(i), e.Revision, "no gap")
		assert.False(t, seen[e.ID], "no duplicate")
		seen[e.ID] = true
		assert.Equal(t, acked[e.ID], e.Revision, "acknowledged revision matches the stored one")
	}
}
