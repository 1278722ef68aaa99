package projection_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/projections/projection"
)

// selectif is a releve that reads the events of type lu only and ignores
// the others, as the classique standings and cotes and the history do
// (projection.Selectif).
type selectif struct {
	releve
	lu string
}

func (p selectif) Lit(typ string) bool { return typ == p.lu }

func (p selectif) Apply(ctx context.Context, tx *sql.Tx, e eventstore.Event) error {
	if !p.Lit(e.Type) {
		return nil
	}
	return p.releve.Apply(ctx, tx, e)
}

// ajouterDe appends n events of type typ.
func (s *salle) ajouterDe(t *testing.T, typ string, n int) {
	t.Helper()
	for range n {
		_, err := s.store.Append(context.Background(), "partie-1", eventstore.Any,
			eventstore.EventData{ID: uuid.New(), Type: typ, Version: 1, Data: json.RawMessage(fmt.Sprint(`{"n":"`, uuid.New(), `"}`))})
		require.NoError(t, err)
	}
}

// suivreUnParUn appends the events of types one at a time and delivers
// each to the salle's runners as it comes, from position de.
func (s *salle) suivreUnParUn(t *testing.T, de int, types ...string) {
	t.Helper()
	for i, typ := range types {
		s.ajouterDe(t, typ, 1)
		for _, err := range s.livrer(t, de+i) {
			require.NoError(t, err, "message %d", de+i)
		}
	}
}

// repeter is n times typ.
func repeter(typ string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = typ
	}
	return out
}

// salleDe is a salle whose one runner follows p.
func salleDe(t *testing.T, p projection.Projection) (*salle, *projection.Runner) {
	t.Helper()
	s := nouvelleSalle(t, 0)
	r, err := projection.NewRunner(context.Background(), s.db, p, s.store)
	require.NoError(t, err)
	r.Avance = projection.NewAvance(s.store, nil)
	s.runners = []*projection.Runner{r}
	return s, r
}

// Issue 34 item 3: a read model that reads none of a batch's events (the
// classique standings and cotes and the history, a bulletin) passes it
// without a transaction: before, every batch of every read model opened
// one, wrote its checkpoint and committed (saveCheckpoint 0.09 s, COMMIT
// 0.05 s, BEGIN 0.03 s of the hall's bulletin phase). One that reads some
// of them, or that does not say what it reads, keeps its transaction.
func TestIssue34_LectureSansRienAFaireSansTransaction(t *testing.T) {
	for _, c := range []struct {
		nom        string
		p          projection.Projection
		parBatch   int
		lignes     int
		dansLaBase uint64 // its checkpoint in the database after the batches
	}{
		{"ne lit aucun bulletin", selectif{releve: "classement", lu: "test.lu"}, 0, 0, 1},
		{"lit les bulletins", selectif{releve: "parties", lu: "test.coup"}, 1, 9, 9},
		{"ne dit pas ce qu'il lit", releve("hub"), 1, 9, 9},
	} {
		t.Run(c.nom, func(t *testing.T) {
			s, r := salleDe(t, c.p)
			// The first batch after start-up reads the checkpoint.
			s.suivreUnParUn(t, 1, "test.coup")
			transactions, restore := projection.CompterTransactions()
			defer restore()
			s.suivreUnParUn(t, 2, repeter("test.coup", 8)...)
			assert.EqualValues(t, 8*c.parBatch, transactions.Load(), "transactions for 8 batches")
			assert.EqualValues(t, 9, r.Position())
			rows, cp := s.compter(t, r)
			assert.Equal(t, c.lignes, rows)
			assert.EqualValues(t, c.dansLaBase, cp)
		})
	}
}

