package sqlitestore

import (
	"context"
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
