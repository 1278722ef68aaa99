package pipeline_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"arbitre/domain/eventstore"
	"arbitre/projections/pipeline"
	"arbitre/projections/projection"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// enPanne is a tally whose database fails (an injected fault, like a full
// disk) on every event after position apres while panne is set; a batch
// fails the same way. echecs counts the failures.
type enPanne struct {
	tally
	apres  uint64
	panne  *atomic.Bool
	echecs *atomic.Int32
}

var errDisque = errors.New("disk I/O error (injected)")

func (p enPanne) verifier(events ...eventstore.Event) error {
	for _, e := range events {
		if e.Position > p.apres && p.panne.Load() {
			p.echecs.Add(1)
			return errDisque
		}
	}
	return nil
}

func (p enPanne) Apply(ctx context.Context, tx *sql.Tx, e eventstore.Event) error {
	if err := p.verifier(e); err != nil {
		return err
	}
	return p.tally.Apply(ctx, tx, e)
}

func (p enPanne) ApplyBatch(ctx context.Context, tx *sql.Tx, events []projection.Decoded) error {
	for _, e := range events {
		if err := p.verifier(*e.Event); err != nil {
			return err
		}
	}
	for _, e := range events {
		if err := p.tally.Apply(ctx, tx, *e.Event); err != nil {
			return err
		}
	}
	return nil
}

// attendreQue polls cond until it holds, failing the test after 30 s.
func attendreQue(t *testing.T, cond func() bool, quoi string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for !cond() {
		select {
		case <-ctx.Done():
			require.FailNow(t, "still waiting: "+quoi)
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// Issue 32: a projection parked by a fault that lasts (the disk full) is
// tried again by itself while parked and, once the fault goes away (space
// back), resumes without a restart from its checkpoint: it is no longer
// parked, it reaches the head, and its read model is the one a fresh
// rebuild gives; the healthy projection beside it never stopped. At
// start-up (catch-up) and live.
func TestFiabilite_ProjectionGareeReprendSeuleQuandLaPanneCesse(t *testing.T) {
	for _, live := range []bool{false, true} {
		t.Run(fmt.Sprintf("live=%v", live), func(t *testing.T) {
			f := newFixture(t)
			malade := enPanne{tally: newTally("malade"), apres: 3, panne: new(atomic.Bool), echecs: new(atomic.Int32)}
			sain := newTally("sain")
			rm, rs := f.runner(t, malade), f.runner(t, sain)
			rm.Log, rs.Log = discard(), discard()
			f.append(t, numbered(1, 3)...)
			_, err := rm.CatchUp(context.Background(), nil)
			require.NoError(t, err)
			malade.panne.Store(true)
			if !live {
				f.append(t, numbered(4, 3)...)
			}
			runPipeline(t, f, pipeline.Config{Retry: pipeline.Retry{Attempts: 2, First: 1}, Reprise: pipeline.Reprise{First: time.Millisecond, Max: 4 * time.Millisecond}}, rm, rs)
			last := f.append(t, numbered(7, 3)...)
			require.NoError(t, rs.Attendre(context.Background(), last), "the healthy projection goes on")

			attendreQue(t, func() bool { return rm.Arret() != nil }, "the projection parked")
			assert.Equal(t, uint64(3), rm.Position())
			gare := malade.echecs.Load()
			attendreQue(t, func() bool { return malade.echecs.Load() > gare+1 }, "the parked projection tried again by itself")
			malade.panne.Store(false)
			attendreQue(t, func() bool { return rm.Arret() == nil && rm.Position() >= last }, "the projection resumed")
			require.NoError(t, rm.Attendre(context.Background(), last))
			assert.Equal(t, freshRebuild(t, f.store, malade.tally, sain), dump(t, f.db))
		})
	}
}
