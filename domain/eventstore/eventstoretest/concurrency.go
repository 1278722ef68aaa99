package eventstoretest

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/streamname"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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
