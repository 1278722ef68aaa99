package readmodels_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/catalogue"
	classiquesim "arbitre/domain/classique/simulation"
	"arbitre/domain/duplicate"
	"arbitre/domain/duplicate/adapters"
	"arbitre/domain/duplicate/simulation"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/eventstoretest"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/engine/lexicon/libre"
	"arbitre/projections/projection"
	"arbitre/projections/readmodels"
)

// Séance 13, revue: live, a read model that declares it reads none of a
// batch's events (projection.Selectif.Lit) passes the batch without
// folding it (projection.Runner.passer). That is exact only if folding
// the events it declares unread changes nothing: a type added to a fold
// but not to Lit would leave the live view behind a rebuild's. Each
// Selectif read model of serve folds a duplicate game and a classique
// tournament twice, every event and the events it reads only: both must
// give the same tables.
func TestRevue13_LitCouvreCeQuePlieLaLecture(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	store, err := sqlitestore.OpenDir(ctx, dir, sqlitestore.Options{Clock: eventstoretest.NewStepClock(eventstoretest.Epoch)})
	require.NoError(t, err)
	t.Cleanup(func() { store.Close() })
	registry, err := catalogue.Registre()
	require.NoError(t, err)
	lex, err := libre.Lexicon()
	require.NoError(t, err)
	cfg := duplicate.Config{TempsParCoup: 3 * time.Minute, Source: duplicate.SourceLogiciel, GraineTest: new(uint64(7))}
	sim := simulation.New(lex, cfg)
	depot := adapters.NewDepot(store, registry, sim.Moteur())
	md := eventstore.Metadata{Actor: "directeur", Role: "directeur"}
	_, err = sim.Jouer(simulation.Partie{ID: "p1", Tournoi: "t1", Numero: 1, Config: cfg, Joueurs: []string{"000001", "000002", "000003"}, Graine: 7},
		func(p *duplicate.Partie) error { return depot.Enregistrer(ctx, p, md) })
	require.NoError(t, err)
	_, err = classiquesim.Simuler(ctx, store, lex, classiquesim.Config{Tournoi: "c1", Joueurs: 6, Rondes: 2, Seed: 1, Workers: 1,
		Comportement: classiquesim.ComportementParDefaut()})
	require.NoError(t, err)
	events, err := store.ReadAll(ctx, 0, 100_000)
	require.NoError(t, err)

	models, err := readmodels.Tous(registry, store)
	require.NoError(t, err)
	selectifs := 0
	for _, m := range models {
		s, ok := m.(projection.Selectif)
		if !ok {
			continue
		}
		selectifs++
		t.Run(m.Name(), func(t *testing.T) {
			var lus []eventstore.Event
			for _, e := range events {
				if s.Lit(e.Type) {
					lus = append(lus, e)
				}
			}
			require.NotEmpty(t, lus, "the log holds events the read model reads")
			require.Less(t, len(lus), len(events), "the log holds events the read model does not read")
			assert.Equal(t, plier(t, ctx, filepath.Join(t.TempDir(), "tout.db"), m, events),
				plier(t, ctx, filepath.Join(t.TempDir(), "lus.db"), m, lus))
		})
	}
	assert.Equal(t, 3, selectifs, "classique_classement, classique_cotes, historique")
}

// plier folds events into a new database at path with m, and returns its
// tables' rows, each table's sorted.
func plier(t *testing.T, ctx context.Context, path string, m projection.Projection, events []eventstore.Event) map[string][]string {
	t.Helper()
	db, err := projection.OpenDB(path)
	require.NoError(t, err)
	defer db.Close()
	tx, err := db.BeginTx(ctx, nil)
	require.NoError(t, err)
	require.NoError(t, m.Setup(ctx, tx))
	for _, e := range events {
		require.NoError(t, m.Apply(ctx, tx, e), "%s at %d", e.Type, e.Position)
	}
	require.NoError(t, tx.Commit())
	return tables(t, ctx, db)
}

// tables are the rows of every table of db, each table's sorted.
func tables(t *testing.T, ctx context.Context, db *sql.DB) map[string][]string {
	t.Helper()
	rows, err := db.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
	require.NoError(t, err)
	var noms []string
	for rows.Next() {
		var n string
		require.NoError(t, rows.Scan(&n))
		noms = append(noms, n)
	}
	require.NoError(t, rows.Err())
	rows.Close()
	out := map[string][]string{}
	for _, n := range noms {
		rows, err := db.QueryContext(ctx, `SELECT * FROM "`+n+`"`)
		require.NoError(t, err)
		cols, err := rows.Columns()
		require.NoError(t, err)
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			require.NoError(t, rows.Scan(ptrs...))
			out[n] = append(out[n], strings.TrimSpace(fmt.Sprintln(vals...)))
		}
		require.NoError(t, rows.Err())
		rows.Close()
		slices.Sort(out[n])
	}
	return out
}
