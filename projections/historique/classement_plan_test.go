package historique

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/projections/projection"
)

// TestIssue34_ClassementAnnuelLuParIndex: a page of a year's ranking, and
// of a club's lines of it, is read through an index in the ranking's
// order: no table read whole, no sort at the query (ranking the year's
// fifteen thousand players at each query took 112 ms at p50, 189 ms at
// p99).
func TestIssue34_ClassementAnnuelLuParIndex(t *testing.T) {
	ctx := context.Background()
	db, err := projection.OpenDB(filepath.Join(t.TempDir(), projection.FileName))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	tx, err := db.BeginTx(ctx, nil)
	require.NoError(t, err)
	require.NoError(t, (&Projection{}).Setup(ctx, tx))
	require.NoError(t, tx.Commit())
	for _, c := range []struct {
		q    string
		args []any
	}{
		{requeteClassement, []any{2019, KindDuplicate, 0}},
		{requeteClub, []any{"Vichy", 2019, KindDuplicate, 0}},
	} {
		rows, err := db.Query(`EXPLAIN QUERY PLAN `+c.q, c.args...)
		require.NoError(t, err)
		var plan []string
		for rows.Next() {
			var id, parent, notused int
			var detail string
			require.NoError(t, rows.Scan(&id, &parent, &notused, &detail))
			plan = append(plan, detail)
		}
		require.NoError(t, rows.Close())
		assert.NotRegexp(t, `SCAN|TEMP B-TREE`, strings.Join(plan, "; "), c.q)
	}
}

// indexDe lists the archive's indexes the database holds, by name.
func indexDe(t *testing.T, db *sql.DB) []string {
	t.Helper()
	rows, err := db.Query(`SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'hist_%' AND sql IS NOT NULL ORDER BY name`)
	require.NoError(t, err)
	defer rows.Close()
	var noms []string
	for rows.Next() {
		var n string
		require.NoError(t, rows.Scan(&n))
		noms = append(noms, n)
	}
	require.NoError(t, rows.Err())
	return noms
}

// Issue 34 item 1, the import's speed: a bulk import nobody reads
// meanwhile does not keep the queries' indexes row by row (DebutDeMasse
// drops every one of them); FinDeMasse builds them again, the ones Setup
// makes, with the rows written meanwhile (integrity check), and the
// year's ranking is then read through its club index.
func TestIssue34_IndexDesLecturesApresUnImportMassif(t *testing.T) {
	ctx := context.Background()
	db, err := projection.OpenDB(filepath.Join(t.TempDir(), projection.FileName))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	run, err := projection.NewRunner(ctx, db, &Projection{}, nil)
	require.NoError(t, err)
	deSetup := indexDe(t, db)
	require.Len(t, deSetup, len(indexDesLectures))

	require.NoError(t, run.CommencerMasse(ctx))
	assert.Empty(t, indexDe(t, db), "no index of the queries is kept during the bulk")
	_, err = db.ExecContext(ctx, `INSERT INTO hist_rencontres (position, tournoi, match, ronde, joueur0, joueur1, score0, score1, pm0, pm1, le)
		VALUES (1, 't', 'm', 1, 'L1', 'L2', 400, 380, 3, 1, 0)`)
	require.NoError(t, err)
	require.NoError(t, run.FinirMasse(ctx))
	assert.Equal(t, deSetup, indexDe(t, db))
	var integrite string
	require.NoError(t, db.QueryRow(`PRAGMA integrity_check`).Scan(&integrite))
	assert.Equal(t, "ok", integrite)
	var n int
	require.NoError(t, db.QueryRow(`SELECT count(*) FROM hist_rencontres INDEXED BY hist_rencontres_j1 WHERE joueur1 = 'L2'`).Scan(&n))
	assert.Equal(t, 1, n, "the row written without the index is in it")
}
