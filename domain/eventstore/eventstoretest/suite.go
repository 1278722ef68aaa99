// Package eventstoretest is the conformance suite every eventstore.Store
// backend must pass. A backend's tests call Run with a factory.
package eventstoretest

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

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
	t.Run("BoundKeyRefusesAnotherRequest", func(t *testing.T) { testBoundKeys(t, newStore) })
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

// testBoundKeys checks a store that binds idempotency keys
// (eventstore.BoundKeys; EventStoreDB does not, idempotency.Keys reads its
// log instead): a key serves its request on any stream, another request
// under it is refused and writes nothing, another actor's same id is his.
func testBoundKeys(t *testing.T, newStore Factory) {
	ctx := context.Background()
	store := newStore(t, NewStepClock(Epoch))
	keys, ok := store.(eventstore.BoundKeys)
	if !ok {
		t.Skip("this store does not bind idempotency keys")
	}
	id := uuid.NewString()
	keyed := func(actor, request string) eventstore.EventData {
		e := Events(1)[0]
		e.Metadata.Actor, e.Metadata.CausationID, e.Metadata.Request = actor, id, request
		return e
	}
	_, err := store.Append(ctx, uniqueStream(streamname.KindTournoi), eventstore.NoStream, keyed("jeton:1", "tirer:a"))
	require.NoError(t, err)
	cases := []struct {
		name    string
		event   eventstore.EventData
		wantErr error
	}{
		{"TheSameRequestElsewhere", keyed("jeton:1", "tirer:a"), nil},
		{"AnotherRequest", keyed("jeton:1", "rejeter:b"), eventstore.ErrKeyReused},
		{"AnotherActor", keyed("jeton:2", "rejeter:b"), nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			md := tc.event.Metadata
			reused, err := keys.KeyReused(ctx, md.Actor, md.CausationID, md.Request)
			require.NoError(t, err)
			assert.Equal(t, tc.wantErr != nil, reused, "KeyReused")
			stream := uniqueStream(streamname.KindTournoi)
			_, err = store.Append(ctx, stream, eventstore.NoStream, tc.event)
			written, rerr := eventstore.ReadWholeStream(ctx, store, stream)
			require.NoError(t, rerr)
			if tc.wantErr != nil {
				require.ErrorIs(t, err, tc.wantErr)
				assert.Empty(t, written, "a refused append writes nothing")
				return
			}
			require.NoError(t, err)
			assert.Len(t, written, 1)
		})
	}
}
