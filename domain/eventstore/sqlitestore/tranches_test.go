package sqlitestore_test

import (
	"context"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/eventstoretest"
	"arbitre/domain/eventstore/sqlitestore"
)

// Issue 16, item 10: the log read in ranges (eventstore.Ranges: bounds
// the store gives, text columns read as BLOBs) holds exactly the events
// ReadAllAfter gives, metadata and accents included; the last range is
// short.
func TestTranches_MemesEvenementsQueLaLecturePageParPage(t *testing.T) {
	ctx := context.Background()
	store := openTemp(t, eventstoretest.NewStepClock(eventstoretest.Epoch))
	evts := eventstoretest.Events(11)
	for i := range evts {
		evts[i].Metadata = eventstore.Metadata{Actor: "Hélène", Role: "arbitre", CorrelationID: "c", CausationID: "d", Request: "r"}
		_, err := store.Append(ctx, "partie-é", eventstore.Any, evts[i])
		require.NoError(t, err)
	}
	tous, err := store.ReadAllAfter(ctx, 0, 100)
	require.NoError(t, err)
	require.Len(t, tous, 11)

	tranches, after := enTranches(t, store, 4)
	for _, tranche := range tranches {
		require.Len(t, tranche, 4)
	}
	assert.Equal(t, tous[7].Position, after, "two whole ranges")
	reste, err := store.ReadAllUpTo(ctx, after, tous[10].Position)
	require.NoError(t, err)
	assert.Equal(t, tous, append(slices.Concat(tranches...), reste...))
}

// enTranches reads store's log in the ranges of n events its bounds give
// (eventstore.Ranges), up to the last bound, and returns that bound.
func enTranches(t *testing.T, store *sqlitestore.Store, n int) (tranches [][]eventstore.Event, after uint64) {
	t.Helper()
	for {
		upTo, ok, err := store.Bound(context.Background(), after, n)
		require.NoError(t, err)
		if !ok {
			return tranches, after
		}
		tranche, err := store.ReadAllUpTo(context.Background(), after, upTo)
		require.NoError(t, err)
		tranches, after = append(tranches, tranche), upTo
	}
}

// Issue 16, item 10: a page's bound is found by one seek of the table, not
// by stepping over the page's rows (which read the whole table a second
// time during a rebuild). Across missing positions (events deleted from
// the file: verify reports them, the pages still cover the log) a page
// holds fewer events, never none and never more than asked; the events
// of all the pages are the log's, once each.
func TestTranches_BornesAuDelaDesPositionsManquantes(t *testing.T) {
	ctx := context.Background()
	dir, _ := writeChainedLog(t)
	path := damagedCopy(t, dir, `DELETE FROM events WHERE position BETWEEN 5 AND 7 OR position BETWEEN 20 AND 31 OR position > 195`)
	store, err := sqlitestore.Open(ctx, path, sqlitestore.Options{})
	require.NoError(t, err)
	defer store.Close()
	tous, err := store.ReadAllAfter(ctx, 0, 1000)
	require.NoError(t, err)
	require.Len(t, tous, chainedEvents-3-12-5)

	tranches, after := enTranches(t, store, 8)
	for i, tranche := range tranches {
		require.NotEmpty(t, tranche, "range %d", i)
		require.LessOrEqual(t, len(tranche), 8, "range %d", i)
	}
	reste, err := store.ReadAllAfter(ctx, after, 8)
	require.NoError(t, err)
	assert.Equal(t, tous, append(slices.Concat(tranches...), reste...))
}
