package projection_test

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/eventstore"
	"arbitre/projections/feed"
	"arbitre/projections/projection"
)

// compter returns how many rows projection name holds and its stored
// checkpoint.
func (s *salle) compter(t *testing.T, r *projection.Runner) (rows int, cp uint64) {
	t.Helper()
	require.NoError(t, s.db.QueryRow(`SELECT COUNT(*) FROM `+r.Name()).Scan(&rows))
	cp, err := r.Checkpoint(context.Background())
	require.NoError(t, err)
	return rows, cp
}

// livraison is the message of the event at position, as the pipeline
// builds it (feed.NewMessage), with change applied to the event first.
func (s *salle) livraison(t *testing.T, position int, change func(*eventstore.Event)) *feed.Livraison {
	t.Helper()
	events, err := s.store.ReadAllAfter(context.Background(), uint64(position-1), 1)
	require.NoError(t, err)
	require.Len(t, events, 1)
	if change != nil {
		change(&events[0])
	}
	msg, err := feed.NewMessage(events[0], uint64(position-1))
	require.NoError(t, err)
	l, err := feed.Livrer(msg)
	require.NoError(t, err)
	return l
}

// Review of s12-avance: two runners of one read model (the same
// checkpoint row), each keeping the checkpoint it committed last
// (Runner.pointGarde), take turns: each batch finds at its write that the other
// moved the checkpoint, and is applied again from the stored one; no event
// is applied twice (the table's primary key would refuse it) or skipped.
func TestRevue12_DeuxRunnersSurLeMemePointDeReprise(t *testing.T) {
	s := nouvelleSalle(t, 1)
	a := s.runners[0]
	b, err := projection.NewRunner(context.Background(), s.db, releve(a.Name()), s.store)
	require.NoError(t, err)
	b.Avance = projection.NewAvance(s.store, nil)
	s.ajouter(t, 12)
	for p := 1; p <= 12; p++ {
		r := []*projection.Runner{a, b}[(p/2)%2] // a a b b a a…
		require.NoError(t, r.Recevoir(context.Background(), s.livraison(t, p, nil)), "message %d", p)
	}
	rows, cp := s.compter(t, a)
	assert.Equal(t, 12, rows)
	assert.EqualValues(t, 12, cp)
}

// Review of s12-avance: the runners of a pipeline handle each message at
// once, in goroutines of their own, sharing their read-ahead (Avance):
// under -race, nothing they share is unsynchronised, and an event altered
// in the file stops every one of them right before it, whatever the order
// they ran in.
func TestRevue12_RunnersEnParalleleArretesAvantUnEvenementAltere(t *testing.T) {
	const lecteurs, total, altere = 4, 40, 23
	s := nouvelleSalle(t, lecteurs)
	s.ajouter(t, total)
	s.alterer(t, altere)
	for p := 1; p <= total; p++ {
		l := s.livraison(t, p, nil)
		var wg sync.WaitGroup
		for _, r := range s.runners {
			wg.Go(func() { _ = r.Recevoir(context.Background(), l) })
		}
		wg.Wait()
	}
	for _, r := range s.runners {
		rows, cp := s.compter(t, r)
		assert.Equal(t, altere-1, rows, "projection %s", r.Name())
		assert.EqualValues(t, altere-1, cp, "projection %s", r.Name())
	}
}

// capricieux is a releve that fails once on the event at position panne.
type capricieux struct {
	releve
	panne uint64
	fait  bool
}

func (p *capricieux) Apply(ctx context.Context, tx *sql.Tx, e eventstore.Event) error {
	if e.Position == p.panne && !p.fait {
		p.fait = true
		return fmt.Errorf("a passing failure at %d", e.Position)
	}
	return p.releve.Apply(ctx, tx, e)
}

// Review of s12-avance: a batch that fails once on its own event (rolled
// back) leaves no checkpoint in memory ahead of the stored one: the
// message delivered again is applied, and the runner goes on from there
// with its kept checkpoint, each event once.
func TestRevue12_EchecPassagerNeLaissePasLePointEnAvance(t *testing.T) {
	s := nouvelleSalle(t, 0)
	r, err := projection.NewRunner(context.Background(), s.db, &capricieux{releve: "capricieux", panne: 4}, s.store)
	require.NoError(t, err)
	r.Avance = projection.NewAvance(s.store, nil)
	for p := 1; p <= 8; p++ {
		s.ajouter(t, 1)
		l := s.livraison(t, p, nil)
		err := r.Recevoir(context.Background(), l)
		if p == 4 {
			require.Error(t, err, "the failure is the caller's")
			rows, cp := s.compter(t, r)
			assert.Equal(t, 3, rows)
			assert.EqualValues(t, 3, cp)
			assert.EqualValues(t, 3, r.Position())
			err = r.Recevoir(context.Background(), l) // redelivered
		}
		require.NoError(t, err, "message %d", p)
	}
	rows, cp := s.compter(t, r)
	assert.Equal(t, 8, rows)
	assert.EqualValues(t, 8, cp)
}

// Review of s12-avance: a runner rebuilt (Runner.Rebuild: reset, then the
// whole log) while it kept a checkpoint goes on live from the rebuild's.
func TestRevue12_ReconstruitPuisSuitLeDirect(t *testing.T) {
	s := nouvelleSalle(t, 1)
	r := s.runners[0]
	s.ajouter(t, 3)
	for p := 1; p <= 3; p++ {
		require.NoError(t, r.Recevoir(context.Background(), s.livraison(t, p, nil)))
	}
	s.ajouter(t, 2)
	_, err := r.Rebuild(context.Background(), nil)
	require.NoError(t, err)
	s.ajouter(t, 1)
	for p := 4; p <= 6; p++ {
		require.NoError(t, r.Recevoir(context.Background(), s.livraison(t, p, nil)), "message %d", p)
	}
	rows, cp := s.compter(t, r)
	assert.Equal(t, 6, rows)
	assert.EqualValues(t, 6, cp)
}
