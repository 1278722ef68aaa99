package projection_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/projections/feed"
	"arbitre/projections/projection"
)

// releve is a projection that records every event it applies in its own
// table.
type releve string

func (p releve) Name() string { return string(p) }
func (p releve) Setup(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS `+string(p)+` (position INTEGER PRIMARY KEY, data TEXT NOT NULL)`)
	return err
}
func (p releve) Reset(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `DELETE FROM `+string(p))
	return err
}
func (p releve) Apply(ctx context.Context, tx *sql.Tx, e eventstore.Event) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO `+string(p)+` (position, data) VALUES (?, ?)`, e.Position, string(e.Data))
	return err
}

// salle is a chained store and live runners following it, sharing their
// read-ahead (projection.Avance), as serve runs them.
type salle struct {
	dir     string
	store   *sqlitestore.Store
	db      *sql.DB
	runners []*projection.Runner
}

func nouvelleSalle(t *testing.T, n int) *salle {
	t.Helper()
	s := &salle{dir: t.TempDir()}
	var err error
	s.store, err = sqlitestore.OpenDir(context.Background(), s.dir, sqlitestore.Options{})
	require.NoError(t, err)
	s.db, err = projection.OpenDB(filepath.Join(s.dir, projection.FileName))
	require.NoError(t, err)
	t.Cleanup(func() {
		require.NoError(t, s.store.Close())
		require.NoError(t, s.db.Close())
	})
	avance := projection.NewAvance(s.store, nil)
	for i := range n {
		r, err := projection.NewRunner(context.Background(), s.db, releve(fmt.Sprint("releve_", i)), s.store)
		require.NoError(t, err)
		r.Avance = avance
		s.runners = append(s.runners, r)
	}
	return s
}

// ajouter appends n events and returns their positions.
func (s *salle) ajouter(t *testing.T, n int) {
	t.Helper()
	for range n {
		_, err := s.store.Append(context.Background(), "partie-1", eventstore.Any,
			eventstore.EventData{ID: uuid.New(), Type: "test.coup", Version: 1, Data: json.RawMessage(fmt.Sprint(`{"coup":"`, uuid.New(), `"}`))})
		require.NoError(t, err)
	}
}

// alterer changes the payload of the event at position in the file.
func (s *salle) alterer(t *testing.T, position int) {
	t.Helper()
	raw, err := sql.Open("sqlite", "file:"+filepath.Join(s.dir, sqlitestore.FileName))
	require.NoError(t, err)
	defer raw.Close()
	_, err = raw.Exec(`UPDATE events SET data = '"altéré"' WHERE position = ?`, position)
	require.NoError(t, err)
}

// livrer hands every runner, in turn, the one message of the event at
// position (the log's positions are 1, 2…), as the pipeline does, and
// returns what each answered.
func (s *salle) livrer(t *testing.T, position int) []error {
	t.Helper()
	events, err := s.store.ReadAllAfter(context.Background(), uint64(position-1), 1)
	require.NoError(t, err)
	require.Len(t, events, 1)
	msg, err := feed.NewMessage(events[0], uint64(position-1))
	require.NoError(t, err)
	l, err := feed.Livrer(msg)
	require.NoError(t, err)
	errs := make([]error, len(s.runners))
	for i, r := range s.runners {
		errs[i] = r.Recevoir(context.Background(), l)
	}
	return errs
}

// Issue 34 item 3: every link of the chain of the events delivered live is
// hashed once for all the runners sharing a read-ahead, which checks it;
// a runner whose checkpoint is the event before compares hashes (before,
// every runner hashed every event it applied: three runners, three
// hashes an event). Only the first message after start-up, whose
// predecessor the read-ahead never saw, is checked by each runner.
func TestIssue34_ChaineVerifieeUneFoisPourTousLesLecteurs(t *testing.T) {
	for _, c := range []struct {
		nom      string
		rafale   int // events appended before each is delivered
		messages int
	}{
		{"un par un", 1, 5},
		{"en rafale", 6, 1},
	} {
		t.Run(c.nom, func(t *testing.T) {
			const lecteurs = 3
			s := nouvelleSalle(t, lecteurs)
			s.ajouter(t, 1)
			for _, err := range s.livrer(t, 1) {
				require.NoError(t, err)
			}
			liens, restore := projection.CompterLiens()
			defer restore()
			position := 1
			for range c.messages {
				s.ajouter(t, c.rafale)
				for range c.rafale {
					position++
					for _, err := range s.livrer(t, position) {
						require.NoError(t, err)
					}
				}
			}
			livres := position - 1
			assert.EqualValues(t, livres, liens.Load(), "one hash an event for %d runners", lecteurs)
			for _, r := range s.runners {
				assert.EqualValues(t, position, r.Position())
			}
		})
	}
}

// Issue 34 item 3: the live runners check each link once for all of them
// (their read-ahead) and each its junction with its checkpoint: an event
// altered in the file, in the burst read ahead, as the event of the
// message, right after the checkpoints or delivered alone, stops every
// runner right before it, one of them ahead of the others
// (TestIssue34_RattraperEnsembleArreteAvantUnEvenementAltere for the
// catch-up).
func TestIssue34_SuivreArreteAvantUnEvenementAltere(t *testing.T) {
	for _, c := range []struct {
		nom            string
		altere, avance int // the event altered; how far the runner ahead is
		livres         int // events appended and delivered before the others are appended
	}{
		{"dans la lecture en avance", 11, 3, 0},
		{"au début de la lecture en avance", 5, 3, 0},
		{"juste après les points de reprise", 9, 8, 0},
		{"livré seul", 11, 3, 10},
	} {
		t.Run(c.nom, func(t *testing.T) {
			s := nouvelleSalle(t, 2)
			a, b := s.runners[0], s.runners[1]
			s.ajouter(t, c.livres)
			for p := 1; p <= c.livres; p++ {
				for _, err := range s.livrer(t, p) {
					require.NoError(t, err)
				}
			}
			s.ajouter(t, 16-c.livres)
			s.alterer(t, c.altere)
			if c.livres == 0 {
				debut, err := s.store.ReadAllAfter(context.Background(), 0, c.avance)
				require.NoError(t, err)
				_, err = b.Apply(context.Background(), debut)
				require.NoError(t, err)
				if c.avance == c.altere-1 {
					_, err = a.Apply(context.Background(), debut)
					require.NoError(t, err)
				}
			}
			for p := c.livres + 1; p < c.altere; p++ {
				for _, err := range s.livrer(t, p) {
					require.NoError(t, err, "message %d", p)
				}
			}
			for i, err := range s.livrer(t, c.altere) {
				require.ErrorIs(t, err, eventstore.ErrTampered, "runner %d", i)
				var applyErr *projection.ApplyError
				require.ErrorAs(t, err, &applyErr)
				assert.EqualValues(t, c.altere, applyErr.Position)
			}
			for _, r := range []*projection.Runner{a, b} {
				cp, err := r.Checkpoint(context.Background())
				require.NoError(t, err)
				assert.EqualValues(t, c.altere-1, cp, "projection %s stops right before", r.Name())
				var n int
				require.NoError(t, s.db.QueryRow(fmt.Sprintf(`SELECT COUNT(*) FROM %s`, r.Name())).Scan(&n))
				assert.Equal(t, c.altere-1, n, "projection %s", r.Name())
			}
		})
	}
}
