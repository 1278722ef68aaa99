package sqlitestore

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"

	"arbitre/domain/eventstore"
)

// recompilations counts, for each statement the reader connections
// prepared, the times SQLite compiled it again at its execution
// (SQLITE_STMTSTATUS_REPREPARE, sqlite3Reprepare in a profile). zombiezen
// does not expose the statement's status: its handle is read by
// reflection, with every connection taken so that none is running.
func recompilations(t *testing.T, s *Store) map[string]int {
	t.Helper()
	tls := libc.NewTLS()
	defer tls.Close()
	var pris []*lecteur
	defer func() {
		for _, lc := range pris {
			s.reader.rendre(lc)
		}
	}()
	for range s.reader.tous {
		lc, err := s.reader.prendre(context.Background())
		require.NoError(t, err)
		pris = append(pris, lc)
	}
	out := map[string]int{}
	for _, lc := range pris {
		for query, stmt := range lc.instructions {
			handle := uintptr(reflect.ValueOf(stmt).Elem().FieldByName("stmt").Uint())
			out[query] += int(sqlite3.Xsqlite3_stmt_status(tls, handle, sqlite3.SQLITE_STMTSTATUS_REPREPARE, 0))
		}
	}
	return out
}

// TestIssue34_LecturesNonRecompileesQuandLaLimiteChange: the reads of the
// log and of a stream are the same statements whatever the page asked,
// and SQLite compiled a statement again at each execution whose LIMIT
// differed from the last one's on that connection: the planner had looked
// at the bound limit, so binding another expired the statement. In the
// hall, on every reader connection, the idempotency keys' catch-up (pages
// of 1,000), the read models following the log (999) and the
// subscriptions (512) took turns on one statement (sqlite3Reprepare under
// the keys' read, issue 34); a stream's first event (Exists, 1) and its
// whole read took turns on another.
func TestIssue34_LecturesNonRecompileesQuandLaLimiteChange(t *testing.T) {
	ctx := context.Background()
	s, err := OpenDir(ctx, t.TempDir(), Options{})
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	for i := range 30 {
		_, err := s.Append(ctx, fmt.Sprintf("partie-%d", i%3), eventstore.Any, eventstore.EventData{ID: uuid.New(), Type: "t", Version: 1, Data: []byte(`{}`)})
		require.NoError(t, err)
	}
	for i, limite := range []int{eventstore.PageSize, eventstore.PageSize - 1, 512, 1, 2, eventstore.PageSize, 1} {
		for range len(s.reader.tous) {
			_, err := s.ReadAllAfter(ctx, uint64(i), limite)
			require.NoError(t, err)
			_, err = s.ReadAll(ctx, uint64(i), limite)
			require.NoError(t, err)
			_, err = s.ReadStream(ctx, "partie-1", 0, limite)
			require.NoError(t, err)
		}
	}
	for query, n := range recompilations(t, s) {
		assert.Zero(t, n, "%d recompilations of %s", n, query)
	}
}
