package projection

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestIssue32_RequeteAnnuleeNeFigePasUneConnexion: the cause of issue 32's
// stale reads after an acknowledged write. modernc.org/sqlite v1.40.0,
// through which the store's reads went when the satellite test failed
// (f8c67a6), dropped without closing it the result of a query whose
// context ended once its statement had produced a row (fixed in v1.40.1):
// the statement stayed open, and with it its read transaction, and
// database/sql put the connection back in its pool, where every later read
// on it saw the log as it stood then. A request cancelled as it read (a
// twinned site's connection cut) thus left a read connection behind that
// answered a game without the tirage just acknowledged. The store now
// reads through its own connections (sqlitestore.lecteurs); the read
// models still read through database/sql (OpenReadDB): after a read whose
// context ends at any point, a write committed on the writer is seen by
// the next read of the pool.
func TestIssue32_RequeteAnnuleeNeFigePasUneConnexion(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	w, err := OpenDB(path)
	require.NoError(t, err)
	t.Cleanup(func() { w.Close() })
	ctx := context.Background()
	_, err = w.ExecContext(ctx, `CREATE TABLE t (x INTEGER PRIMARY KEY)`)
	require.NoError(t, err)
	r, err := OpenReadDB(path)
	require.NoError(t, err)
	t.Cleanup(func() { r.Close() })
	hasard := rand.New(rand.NewPCG(32, 1))
	for ecrit := 1; ecrit <= 3000; ecrit++ {
		// A read whose context ends as it runs: before, during or after
		// its first step, as the cancellation falls.
		lecture, fin := context.WithCancel(ctx)
		attente := time.Duration(hasard.IntN(30)) * time.Microsecond
		go func() { time.Sleep(attente); fin() }()
		var x int
		_ = r.QueryRowContext(lecture, `SELECT COALESCE(MAX(x), 0) FROM t`).Scan(&x)
		fin()
		_, err := w.ExecContext(ctx, `INSERT INTO t VALUES (?)`, ecrit)
		require.NoError(t, err)
		require.NoError(t, r.QueryRowContext(ctx, `SELECT COALESCE(MAX(x), 0) FROM t`).Scan(&x))
		require.Equal(t, ecrit, x, "the read after the commit of %d", ecrit)
	}
}
