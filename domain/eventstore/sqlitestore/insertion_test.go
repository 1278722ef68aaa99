package sqlitestore_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/eventstoretest"
	"arbitre/domain/eventstore/sqlitestore"
)

// TestIssue34_UnAjoutDeNombreuxEvenements: an append of more events than
// one statement inserts (an imported classique tournament is 141) is
// written whole, in order, its hash chain intact; one whose id is already
// stored, first or in the middle, writes none of them and says so; the same
// append again is a retry that writes nothing.
func TestIssue34_UnAjoutDeNombreuxEvenements(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "events.db")
	store, err := sqlitestore.Open(ctx, path, sqlitestore.Options{})
	require.NoError(t, err)
	avant := eventstoretest.Events(3)
	_, err = store.Append(ctx, "partie-a", eventstore.NoStream, avant...)
	require.NoError(t, err)
	nombreux := eventstoretest.Events(75)
	res, err := store.Append(ctx, "partie-b", eventstore.NoStream, nombreux...)
	require.NoError(t, err)
	assert.Equal(t, eventstore.AppendResult{Revision: 74, Position: 78}, res)
	lus, err := eventstore.ReadWholeStream(ctx, store, "partie-b")
	require.NoError(t, err)
	require.Len(t, lus, 75)
	for i, e := range lus {
		assert.Equal(t, nombreux[i].ID, e.ID)
		assert.JSONEq(t, string(nombreux[i].Data), string(e.Data))
		assert.Equal(t, nombreux[i].Metadata.Request, e.Metadata.Request)
		assert.Equal(t, uint64(4+i), e.Position)
	}
	again, err := store.Append(ctx, "partie-b", eventstore.NoStream, nombreux...)
	require.NoError(t, err, "the same append again is a retry")
	assert.Equal(t, res, again)

	for _, place := range []int{0, 40, 70} {
		doublon := eventstoretest.Events(72)
		doublon[place].ID = avant[1].ID
		_, err := store.Append(ctx, "partie-c", eventstore.NoStream, doublon...)
		assert.Equal(t, eventstore.CodeDuplicateEventID, eventstore.CodeOf(err), "id of partie-a at %d", place)
		last, err := store.LastPosition(ctx)
		require.NoError(t, err)
		assert.Equal(t, uint64(78), last, "nothing written")
	}
	suite := eventstoretest.Events(40)
	res, err = store.Append(ctx, "partie-a", eventstore.Exact(2), suite...)
	require.NoError(t, err)
	assert.Equal(t, eventstore.AppendResult{Revision: 42, Position: 118}, res)
	require.NoError(t, store.Close())
	report := verifyCopy(t, path)
	assert.Empty(t, report.Problems)
}
