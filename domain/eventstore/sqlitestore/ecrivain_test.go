package sqlitestore

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/integrity"
)

// Issue 34 item 3 (« la commande d'un bulletin »): an append's write
// transaction drives the writer's driver connection itself. Through
// database/sql, each statement of a transaction was wrapped again for the
// transaction (Tx.StmtContext), its arguments converted, each query's rows
// watched by a goroutine of their own (a Tx's context can always be
// cancelled), and the driver compiled BEGIN and COMMIT again at every
// transaction: about a third of the CPU of an append under a hall's
// group commits (BenchmarkIssue34_LotDeBulletins, docs/charge.md). The
// allocations of one bulletin's append (a key, a guard on the game, one
// transaction and one fsync of its own) and of one part of a batch of a
// hundred are counted (before: 157–158 and 65; after: 72 and 37).
func TestIssue34_EcritureSansDatabaseSQL(t *testing.T) {
	ctx := context.Background()
	s, err := OpenDir(ctx, t.TempDir(), Options{})
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	jeu, err := s.Append(ctx, "partie-s", eventstore.NoStream, sousCle("jeton:0", "k0", "tirer:a"))
	require.NoError(t, err)
	n := 0
	bulletin := func() eventstore.EventData {
		n++
		return sousCle("jeton:1", fmt.Sprint("k", n), fmt.Sprint("deposer:", n))
	}

	tests := []struct {
		name string
		// parts is the number of appends one run writes.
		parts int
		// max is the most allocations one append may make.
		max   float64
		ecrit func()
	}{
		{"one bulletin, its own transaction", 1, 80, func() {
			e := bulletin()
			_, err := s.AppendGuarded(ctx, fmt.Sprint("partie-s-table-", n%100+1), eventstore.Any,
				[]eventstore.Guard{{Stream: "partie-s", After: jeu.Position}}, e)
			require.NoError(t, err)
		}},
		{"a part of a batch of a hundred", 100, 45, func() {
			lot := make([]eventstore.BatchPart, 100)
			for i := range lot {
				lot[i] = eventstore.BatchPart{Stream: fmt.Sprint("partie-s-table-", i+1), Expected: eventstore.Any,
					Events: []eventstore.EventData{bulletin()}}
			}
			_, err := s.AppendBatch(ctx, lot)
			require.NoError(t, err)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.ecrit() // the statements are prepared, the keys read
			parAjout := testing.AllocsPerRun(20, tt.ecrit) / float64(tt.parts)
			t.Logf("%.1f allocations per append", parAjout)
			assert.LessOrEqual(t, parAjout, tt.max)
		})
	}
}

// A write transaction that SQLite ended by itself (an I/O error, a COMMIT
// that failed) cannot be rolled back: the connection, whose state the
// store cannot tell, is closed, and the next append runs on a new one,
// its statements prepared again. One whose caller gave up is rolled back
// all the same, on the connection kept. Neither wrote anything.
func TestIssue34_TransactionAbandonneeSansRienEcrire(t *testing.T) {
	tests := []struct {
		name     string
		remplace bool
		abandon  func(w *ecrivain, annuler context.CancelFunc)
	}{
		{"SQLite ended the transaction", true, func(w *ecrivain, _ context.CancelFunc) {
			require.NoError(t, w.executer(w.rollback))
		}},
		{"the caller gave up", false, func(_ *ecrivain, annuler context.CancelFunc) { annuler() }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			s, err := OpenDir(ctx, t.TempDir(), Options{})
			require.NoError(t, err)
			t.Cleanup(func() { s.Close() })
			_, err = s.Append(ctx, "partie-a", eventstore.NoStream, sousCle("jeton:1", "k1", "tirer:a"))
			require.NoError(t, err)
			avant := s.ecriture

			echec := errors.New("the append gave up")
			appel, annuler := context.WithCancel(ctx)
			defer annuler()
			s.writeLock.Lock()
			err = s.transaction(appel, "appends", func(w *ecrivain) (bool, error) {
				id := uuid.New()
				require.NoError(t, w.executer(w.insert, int64(2), "partie-b", int64(0), id[:], "t", int64(1), []byte(`{}`),
					"", "", "", "", int64(0), "", []byte{}))
				tt.abandon(w, annuler)
				return false, echec
			})
			s.writeLock.Unlock()
			require.ErrorIs(t, err, echec)

			res, err := s.Append(ctx, "partie-a", eventstore.Exact(0), sousCle("jeton:1", "k2", "tirer:b"))
			require.NoError(t, err)
			assert.Equal(t, uint64(2), res.Position, "nothing of the abandoned transaction stored")
			assert.Equal(t, tt.remplace, avant != s.ecriture, "statements prepared again")
			report, err := integrity.Verify(ctx, s, integrity.VerifyOptions{GaplessPositions: true})
			require.NoError(t, err)
			assert.True(t, report.OK(), "%v", report.Problems)
		})
	}
}
