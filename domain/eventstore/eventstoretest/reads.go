package eventstoretest

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/streamname"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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
