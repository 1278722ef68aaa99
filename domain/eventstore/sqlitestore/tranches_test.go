package sqlitestore_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/eventstoretest"
	"arbitre/domain/eventstore/sqlitestore"
)

// Issue 16, item 10: the log read in ranges (eventstore.Tranches: bounds
// the store gives, text columns read as BLOBs) holds exactly the events
// ReadAllAfter gives, metadata and accents included; the last range is
// short.
func TestTranches_MemesEvenementsQueLaLecturePageParPage(t *testing.T) {
	ctx := context.Background()
	store := openTemp(t, eventstoretest.NewStepClock(eventstoretest.Epoch))
	evts := eventstoretest.Events(11)
	for i := range evts {
		evts[i].Metadata = eventstore.Metadata{Actor: "Hélène", Role: "arbitre", CorrelationID: "c", CausationID: "d", Requete: "r"}
		_, err := store.Append(ctx, "partie-é", eventstore.Any, evts[i])
		require.NoError(t, err)
	}
	tous, err := store.ReadAllAfter(ctx, 0, 100)
	require.NoError(t, err)
	require.Len(t, tous, 11)

	var lus []eventstore.Event
	var after uint64
	for {
		upTo, ok, err := store.Borne(ctx, after, 4)
		require.NoError(t, err)
		if !ok {
			break
		}
		tranche, err := store.ReadAllUpTo(ctx, after, upTo)
		require.NoError(t, err)
		require.Len(t, tranche, 4)
		lus, after = append(lus, tranche...), upTo
	}
	assert.Equal(t, tous[7].Position, after, "two whole ranges")
	reste, err := store.ReadAllUpTo(ctx, after, tous[10].Position)
	require.NoError(t, err)
	assert.Equal(t, tous, append(lus, reste...))
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

	var lus []eventstore.Event
	var after uint64
	for {
		upTo, ok, err := store.Borne(ctx, after, 8)
		require.NoError(t, err)
		if !ok {
			break
		}
		tranche, err := store.ReadAllUpTo(ctx, after, upTo)
		require.NoError(t, err)
		require.NotEmpty(t, tranche, "after %d", after)
		require.LessOrEqual(t, len(tranche), 8, "after %d", after)
		lus, after = append(lus, tranche...), upTo
	}
	reste, err := store.ReadAllAfter(ctx, after, 8)
	require.NoError(t, err)
	assert.Equal(t, tous, append(lus, reste...))
}
