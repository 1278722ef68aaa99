package historique

import (
	"context"
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