// Issue 34 item 3: what waits for a read model or reads how far it is sees
// the position it reached passing events (Position, Attendre, a parked
// one's Arret), and the database the checkpoint it wrote (Checkpoint,
// Anchors, Dump), which its next batch, a clean stop (Consigner) or the
// bounds of passageMax move on to it, with one transaction each.
func TestIssue34_PointAtteintEtPointEcrit(t *testing.T) {
	ctx := context.Background()
	fini, annule := context.WithCancel(ctx)
	annule()
	ancre := func(t *testing.T, s *salle) uint64 {
		ancres, err := projection.Anchors(ctx, s.db, s.store.Identity())
		require.NoError(t, err)
		require.Len(t, ancres, 1)
		return ancres[0].Position
	}
	t.Run("attendre, position, ancres", func(t *testing.T) {
		s, r := salleDe(t, selectif{releve: "classement", lu: "test.lu"})
		s.suivreUnParUn(t, 1, "test.lu", "test.coup", "test.coup", "test.coup")
		assert.EqualValues(t, 4, r.Position())
		assert.NoError(t, r.Attendre(fini, 4), "reached: no wait")
		assert.NoError(t, r.AJour(fini, 4))
		assert.ErrorIs(t, r.Attendre(fini, 5), context.Canceled)
		_, cp := s.compter(t, r)
		assert.EqualValues(t, 1, cp, "the database holds the checkpoint written")
		assert.EqualValues(t, 1, ancre(t, s))

		transactions, restore := projection.CompterTransactions()
		defer restore()
		s.suivreUnParUn(t, 5, "test.lu")
		assert.EqualValues(t, 1, transactions.Load(), "the batch that reads writes what was passed")
		rows, cp := s.compter(t, r)
		assert.Equal(t, 2, rows)
		assert.EqualValues(t, 5, cp)

		s.suivreUnParUn(t, 6, "test.coup", "test.coup")
		require.NoError(t, r.Consigner(ctx))
		require.NoError(t, r.Consigner(ctx))
		assert.EqualValues(t, 2, transactions.Load(), "one for the clean stop, none when nothing was passed")
		_, cp = s.compter(t, r)
		assert.EqualValues(t, 7, cp)
		assert.EqualValues(t, 7, ancre(t, s))
	})
	t.Run("au plus passageMax événements", func(t *testing.T) {
		defer projection.BornerPassage(3, time.Hour)()
		s, r := salleDe(t, selectif{releve: "classement", lu: "test.lu"})
		s.suivreUnParUn(t, 1, "test.lu")
		transactions, restore := projection.CompterTransactions()
		defer restore()
		s.suivreUnParUn(t, 2, repeter("test.coup", 8)...)
		assert.EqualValues(t, 2, transactions.Load(), "3 passed, the 4th written, 3 passed, the 8th written")
		_, cp := s.compter(t, r)
		assert.EqualValues(t, 9, cp)
		assert.EqualValues(t, 9, r.Position())
	})
	t.Run("au plus passageMax de temps", func(t *testing.T) {
		defer projection.BornerPassage(1000, 0)()
		s, r := salleDe(t, selectif{releve: "classement", lu: "test.lu"})
		s.suivreUnParUn(t, 1, "test.lu")
		transactions, restore := projection.CompterTransactions()
		defer restore()
		s.suivreUnParUn(t, 2, repeter("test.coup", 4)...)
		assert.EqualValues(t, 4, transactions.Load(), "past the time bound, every batch writes")
		_, cp := s.compter(t, r)
		assert.EqualValues(t, 5, cp)
	})
	t.Run("arrêté après des événements passés", func(t *testing.T) {
		s, r := salleDe(t, selectif{releve: "classement", lu: "test.lu"})
		s.suivreUnParUn(t, 1, "test.lu", "test.coup", "test.coup")
		require.True(t, r.Garer(fmt.Errorf("a full disk")))
		assert.EqualValues(t, 3, r.Arret().Position, "parked where it reached")
		assert.ErrorIs(t, r.Attendre(ctx, 4), r.Arret())
	})
	t.Run("reconstruit puis suit le direct", func(t *testing.T) {
		s, r := salleDe(t, selectif{releve: "classement", lu: "test.lu"})
		s.suivreUnParUn(t, 1, "test.lu", "test.coup", "test.coup")
		_, err := r.Rebuild(ctx, nil)
		require.NoError(t, err)
		s.suivreUnParUn(t, 4, "test.coup", "test.lu")
		rows, cp := s.compter(t, r)
		assert.Equal(t, 2, rows)
		assert.EqualValues(t, 5, cp)
		_, err = projection.RebuildAll(ctx, s.store, nil, []*projection.Runner{r}, nil)
		require.NoError(t, err)
		s.suivreUnParUn(t, 6, "test.coup")
		require.NoError(t, r.Consigner(ctx))
		rows, cp = s.compter(t, r)
		assert.Equal(t, 2, rows)
		assert.EqualValues(t, 6, cp)
	})
}

