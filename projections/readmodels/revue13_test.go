package readmodels_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	classiquesim "arbitre/domain/classique/simulation"
	"arbitre/domain/eventstore"
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
	store, registry := partieSimulee(t, ctx, t.TempDir(), []string{"000001", "000002", "000003"})
	lex, err := libre.Lexicon()
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
