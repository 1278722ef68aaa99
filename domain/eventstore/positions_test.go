package eventstore_test

import (
	"context"
	"fmt"
	"testing"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/idempotency"
	"arbitre/domain/eventstore/integrity"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gappedLog is a log of n events of two streams whose positions have
// irregular gaps, as on EventStoreDB (issue 16, item 7).
func gappedLog(n int) logReader {
	log := make(logReader, n)
	for i := range log {
		p := uint64(i + 1)
		stream := fmt.Sprintf("partie-%d", i%2)
		log[i] = keyed(p*1000+p*p%997, stream, "jeton:1", fmt.Sprintf("k%d", i), fmt.Sprintf("tirer:%d", i))
		log[i].Revision = uint64(i / 2)
		log[i].Data = []byte(`{}`)
	}
	return log
}

// Issue 16, item 7: the readers of the whole log page on from the last
// position they saw, never from a computed one, so they read every event of
// a log with gaps, across pages.
func TestPositionsOpaques_LecteursDuJournal(t *testing.T) {
	ctx := context.Background()
	log := gappedLog(2*eventstore.PageSize + 7)
	last := log[len(log)-1]

	t.Run("ForEachAfter", func(t *testing.T) {
		from := log[eventstore.PageSize-1].Position
		var got []uint64
		end, err := eventstore.ForEachAfter(ctx, log, from, func(e eventstore.Event) error {
			got = append(got, e.Position)
			return nil
		})
		require.NoError(t, err)
		assert.Equal(t, last.Position, end)
		require.Len(t, got, len(log)-eventstore.PageSize)
		assert.Equal(t, log[eventstore.PageSize].Position, got[0], "the event after from comes first")
	})
	t.Run("Verify", func(t *testing.T) {
		report, err := integrity.Verify(ctx, log, integrity.VerifyOptions{})
		require.NoError(t, err)
		assert.Empty(t, report.Problems)
		assert.Equal(t, len(log), report.Events)
		assert.Equal(t, last.Position, report.LastPosition)
	})
	t.Run("Cles", func(t *testing.T) {
		err := idempotency.NewKeys(log).Check(ctx, idempotency.Command{Author: "jeton:1", ID: last.Metadata.CausationID, Request: "autre"})
		assert.ErrorIs(t, err, idempotency.ErrKeyReused, "the key of the last event, on the third page, is known")
	})
}

// Issue 16, item 10: Verify reports its progress after each page, for
// `store verify` to show on a terminal.
func TestVerify_ProgressionParPage(t *testing.T) {
	log := gappedLog(2*eventstore.PageSize + 7)
	type point struct {
		events   int
		position uint64
	}
	var got []point
	_, err := integrity.Verify(context.Background(), log, integrity.VerifyOptions{Progress: func(events int, position uint64) {
		got = append(got, point{events, position})
	}})
	require.NoError(t, err)
	assert.Equal(t, []point{
		{eventstore.PageSize, log[eventstore.PageSize-1].Position},
		{2 * eventstore.PageSize, log[2*eventstore.PageSize-1].Position},
		{len(log), log[len(log)-1].Position},
	}, got)
}
