package sqlitestore_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/eventstoretest"
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
