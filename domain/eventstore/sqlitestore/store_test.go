package sqlitestore_test

import (
	"context"
	"path/filepath"
	"testing"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/eventstoretest"
	"arbitre/domain/eventstore/sqlitestore"

	"github.com/stretchr/testify/require"
)

func openTemp(t testing.TB, clock eventstore.Clock) *sqlitestore.Store {
	t.Helper()
	store, err := sqlitestore.OpenDir(context.Background(), t.TempDir(), sqlitestore.Options{Clock: clock})
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, store.Close()) })
	return store
}

func TestSQLiteStoreConformsToTheContract(t *testing.T) {
	eventstoretest.Run(t, func(t *testing.T, clock eventstore.Clock) eventstore.Store {
		return openTemp(t, clock)
	}, eventstoretest.Capabilities{GaplessPositions: true})
}

// Issue 16, item 7: the whole contract, unchanged, on the same store whose
// positions have irregular gaps and which refuses a computed position, as
// EventStoreDB's do.
func TestPositionsOpaques_SuiteSurPositionsATrous(t *testing.T) {
	eventstoretest.Run(t, func(t *testing.T, clock eventstore.Clock) eventstore.Store {
		return eventstoretest.Gapped(openTemp(t, clock))
	}, eventstoretest.Capabilities{GaplessPositions: false})
}

func TestReopenKeepsEventsAndContinuesPositions(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	store, err := sqlitestore.OpenDir(ctx, dir, sqlitestore.Options{})
	require.NoError(t, err)
	_, err = store.Append(ctx, "partie-1", eventstore.NoStream, eventstoretest.Events(3)...)
	require.NoError(t, err)
	require.NoError(t, store.Close())

	store, err = sqlitestore.Open(ctx, filepath.Join(dir, sqlitestore.FileName), sqlitestore.Options{})
	require.NoError(t, err)
	defer store.Close()
	res, err := store.Append(ctx, "partie-1", eventstore.Exact(2), eventstoretest.Events(1)...)
	require.NoError(t, err)
	require.Equal(t, eventstore.AppendResult{Revision: 3, Position: 4}, res)
}
