package sqlitestore_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

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

// Every read of a closed store answers ErrClosed at once: the read
// connections are the store's own pool, which must not leave a caller
// waiting for a connection that will never come back.
func TestLecturesApresFermeture(t *testing.T) {
	store, err := sqlitestore.OpenDir(context.Background(), t.TempDir(), sqlitestore.Options{})
	require.NoError(t, err)
	_, err = store.Append(context.Background(), "partie-1", eventstore.NoStream, eventstoretest.Events(3)...)
	require.NoError(t, err)
	require.NoError(t, store.Close())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	lectures := map[string]func() error{
		"LastPosition": func() error { _, err := store.LastPosition(ctx); return err },
		"Borne":        func() error { _, _, err := store.Bound(ctx, 0, 2); return err },
		"ReadSections": func() error { _, err := store.ReadSections(ctx, "partie-1", 0); return err },
		"ReadStream":   func() error { _, err := store.ReadStream(ctx, "partie-1", 0, 10); return err },
		"ReadAllUpTo":  func() error { _, err := store.ReadAllUpTo(ctx, 0, 2); return err },
	}
	for name, lire := range lectures {
		t.Run(name, func(t *testing.T) {
			require.ErrorIs(t, lire(), eventstore.ErrClosed)
		})
	}
}
