package projection_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"arbitre/projections/projection"
)

// BenchmarkIssue34_RangeesSQLite measures how many rows of the archive's
// participations (a player, a position, a game, a tournament, a form of
// play) SQLite inserts here a second, by batches of 20,000 in one
// transaction: keyed by player (each row at a random place of the tree,
// the table before the bulk's sort), appended to a table in the order
// of the log (the bulk's), one row a statement (Exec) or by groups of
// RangeesParInsert (Inserer). It bounds what a rebuild of the archive
// can fold: an imported event holds 5.4 lines, each of which writes four
// to five rows.
func BenchmarkIssue34_RangeesSQLite(b *testing.B) {
	const (
		parCle   = `CREATE TABLE p (joueur TEXT NOT NULL, position INTEGER NOT NULL, partie TEXT NOT NULL, tournoi TEXT NOT NULL, kind TEXT NOT NULL, PRIMARY KEY (joueur, position)) WITHOUT ROWID`
		alaFin   = `CREATE TABLE p (joueur TEXT NOT NULL, position INTEGER NOT NULL, partie TEXT NOT NULL, tournoi TEXT NOT NULL, kind TEXT NOT NULL)`
		insert   = `INSERT INTO p (joueur, position, partie, tournoi, kind)`
		parLot   = 20000
		licences = 15000
	)
	for _, c := range []struct {
		nom     string
		schema  string
		groupes bool
	}{
		{"par joueur, une rangée par instruction", parCle, false},
		{"à la fin, une rangée par instruction", alaFin, false},
		{"à la fin, Inserer", alaFin, true},
	} {
		b.Run(c.nom, func(b *testing.B) {
			ctx := context.Background()
			db, err := projection.OpenDB(filepath.Join(b.TempDir(), "p.db"))
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			if _, err := db.Exec(c.schema); err != nil {
				b.Fatal(err)
			}
			joueurs := make([]string, licences)
			for i := range joueurs {
				joueurs[i] = fmt.Sprintf("%07d", i)
			}
			r := rand.New(rand.NewPCG(1, 2))
			b.ResetTimer()
			for n := 0; n < b.N; {
				tx, err := db.BeginTx(ctx, nil)
				if err != nil {
					b.Fatal(err)
				}
				q := projection.NewRequetes(tx)
				for range parLot {
					n++
					args := []any{joueurs[r.IntN(licences)], n, "d2006-0116-1", "d2006-0116", "duplicate"}
					if c.groupes {
						err = q.Inserer(ctx, insert, "", args...)
					} else {
						err = q.Exec(ctx, insert+` VALUES (?, ?, ?, ?, ?)`, args...)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
				if err := q.Fin(ctx); err != nil {
					b.Fatal(err)
				}
				if err := tx.Commit(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rangées/s")
		})
	}
}
