package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"arbitre/domain/catalogue"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/projections/projection"
	"arbitre/projections/readmodels"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// magasinSimule fills dir with a simulated duplicate tournament (players ×
// games, seed 7) and a classique one, through the simulate commands.
func magasinSimule(tb testing.TB, dir, joueurs, parties string) {
	tb.Helper()
	_, err := runArbitre(tb, "simulate", "duplicate", "--players", joueurs, "--games", parties, "--seed", "7", "--data", dir)
	require.NoError(tb, err)
	_, err = runArbitre(tb, "simulate", "classique", "--players", "24", "--rounds", "4", "--seed", "8", "--data", dir)
	require.NoError(tb, err)
}

// unParUn hides a projection's ApplyBatch: its runner applies events one
// at a time, one statement each, the reference the batches must equal.
type unParUn struct{ projection.Projection }

// runners opens the projection database at path and a runner per read
// model on store, applying one event at a time when unitaire.
func runners(tb testing.TB, ctx context.Context, store *sqlitestore.Store, path string, unitaire bool) []*projection.Runner {
	tb.Helper()
	db, err := projection.OpenDB(path)
	require.NoError(tb, err)
	tb.Cleanup(func() { db.Close() })
	registry, err := catalogue.Registre()
	require.NoError(tb, err)
	models, err := readmodels.Tous(registry, store)
	require.NoError(tb, err)
	out := make([]*projection.Runner, len(models))
	for i, m := range models {
		if unitaire {
			m = unParUn{m}
		}
		out[i], err = projection.NewRunner(ctx, db, m, store)
		require.NoError(tb, err)
	}
	return out
}

func dumpAt(t *testing.T, path string) string {
	t.Helper()
	db, err := projection.OpenReadDB(path)
	require.NoError(t, err)
	defer db.Close()
	out, err := projection.Dump(context.Background(), db)
	require.NoError(t, err)
	return string(out)
}

// Issue 16, item 10: `projections rebuild` builds every read model in one
// pass over the log, in batches; the result is byte for byte what
// rebuilding each projection on its own, one event at a time, gives.
func TestReconstruction_UnePasseEgaleParProjection(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	magasinSimule(t, dir, "40", "2")

	out, err := runArbitre(t, "projections", "rebuild", "--data", dir)
	require.NoError(t, err)
	assert.Contains(t, out, "reconstruites en une passe")
	assert.NotContains(t, out, "\r", "no progress drawn outside a terminal")

	store, err := sqlitestore.OpenDir(ctx, dir, sqlitestore.Options{})
	require.NoError(t, err)
	defer store.Close()
	seule := filepath.Join(t.TempDir(), projection.FileName)
	for _, r := range runners(t, ctx, store, seule, true) {
		_, err := r.Rebuild(ctx, nil)
		require.NoError(t, err)
	}
	unePasse := dumpAt(t, filepath.Join(dir, projection.FileName))
	assert.Equal(t, dumpAt(t, seule), unePasse)
	for _, table := range []string{"archive_streams", "standings_decisions", "parties_vues", "classique_resultats", "hist_tournois"} {
		assert.Contains(t, unePasse, "table "+table+" ", "the store fills %s", table)
	}
}

// BenchmarkProjectionsRebuild rebuilds every read model in one pass over a
// fixed simulated store (300 players × 3 games, seed 7, and a classique
// tournament), kept in ARBITRE_BENCH_DIR between runs when set.
func BenchmarkProjectionsRebuild(b *testing.B) {
	ctx := context.Background()
	dir := os.Getenv("ARBITRE_BENCH_DIR")
	if dir == "" {
		dir = b.TempDir()
	}
	if _, err := os.Stat(filepath.Join(dir, sqlitestore.FileName)); err != nil {
		magasinSimule(b, dir, "300", "3")
	}
	store, err := sqlitestore.OpenDir(ctx, dir, sqlitestore.Options{})
	require.NoError(b, err)
	defer store.Close()
	rs := runners(b, ctx, store, filepath.Join(b.TempDir(), projection.FileName), false)
	registry, err := catalogue.Registre()
	require.NoError(b, err)
	events := 0
	b.ResetTimer()
	for b.Loop() {
		n, err := projection.RebuildAll(ctx, store, registry, rs, nil)
		require.NoError(b, err)
		events += n
	}
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
}
