package pipeline_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/projections/projection"
)

// lecturesComptees is a store that counts its reads of the log.
type lecturesComptees struct {
	eventstore.Reader
	n atomic.Int32
}

func (l *lecturesComptees) ReadAllAfter(ctx context.Context, after uint64, limit int) ([]eventstore.Event, error) {
	l.n.Add(1)
	return l.Reader.ReadAllAfter(ctx, after, limit)
}

// attendLecture is a tally applied in batches whose first batch waits (5 s
// at most) for the log to have been read twice, and records how many
// reads it saw then.
type attendLecture struct {
	tally
	lectures *lecturesComptees
	vues     *[]int32
}

func (p attendLecture) ApplyBatch(ctx context.Context, tx *sql.Tx, events []projection.Decoded) error {
	if len(*p.vues) == 0 {
		for fin := time.Now().Add(5 * time.Second); p.lectures.n.Load() < 2 && time.Now().Before(fin); {
			time.Sleep(time.Millisecond)
		}
	}
	*p.vues = append(*p.vues, p.lectures.n.Load())
	for _, e := range events {
		if err := p.Apply(ctx, tx, *e.Event); err != nil {
			return err
		}
	}
	return nil
}

// Issue 34, item 1: simulate archive's views catch up with the log read
// ahead: the next page is read (and its chain checked) while the views
// apply the current one, off the fold's goroutine. Before, the next page
// was read once every view had applied the current one.
func TestIssue34_RattraperEnsembleLitLaPageSuivantePendantLePli(t *testing.T) {
	f := newFixture(t)
	last := f.append(t, numbered(1, 25)...)
	lectures := &lecturesComptees{Reader: f.store}
	var vues []int32
	r := f.runner(t, attendLecture{tally: newTally("avance"), lectures: lectures, vues: &vues})
	require.NoError(t, projection.RattraperEnsemble(context.Background(), lectures, []*projection.Runner{r}, 10))
	require.Len(t, vues, 3, "three pages")
	assert.EqualValues(t, 2, vues[0], "the second page read while the first is applied")
	assert.EqualValues(t, 4, lectures.n.Load(), "three pages and the empty read that ends the log")
	assert.Equal(t, last, r.Position())
}

// Issue 34, item 1: the views catching up together check each link of the
// chain once (a runner checks its junction with its checkpoint): an event
// altered in the file, inside a page, at a page's start or right after
// the views' checkpoints, stops every view right before it, one of them
// ahead of the others.
func TestIssue34_RattraperEnsembleArreteAvantUnEvenementAltere(t *testing.T) {
	for _, c := range []struct {
		nom            string
		altere, avance int // the event altered; how far the view ahead is
	}{
		{"dans une page", 11, 3},
		{"au début d'une page", 9, 3},
		{"juste après les points de reprise", 9, 8},
	} {
		t.Run(c.nom, func(t *testing.T) {
			f := newFixture(t)
			f.append(t, numbered(1, 16)...)
			raw, err := sql.Open("sqlite", "file:"+filepath.Join(f.dir, sqlitestore.FileName))
			require.NoError(t, err)
			_, err = raw.Exec(`UPDATE events SET data = '"altéré"' WHERE position = ?`, c.altere)
			require.NoError(t, err)
			require.NoError(t, raw.Close())

			a, b := f.runner(t, newTally("a")), f.runner(t, newTally("b"))
			debut, err := f.store.ReadAllAfter(context.Background(), 0, c.avance)
			require.NoError(t, err)
			_, err = b.Apply(context.Background(), debut)
			require.NoError(t, err)
			if c.avance == c.altere-1 {
				_, err = a.Apply(context.Background(), debut)
				require.NoError(t, err)
			}
			err = projection.RattraperEnsemble(context.Background(), f.store, []*projection.Runner{a, b}, 4)
			require.ErrorIs(t, err, eventstore.ErrTampered)
			var applyErr *projection.ApplyError
			require.ErrorAs(t, err, &applyErr)
			assert.EqualValues(t, c.altere, applyErr.Position)
			for _, r := range []*projection.Runner{a, b} {
				cp, err := r.Checkpoint(context.Background())
				require.NoError(t, err)
				assert.EqualValues(t, c.altere-1, cp, "projection %s stops right before", r.Name())
				var n int
				require.NoError(t, f.db.QueryRow(fmt.Sprintf(`SELECT COUNT(*) FROM %s`, r.Name())).Scan(&n))
				assert.Equal(t, c.altere-1, n, "projection %s", r.Name())
			}
		})
	}
}