// rouvrir is a runner of p on the salle's store and database, as a
// restart builds it, checked as serve checks it (Prolonge), then caught
// up (how many events it folded again); the salle delivers to it from
// then on.
func (s *salle) rouvrir(t *testing.T, p projection.Projection) (*projection.Runner, int, error) {
	t.Helper()
	r, err := projection.NewRunner(context.Background(), s.db, p, s.store)
	require.NoError(t, err)
	r.Avance = projection.NewAvance(s.store, nil)
	s.runners = []*projection.Runner{r}
	if err := r.Prolonge(context.Background()); err != nil {
		return r, 0, err
	}
	n, err := r.CatchUp(context.Background(), nil)
	return r, n, err
}

// Issue 34 item 3: a restart after events passed without their checkpoint
// written (a crash) folds them again from the checkpoint in the database,
// harmlessly: the views are a rebuild's; after a clean stop it folds
// nothing again.
func TestIssue34_RepriseApresDesEvenementsPasses(t *testing.T) {
	for _, propre := range []bool{false, true} {
		t.Run(fmt.Sprintf("arrêt propre %v", propre), func(t *testing.T) {
			p := selectif{releve: "classement", lu: "test.lu"}
			s, r := salleDe(t, p)
			s.suivreUnParUn(t, 1, "test.lu", "test.coup", "test.coup", "test.lu", "test.coup", "test.coup", "test.coup")
			if propre {
				require.NoError(t, r.Consigner(context.Background()))
			}
			r, refaits, err := s.rouvrir(t, p)
			require.NoError(t, err)
			assert.EqualValues(t, 7, r.Position())
			if propre {
				assert.Zero(t, refaits, "nothing folded again")
			} else {
				assert.Equal(t, 3, refaits, "the events passed after the last one read")
			}
			s.suivreUnParUn(t, 8, "test.coup", "test.lu")
			require.NoError(t, r.Consigner(context.Background()))

			db, err := projection.OpenDB(filepath.Join(t.TempDir(), projection.FileName))
			require.NoError(t, err)
			defer db.Close()
			reconstruit, err := projection.NewRunner(context.Background(), db, p, s.store)
			require.NoError(t, err)
			_, err = projection.RebuildAll(context.Background(), s.store, nil, []*projection.Runner{reconstruit}, nil)
			require.NoError(t, err)
			attendu, err := projection.Dump(context.Background(), db)
			require.NoError(t, err)
			vu, err := projection.Dump(context.Background(), s.db)
			require.NoError(t, err)
			assert.Equal(t, string(attendu), string(vu))
		})
	}
}

// Issue 34 item 3: passing events never weakens the chain's check: an
// event altered right after a stretch passed stops the runner right before
// it, live; one altered inside a stretch passed stops it right before it
// at the restart after a crash, which folds the stretch again from the
// checkpoint in the database; a log cut after the checkpoint a clean stop
// wrote is refused at the restart (Prolonge).
func TestIssue34_EvenementAltereApresDesEvenementsPasses(t *testing.T) {
	p := selectif{releve: "classement", lu: "test.lu"}
	t.Run("en direct, juste après", func(t *testing.T) {
		s, r := salleDe(t, p)
		s.suivreUnParUn(t, 1, "test.lu", "test.coup", "test.coup", "test.coup", "test.coup")
		s.ajouterDe(t, "test.coup", 3)
		s.alterer(t, 6)
		err := s.livrer(t, 6)[0]
		require.ErrorIs(t, err, eventstore.ErrTampered)
		var applyErr *projection.ApplyError
		require.ErrorAs(t, err, &applyErr)
		assert.EqualValues(t, 6, applyErr.Position)
		assert.EqualValues(t, 5, r.Position(), "stopped right before it")
		require.True(t, r.Garer(err))
		assert.EqualValues(t, 6, r.Arret().Position)
		_, err = r.Reprendre(context.Background())
		require.ErrorIs(t, err, eventstore.ErrTampered)
		_, cp := s.compter(t, r)
		assert.EqualValues(t, 5, cp)
	})
	t.Run("dans les événements passés, après un arrêt brutal", func(t *testing.T) {
		s, _ := salleDe(t, p)
		s.suivreUnParUn(t, 1, "test.lu", "test.coup", "test.coup", "test.coup", "test.coup")
		s.alterer(t, 3)
		r, _, err := s.rouvrir(t, p)
		require.ErrorIs(t, err, eventstore.ErrTampered)
		var applyErr *projection.ApplyError
		require.ErrorAs(t, err, &applyErr)
		assert.EqualValues(t, 3, applyErr.Position)
		_, cp := s.compter(t, r)
		assert.EqualValues(t, 2, cp, "stopped right before it")
	})
	t.Run("la fin du journal coupée après un arrêt propre", func(t *testing.T) {
		s, r := salleDe(t, p)
		s.suivreUnParUn(t, 1, "test.lu", "test.coup", "test.coup", "test.coup", "test.coup")
		require.NoError(t, r.Consigner(context.Background()))
		raw, err := sql.Open("sqlite", "file:"+filepath.Join(s.dir, sqlitestore.FileName))
		require.NoError(t, err)
		defer raw.Close()
		_, err = raw.Exec(`DELETE FROM events WHERE position >= 4`)
		require.NoError(t, err)
		_, _, err = s.rouvrir(t, p)
		require.ErrorIs(t, err, eventstore.ErrTampered)
	})
}

