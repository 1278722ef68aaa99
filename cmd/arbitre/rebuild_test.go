package main

import (
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"arbitre/domain/catalogue"
	"arbitre/domain/duplicate"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/projections/decodage"
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

// runners opens the projection database at path and a runner per read
// model on store.
func runners(tb testing.TB, ctx context.Context, store *sqlitestore.Store, path string) []*projection.Runner {
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
		out[i], err = projection.NewRunner(ctx, db, m, store)
		require.NoError(tb, err)
	}
	return out
}

// parTable splits a projection.Dump by table.
func parTable(dump string) map[string]string {
	out := map[string]string{}
	nom := ""
	for _, ligne := range strings.SplitAfter(dump, "\n") {
		if reste, ok := strings.CutPrefix(ligne, "table "); ok {
			nom, _, _ = strings.Cut(reste, " ")
		}
		out[nom] += ligne
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
// pass over the log, the archive, the standings and the games' views folded
// in memory and written once; each table is byte for byte what the live
// path gives, each event delivered alone as the feed delivers it
// (Runner.Apply of one event, the watermill handler's call).
func TestReconstruction_UnePasseEgaleAuDirect(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	magasinSimule(t, dir, "20", "2")

	out, err := runArbitre(t, "projections", "rebuild", "--data", dir)
	require.NoError(t, err)
	assert.Contains(t, out, "reconstruites en une passe")
	assert.NotContains(t, out, "\r", "no progress drawn outside a terminal")

	store, err := sqlitestore.OpenDir(ctx, dir, sqlitestore.Options{})
	require.NoError(t, err)
	defer store.Close()
	direct := filepath.Join(t.TempDir(), projection.FileName)
	rs := runners(t, ctx, store, direct)
	_, err = eventstore.ForEachAfter(ctx, store, 0, func(e eventstore.Event) error {
		for _, r := range rs {
			if _, err := r.Apply(ctx, []eventstore.Event{e}); err != nil {
				return err
			}
		}
		return nil
	})
	require.NoError(t, err)
	attendu, obtenu := parTable(dumpAt(t, direct)), parTable(dumpAt(t, filepath.Join(dir, projection.FileName)))
	require.Equal(t, slices.Sorted(maps.Keys(attendu)), slices.Sorted(maps.Keys(obtenu)))
	for table, lignes := range attendu {
		assert.Equal(t, lignes, obtenu[table], "table %s", table)
	}
	for _, table := range []string{"standings_decisions", "parties_vues", "classique_resultats", "hist_tournois"} {
		assert.Greater(t, strings.Count(obtenu[table], "\n"), 1, "the store fills %s", table)
	}
}

// Issue 16, item 10: the registry decodes with go-json-experiment/json
// under encoding/json's semantics, and the rebuild's registry the
// bulletins without reflection (projections/decodage); on every event of a
// simulated store (duplicate and classique) each gives the value
// encoding/json gives.
func TestReconstruction_DecodageCommeEncodingJSON(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	magasinSimule(t, dir, "12", "2")
	store, err := sqlitestore.OpenDir(ctx, dir, sqlitestore.Options{})
	require.NoError(t, err)
	defer store.Close()
	registry, err := catalogue.Registre()
	require.NoError(t, err)
	rapide, err := catalogue.Registre()
	require.NoError(t, err)
	require.NoError(t, decodage.Accelerer(rapide))
	types := map[string]int{}
	_, err = eventstore.ForEachAfter(ctx, store, 0, func(e eventstore.Event) error {
		obtenu, err := registry.Decode(e)
		require.NoError(t, err)
		sansReflexion, err := rapide.Decode(e)
		require.NoError(t, err)
		require.Equal(t, obtenu, sansReflexion, "event %d (%s)", e.Position, e.Type)
		lu := false
		switch e.Type {
		case duplicate.TypeBulletinDepose:
			_, lu = decodage.Depose(e.Data)
		case duplicate.TypeBulletinCorrige:
			_, lu = decodage.Corrige(e.Data)
		}
		if lu {
			types["lus sans réflexion"]++
		}
		courant, err := registry.Upcast(e)
		require.NoError(t, err)
		attendu := reflect.New(reflect.TypeOf(obtenu))
		require.NoError(t, json.Unmarshal(courant.Data, attendu.Interface()))
		require.Equal(t, attendu.Elem().Interface(), obtenu, "event %d (%s)", e.Position, e.Type)
		types[e.Type]++
		return nil
	})
	require.NoError(t, err)
	assert.Greater(t, types["partie.bulletin_corrige"], 100)
	assert.Equal(t, types["partie.bulletin_depose"]+types["partie.bulletin_corrige"], types["lus sans réflexion"],
		"every bulletin the domain writes is read without reflection")
	assert.Greater(t, len(types), 15, "every kind of event of both tournaments: %v", types)
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
	rs := runners(b, ctx, store, filepath.Join(b.TempDir(), projection.FileName))
	registry, err := catalogue.Registre()
	require.NoError(b, err)
	require.NoError(b, decodage.Accelerer(registry))
	events := 0
	b.ResetTimer()
	for b.Loop() {
		n, err := projection.RebuildAll(ctx, store, registry, rs, nil)
		require.NoError(b, err)
		events += n
	}
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
}
