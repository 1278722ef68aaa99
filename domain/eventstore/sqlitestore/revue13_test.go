package sqlitestore

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/eventstore"
)

// Séance 13, revue: a panic inside a write transaction (here the clock
// that stamps RecordedAt, in the middle of AppendBatch, which releases
// the store's write lock on the way out) must not leave SQLite's write
// lock behind. database/sql discards a connection whose Raw function
// panicked, but closing it while the writer's statements are still
// prepared on it only turns it into a zombie (sqlite3_close_v2) that keeps
// its open transaction, and the write lock with it: every later append,
// on a new connection, waited for busy_timeout and failed. Through
// database/sql's Tx, the deferred Rollback released it.
func TestRevue13_PaniqueDansLaTransaction(t *testing.T) {
	tests := []struct {
		name  string
		ecrit func(ctx context.Context, s *Store) error
	}{
		{"a batch", func(ctx context.Context, s *Store) error {
			_, err := s.AppendBatch(ctx, []eventstore.BatchPart{{Stream: "partie-b", Expected: eventstore.Any,
				Events: []eventstore.EventData{sousCle("jeton:1", "k2", "tirer:b")}}})
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			var panique atomic.Bool
			horloge := eventstore.ClockFunc(func() time.Time {
				if panique.CompareAndSwap(true, false) {
					panic("the clock broke")
				}
				return time.Unix(1, 0)
			})
			s, err := OpenDir(ctx, t.TempDir(), Options{Clock: horloge})
			require.NoError(t, err)
			t.Cleanup(func() { s.Close() })
			_, err = s.Append(ctx, "partie-a", eventstore.NoStream, sousCle("jeton:1", "k1", "tirer:a"))
			require.NoError(t, err)

			panique.Store(true)
			assert.Panics(t, func() { _ = tt.ecrit(ctx, s) })

			apres, annuler := context.WithTimeout(ctx, 3*time.Second)
			defer annuler()
			require.NoError(t, tt.ecrit(apres, s), "the write lock was released")
			res, err := s.Append(ctx, "partie-a", eventstore.Exact(0), sousCle("jeton:1", "k3", "tirer:c"))
			require.NoError(t, err)
			assert.Equal(t, uint64(3), res.Position, "nothing of the transaction that panicked stored")
		})
	}
}

// Séance 13, revue: a panic while a group commit writes (here the clock)
// must not leave the store's write lock held, nor the other appends of
// its lot unanswered: they fail, their outcome unknown, and the store
// writes on. The write lock was never released (every later append
// waited for ever), the other appends of the lot with it.
func TestRevue13_PaniqueDansUnLot(t *testing.T) {
	ctx := context.Background()
	var panique atomic.Bool
	horloge := eventstore.ClockFunc(func() time.Time {
		if panique.CompareAndSwap(true, false) {
			panic("the clock broke")
		}
		return time.Unix(1, 0)
	})
	s, err := OpenDir(ctx, t.TempDir(), Options{Clock: horloge})
	require.NoError(t, err)
	t.Cleanup(func() {
		if !t.Failed() { // Close would wait for the write lock
			s.Close()
		}
	})

	type reponse struct {
		paniqua bool
		err     error
	}
	reponses := make(chan reponse, 2)
	s.writeLock.Lock()
	for i := range 2 {
		go func() {
			r := reponse{paniqua: true}
			defer func() {
				recover()
				reponses <- r
			}()
			_, r.err = s.Append(ctx, fmt.Sprint("partie-", i), eventstore.NoStream, sousCle("jeton:1", fmt.Sprint("k", i), fmt.Sprint("tirer:", i)))
			r.paniqua = false
		}()
	}
	for {
		s.attenteMu.Lock()
		n := len(s.attente)
		s.attenteMu.Unlock()
		if n == 2 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	panique.Store(true)
	s.writeLock.Unlock()

	var recues []reponse
	for range 2 {
		select {
		case r := <-reponses:
			recues = append(recues, r)
		case <-time.After(10 * time.Second):
			require.FailNow(t, "an append of the lot that panicked is never answered", "answered: %v", recues)
		}
	}
	paniques := 0
	for _, r := range recues {
		if r.paniqua {
			paniques++
			continue
		}
		require.Error(t, r.err, "the other append of the lot is not told it was written")
		assert.ErrorIs(t, r.err, eventstore.ErrOutcomeUnknown)
	}
	assert.Equal(t, 1, paniques)

	fait := make(chan error, 1)
	go func() {
		_, err := s.Append(ctx, "partie-a", eventstore.NoStream, sousCle("jeton:1", "k3", "tirer:c"))
		fait <- err
	}()
	select {
	case err := <-fait:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		require.FailNow(t, "the write lock is still held")
	}
	res, err := s.Append(ctx, "partie-a", eventstore.Exact(0), sousCle("jeton:1", "k4", "tirer:d"))
	require.NoError(t, err)
	assert.Equal(t, uint64(2), res.Position, "nothing of the lot that panicked stored")
}
