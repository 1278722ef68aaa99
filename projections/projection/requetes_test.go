package projection_test

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strings"
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

// TestIssue34_RequetesInsererCommeUneAUne: rows inserted through Inserer,
// sent by groups of RangeesParInsert in one statement, give the tables
// the statements one by one give: upserts and replaces on a key repeated
// across and inside groups, two insert statements held at once, other
// statements between them, a read through Query and one outside the
// Requetes after Envoyer, each seeing every row inserted before it.
func TestIssue34_RequetesInsererCommeUneAUne(t *testing.T) {
	type stmt struct {
		insert, suite string
		args          []any
		lire          bool // read the count of t before the statement
		envoyer       bool // read outside the Requetes, after Envoyer
	}
	const (
		upsert  = `INSERT INTO t (k, v, n)`
		surT    = `ON CONFLICT (k) DO UPDATE SET v = excluded.v, n = n + excluded.n`
		replace = `INSERT OR REPLACE INTO u (k, v)`
	)
	var script []stmt
	for i := range 100 {
		script = append(script, stmt{insert: upsert, suite: surT, args: []any{fmt.Sprint("k", i%7), i, 1}})
		if i%3 == 0 {
			script = append(script, stmt{insert: replace, args: []any{fmt.Sprint("r", i%5), i}})
		}
		switch i {
		case 20:
			script = append(script, stmt{insert: `DELETE FROM t WHERE k = ?`, args: []any{"k3"}})
		case 40:
			script = append(script, stmt{lire: true})
		case 70:
			script = append(script, stmt{envoyer: true})
		}
	}
	run := func(t *testing.T, groupees bool) (string, []int) {
		ctx := context.Background()
		db, err := projection.OpenDB(filepath.Join(t.TempDir(), "p.db"))
		require.NoError(t, err)
		defer db.Close()
		_, err = db.Exec(`CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER, n INTEGER); CREATE TABLE u (k TEXT PRIMARY KEY, v INTEGER)`)
		require.NoError(t, err)
		tx, err := db.BeginTx(ctx, nil)
		require.NoError(t, err)
		q := projection.NewRequetes(tx)
		var lus []int
		for _, s := range script {
			switch {
			case s.lire && groupees:
				rows, err := q.Query(ctx, `SELECT sum(n) FROM t`)
				require.NoError(t, err)
				require.True(t, rows.Next())
				var n int
				require.NoError(t, rows.Scan(&n))
				require.NoError(t, rows.Close())
				lus = append(lus, n)
			case s.lire || s.envoyer:
				if groupees {
					require.NoError(t, q.Envoyer(ctx))
				}
				var n int
				require.NoError(t, tx.QueryRowContext(ctx, `SELECT sum(n) FROM t`).Scan(&n))
				lus = append(lus, n)
			case !groupees:
				query := s.insert
				if s.insert == upsert || s.insert == replace {
					query += " VALUES (?" + strings.Repeat(", ?", len(s.args)-1) + ") " + s.suite
				}
				_, err := tx.ExecContext(ctx, query, s.args...)
				require.NoError(t, err)
			case s.insert == upsert || s.insert == replace:
				require.NoError(t, q.Inserer(ctx, s.insert, s.suite, s.args...))
			default:
				require.NoError(t, q.Exec(ctx, s.insert, s.args...))
			}
		}
		require.NoError(t, q.Fin(ctx))
		require.NoError(t, tx.Commit())
		out, err := projection.Dump(ctx, db)
		require.NoError(t, err)
		return string(out), lus
	}
	want, lusUneAUne := run(t, false)
	assert.Contains(t, want, "k0\t98\t15\n")
	got, lus := run(t, true)
	assert.Equal(t, want, got)
	assert.Equal(t, lusUneAUne, lus)
}
