package classique_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"arbitre/domain/classique/adapters"
	"arbitre/domain/classique/cote"
	"arbitre/domain/classique/matchclassique"
	"arbitre/domain/classique/simulation"
	"arbitre/domain/classique/tournoiclassique"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/eventstoretest"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/engine/lexicon/libre"
	"arbitre/projections/classique"
	"arbitre/projections/projection"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// magasin opens a SQLite store on a step clock, closed at the end of the
// test.
func magasin(tb testing.TB) *sqlitestore.Store {
	tb.Helper()
	store, err := sqlitestore.OpenDir(context.Background(), tb.TempDir(), sqlitestore.Options{Clock: eventstoretest.NewStepClock(eventstoretest.Epoch)})
	require.NoError(tb, err)
	tb.Cleanup(func() { store.Close() })
	return store
}

func simuler(tb testing.TB, joueurs, rondes int) *sqlitestore.Store {
	tb.Helper()
	ctx := context.Background()
	store := magasin(tb)
	lex, err := libre.Lexicon()
	require.NoError(tb, err)
	_, err = simulation.Simuler(ctx, store, lex, simulation.Config{Tournoi: "sim", Joueurs: joueurs, Rondes: rondes, Seed: 42,
		Workers: 2, Comportement: simulation.ComportementParDefaut()})
	require.NoError(tb, err)
	return store
}

func runners(tb testing.TB, store eventstore.Reader) (*sql.DB, []*projection.Runner) {
	tb.Helper()
	ctx := context.Background()
	db, err := projection.OpenDB(filepath.Join(tb.TempDir(), projection.FileName))
	require.NoError(tb, err)
	tb.Cleanup(func() { db.Close() })
	cl, err := classique.NewClassement(projection.Journal{Store: store})
	require.NoError(tb, err)
	co, err := classique.NewCotes(projection.Journal{Store: store})
	require.NoError(tb, err)
	var out []*projection.Runner
	for _, p := range []projection.Projection{cl, co} {
		r, err := projection.NewRunner(ctx, db, p, store)
		require.NoError(tb, err)
		out = append(out, r)
	}
	return db, out
}

func TestProjectionsRebuildEqualsLiveAndMatchTheAggregate(t *testing.T) {
	ctx := context.Background()
	store := simuler(t, 21, 4)

	// Live: events applied in small batches as they would arrive.
	liveDB, live := runners(t, store)
	all, err := store.ReadAll(ctx, 1, 100000)
	require.NoError(t, err)
	for i := 0; i < len(all); i += 37 {
		for _, r := range live {
			_, err := r.Apply(ctx, all[i:min(i+37, len(all))])
			require.NoError(t, err)
		}
	}
	rebuiltDB, rebuilt := runners(t, store)
	for _, r := range rebuilt {
		_, err := r.Rebuild(ctx, nil)
		require.NoError(t, err)
	}
	a, err := projection.Dump(ctx, liveDB)
	require.NoError(t, err)
	b, err := projection.Dump(ctx, rebuiltDB)
	require.NoError(t, err)
	assert.Equal(t, string(a), string(b), "rebuild equals live")

	// The projection's standings are the aggregate's.
	reg := eventstore.NewRegistry()
	require.NoError(t, tournoiclassique.RegisterEvents(reg))
	require.NoError(t, matchclassique.RegisterEvents(reg))
	tr, err := adapters.NewTournois(store, reg).Charger(ctx, "sim")
	require.NoError(t, err)
	got, err := classique.LecteurClassementDe(liveDB).Standings(ctx, "sim")
	require.NoError(t, err)
	assert.Equal(t, tr.Classement(), got)
	assert.Len(t, got, 21)
	total := 0
	for _, l := range got {
		total += l.PointsDeMatch
		assert.Equal(t, 4, l.Parties+l.Exempts, "everyone plays every round")
		assert.LessOrEqual(t, l.Exempts, 1, "at most one bye per player")
	}
	assert.Positive(t, total)

	// Cotes: everyone who played is rated by the named policy; séries on demand.
	cotes, err := classique.LecteurCotesDe(liveDB).ListeCotes(ctx)
	require.NoError(t, err)
	assert.Len(t, cotes, 21)
	for _, c := range cotes {
		assert.Equal(t, "arbitre-elo", c.Politique)
		assert.Equal(t, "1", c.Version)
		assert.Equal(t, 1, c.Tournois)
	}
	series, err := classique.LecteurCotesDe(liveDB).Series(ctx, cote.DefaultThresholds())
	require.NoError(t, err)
	assert.Len(t, series, 21)
	_, err = classique.LecteurCotesDe(liveDB).Series(ctx, cote.Thresholds{Joker: 1, A: 2, B: 3})
	assert.Equal(t, cote.CodeInvalidThresholds, erreur.CodeOf(err))
}

// BenchmarkSimulatedTournament200x7 plays a 200-player 7-round tournament
// into a SQLite store and builds standings and cotes (issue 6 target ≤ 10 s).
func BenchmarkSimulatedTournament200x7(b *testing.B) {
	ctx := context.Background()
	for range b.N {
		store := simuler(b, 200, 7)
		db, rs := runners(b, store)
		for _, r := range rs {
			_, err := r.CatchUp(ctx, nil)
			require.NoError(b, err)
		}
		lignes, err := classique.LecteurClassementDe(db).Standings(ctx, "sim")
		require.NoError(b, err)
		require.Len(b, lignes, 200)
		cotes, err := classique.LecteurCotesDe(db).ListeCotes(ctx)
		require.NoError(b, err)
		require.Len(b, cotes, 200)
	}
}
