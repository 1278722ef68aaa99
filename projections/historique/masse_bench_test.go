package historique_test

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"arbitre/projections/historique"
	"arbitre/projections/projection"
)

// masseRemplie opens an archive in a bulk holding rencontres classique
// meetings and participations waiting to be sorted, the rows a year of
// simulate archive leaves to the bulk's end (its indexes and its sort).
func masseRemplie(b *testing.B, rencontres, participations int) (*sql.DB, *historique.Projection) {
	b.Helper()
	ctx := context.Background()
	db, err := projection.OpenDB(filepath.Join(b.TempDir(), "projections.db"))
	require.NoError(b, err)
	b.Cleanup(func() { db.Close() })
	p, err := historique.NewProjection(projection.Journal{})
	require.NoError(b, err)
	tx, err := db.BeginTx(ctx, nil)
	require.NoError(b, err)
	require.NoError(b, p.Setup(ctx, tx))
	require.NoError(b, p.DebutDeMasse(ctx, tx))
	r := rand.New(rand.NewPCG(1, 2))
	licence := func() string { return fmt.Sprintf("L%06d", r.IntN(30000)) }
	ins, err := tx.PrepareContext(ctx, `INSERT INTO hist_rencontres VALUES (?, ?, ?, 1, ?, ?, 300, 280, 2, 0, 0)`)
	require.NoError(b, err)
	for i := range rencontres {
		_, err := ins.ExecContext(ctx, i+1, fmt.Sprintf("T%05d", i/300), fmt.Sprintf("M%08x-%d", r.Uint32(), i), licence(), licence())
		require.NoError(b, err)
	}
	ins, err = tx.PrepareContext(ctx, `INSERT INTO hist_participations_masse VALUES (?, ?, ?, ?, 'duplicate')`)
	require.NoError(b, err)
	for i := range participations {
		_, err := ins.ExecContext(ctx, licence(), i+1, fmt.Sprintf("P%08x-%d", r.Uint32(), i/40), fmt.Sprintf("T%05d", i/4000))
		require.NoError(b, err)
	}
	require.NoError(b, tx.Commit())
	return db, p
}

// BenchmarkFinDeMasse ends a bulk of a year's meetings and a sort's worth
// of participations: the queries' indexes built and the participations
// sorted into their table, with SQLite's default page cache (2 MiB, which
// also bounds what its sorter holds in memory before it spills runs to
// temporary files) and with 128 MiB (the sorts in memory); cpu-s/op is
// the CPU it takes, the wall time saying little on a loaded machine.
func BenchmarkFinDeMasse(b *testing.B) {
	ctx := context.Background()
	for _, c := range []string{"-2000", "-131072"} {
		b.Run(c, func(b *testing.B) {
			var total time.Duration
			for b.Loop() {
				b.StopTimer()
				db, p := masseRemplie(b, 400_000, 1<<19)
				_, err := db.Exec("PRAGMA cache_size = " + c)
				require.NoError(b, err)
				avant := cpu(b)
				b.StartTimer()
				tx, err := db.BeginTx(ctx, nil)
				require.NoError(b, err)
				require.NoError(b, p.FinDeMasse(ctx, tx))
				require.NoError(b, tx.Commit())
				b.StopTimer()
				total += cpu(b) - avant
				b.StartTimer()
			}
			b.ReportMetric(total.Seconds()/float64(b.N), "cpu-s/op")
		})
	}
}

// cpu is the process's CPU time so far, user and system: the machine's
// load makes the wall time of a run say little.
func cpu(b *testing.B) time.Duration {
	var u syscall.Rusage
	require.NoError(b, syscall.Getrusage(syscall.RUSAGE_SELF, &u))
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
