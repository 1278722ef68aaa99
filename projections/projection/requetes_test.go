package projection_test

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"arbitre/projections/projection"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Issue 16, item 10: statements run through Requetes (each prepared once
// for the batch) give the table that the statements one by one give,
// upserts on a key repeated in the batch and a statement between them
// included.
func TestRequetes_LignesGroupeesCommeUneAUne(t *testing.T) {
	const upsert = `INSERT INTO t (k, v, n) VALUES (?, ?, ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v, n = n + excluded.n`
	type stmt struct {
		query string
		args  []any
	}
	script := []stmt{
		{upsert, []any{"a", 1, 1}}, {upsert, []any{"b", 2, 1}}, {upsert, []any{"a", 3, 1}},
		{`DELETE FROM t WHERE k = ?`, []any{"b"}},
		{upsert, []any{"b", 4, 1}}, {upsert, []any{"c", 5, 1}},
		{`INSERT INTO u (k) VALUES (?)`, []any{"x"}}, {upsert, []any{"c", 6, 1}},
	}
	for i := range 3000 {
		script = append(script, stmt{upsert, []any{"d", i, 1}})
	}
	// Values of every kind, in a column without affinity: each is stored
	// with the type and bytes binding it gives.
	const brut = `INSERT INTO w (k, v) VALUES (?, ?)`
	for i, v := range []any{"simple", `guillemet " et \ barre`, "ligne\nnouvelle\ttab\x01", "é€𝄞", "", nil,
		int64(math.MaxInt64), int64(math.MinInt64), uint64(42), 7, 3.0, 2.5, true, []byte("octets"), "\xff\xfe invalide", "nul\x00dedans",
		"<&>", "\u2028"} {
		script = append(script, stmt{brut, []any{fmt.Sprintf("k%02d", i), v}})
	}
	run := func(t *testing.T, grouped bool) string {
		ctx := context.Background()
		db, err := projection.OpenDB(filepath.Join(t.TempDir(), "p.db"))
		require.NoError(t, err)
		defer db.Close()
		_, err = db.Exec(`CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER, n INTEGER); CREATE TABLE u (k TEXT); CREATE TABLE w (k TEXT PRIMARY KEY, v)`)
		require.NoError(t, err)
		tx, err := db.BeginTx(ctx, nil)
		require.NoError(t, err)
		q := projection.NewRequetes(tx)
		for _, s := range script {
			if grouped {
				require.NoError(t, q.Exec(ctx, s.query, s.args...))
			} else {
				_, err := tx.ExecContext(ctx, s.query, s.args...)
				require.NoError(t, err)
			}
		}
		require.NoError(t, q.Fin(ctx))
		require.NoError(t, tx.Commit())
		out, err := projection.Dump(ctx, db)
		require.NoError(t, err)
		rows, err := db.QueryContext(ctx, `SELECT k, typeof(v), quote(v) FROM w ORDER BY k`)
		require.NoError(t, err)
		defer rows.Close()
		for rows.Next() {
			var k, typ, v string
			require.NoError(t, rows.Scan(&k, &typ, &v))
			out = fmt.Appendf(out, "%s %s %s\n", k, typ, v)
		}
		require.NoError(t, rows.Err())
		return string(out)
	}
	want := run(t, false)
	assert.Contains(t, want, "a\t3\t2\n")
	assert.Contains(t, want, "d\t2999\t3000\n")
	assert.Contains(t, want, "k06 integer 9223372036854775807\n")
	assert.Contains(t, want, "k10 real 3.0\n")
	assert.Equal(t, want, run(t, true))
}