// Issue 34 item 3: two runners of one read model (the same checkpoint
// row, TestRevue12_DeuxRunnersSurLeMemePointDeReprise): one passed events
// while the other moved the checkpoint in the database, past them or not
// as far; the next batch of the first finds it out at its write, goes
// back to the stored checkpoint and applies the batch from there, at once
// or, when the events between are not in its batch, from the store at the
// message's delivery again (the pipeline retries it): each event once.
func TestIssue34_PointAtteintDontLaBaseAChange(t *testing.T) {
	for _, c := range []struct {
		nom           string
		passes, autre int // a passes up to passes, b moves the database to autre
		redelivre     bool
	}{
		{"l'autre est allé plus loin", 4, 6, false},
		{"l'autre est resté en deçà", 6, 4, true},
	} {
		t.Run(c.nom, func(t *testing.T) {
			p := selectif{releve: "classement", lu: "test.lu"}
			s, a := salleDe(t, p)
			s.suivreUnParUn(t, 1, append([]string{"test.lu"}, repeter("test.coup", c.passes-1)...)...)
			s.ajouterDe(t, "test.coup", 6-c.passes)
			b, err := projection.NewRunner(context.Background(), s.db, p, s.store)
			require.NoError(t, err)
			debut, err := s.store.ReadAllAfter(context.Background(), 0, c.autre)
			require.NoError(t, err)
			_, err = b.Apply(context.Background(), debut)
			require.NoError(t, err)
			s.ajouterDe(t, "test.lu", 1)
			if c.passes < 6 {
				for p := c.passes + 1; p <= 6; p++ {
					require.NoError(t, s.livrer(t, p)[0])
				}
			}
			err = s.livrer(t, 7)[0]
			if c.redelivre {
				require.Error(t, err)
				assert.EqualValues(t, c.autre, a.Position(), "back to the stored checkpoint")
				err = s.livrer(t, 7)[0]
			}
			require.NoError(t, err)
			rows, cp := s.compter(t, a)
			assert.Equal(t, 2, rows)
			assert.EqualValues(t, 7, cp)
			assert.EqualValues(t, 7, a.Position())
		})
	}
}

// annulable is a releve that notes, for each event it applies, whether the
// context its statements run under can be cancelled.
type annulable struct {
	releve
	vus map[uint64]bool
}

func (p annulable) Apply(ctx context.Context, tx *sql.Tx, e eventstore.Event) error {
	p.vus[e.Position] = ctx.Done() != nil
	return p.releve.Apply(ctx, tx, e)
}

// Issue 34 item 3: the statements of a live batch (BEGIN, the read
// model's writes, the checkpoint's, COMMIT) run under a context that
// cannot be cancelled: the SQLite driver (modernc, interruptOnDone) starts
// a goroutine for every statement run under one that can, to interrupt it
// when it ends (21 of the 33 goroutines started per bulletin in
// BenchmarkIssue34_SalleNeufLectures). A batch is at most a page of events:
// a stop waits for its end. A catch-up (a message lost, Reprendre) keeps
// its caller's context: it reads pages until the head.
func TestIssue34_LotEnDirectSousUnContexteSansAnnulation(t *testing.T) {
	p := annulable{releve: "parties", vus: map[uint64]bool{}}
	s, _ := salleDe(t, p)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for position := 1; position <= 2; position++ {
		s.ajouter(t, 1)
		require.NoError(t, s.runners[0].Recevoir(ctx, s.livraison(t, position, nil)))
	}
	s.ajouter(t, 2)
	// The message of 3 is lost: 4's catches up from the store.
	require.NoError(t, s.runners[0].Recevoir(ctx, s.livraison(t, 4, nil)))
	assert.Equal(t, map[uint64]bool{1: false, 2: false, 3: true, 4: true}, p.vus)
}
