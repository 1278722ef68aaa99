package pipeline_test

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/eventstore"
	"arbitre/projections/pipeline"
	"arbitre/projections/projection"
)

// fil is a projection that notes the goroutine each event it applies is
// applied on.
type fil struct {
	name string
	mu   *sync.Mutex
	vus  map[string]map[uint64]uint64 // projection → position → goroutine
}

func (p fil) Name() string                         { return p.name }
func (p fil) Setup(context.Context, *sql.Tx) error { return nil }
func (p fil) Reset(context.Context, *sql.Tx) error { return nil }
func (p fil) Apply(_ context.Context, _ *sql.Tx, e eventstore.Event) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.vus[p.name][e.Position] = goroutine()
	return nil
}

// goroutine is the id of the calling goroutine, as its stack's first line
// names it ("goroutine 42 [running]:").
func goroutine() uint64 {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	buf, _, _ = bytes.Cut(bytes.TrimPrefix(buf, []byte("goroutine ")), []byte(" "))
	id, _ := strconv.ParseUint(string(buf), 10, 64)
	return id
}

// Issue 34 item 3: every runner of the pipeline handles the live messages
// on one goroutine of its own for the pipeline's lifetime. Before, the
// pipeline's handler started a goroutine per runner per message (nine a
// bulletin in serve), whose stack grew again through SQLite's deep frames
// every time (runtime.newstack ≈ 0.10 s of the hall's bulletin phase). And
// once the pipeline stops, none of its goroutines is left.
func TestIssue34_UnFilParLecturePourToutLeDirect(t *testing.T) {
	for _, c := range []struct {
		nom      string
		lectures int
		messages int
	}{
		{"une lecture", 1, 12},
		{"neuf lectures, comme serve", 9, 12},
	} {
		t.Run(c.nom, func(t *testing.T) {
			avant := runtime.NumGoroutine()
			f := newFixture(t)
			mu, vus := &sync.Mutex{}, map[string]map[uint64]uint64{}
			var runners []*projection.Runner
			for i := range c.lectures {
				p := fil{name: fmt.Sprint("fil_", i), mu: mu, vus: vus}
				vus[p.name] = map[uint64]uint64{}
				runners = append(runners, f.runner(t, p))
			}
			ctx, cancel := context.WithCancel(context.Background())
			ready, done := make(chan struct{}), make(chan error, 1)
			go func() { done <- pipeline.Run(ctx, f.store, runners, pipeline.Config{}, ready) }()
			<-ready
			for i := range c.messages {
				position := f.append(t, fmt.Sprint(i))
				for _, r := range runners {
					require.NoError(t, r.Attendre(ctx, position))
				}
			}
			cancel()
			require.NoError(t, <-done)

			mu.Lock()
			for _, r := range runners {
				fils := map[uint64]bool{}
				for _, g := range vus[r.Name()] {
					fils[g] = true
				}
				assert.Len(t, vus[r.Name()], c.messages, "projection %s applied every message", r.Name())
				assert.Len(t, fils, 1, "projection %s: goroutines its %d messages were applied on", r.Name(), c.messages)
			}
			mu.Unlock()
			f.close(t)
			// Goroutines that were told to stop may take a moment to end.
			for deadline := time.Now().Add(5 * time.Second); runtime.NumGoroutine() > avant && time.Now().Before(deadline); {
				time.Sleep(10 * time.Millisecond)
			}
			assert.LessOrEqual(t, runtime.NumGoroutine(), avant, "every goroutine of the pipeline ended")
		})
	}
}

// neLitQue is a tally that reads the events of type lu only and ignores
// the others, as the classique standings and cotes and the history do
// (projection.Selectif).
type neLitQue struct {
	tally
	lu string
}

func (p neLitQue) Lit(typ string) bool { return typ == p.lu }

func (p neLitQue) Apply(ctx context.Context, tx *sql.Tx, e eventstore.Event) error {
	if !p.Lit(e.Type) {
		return nil
	}
	return p.tally.Apply(ctx, tx, e)
}

// Issue 34 item 3: a read model that passes the events it does not read
// without writing its checkpoint (projection.Runner.Consigner) writes the
// one it reached when the pipeline stops cleanly: its database is then a
// rebuild's, checkpoint included, and the next start-up catches up from
// there; while it ran, its reads waited for the position it reached.
func TestIssue34_ArretPropreEcritLePointAtteint(t *testing.T) {
	f := newFixture(t)
	p := neLitQue{tally: newTally("classement"), lu: "test.lu"}
	runners := []*projection.Runner{f.runner(t, p), f.runner(t, newTally("parties"))}
	ctx, cancel := context.WithCancel(context.Background())
	ready, done := make(chan struct{}), make(chan error, 1)
	go func() { done <- pipeline.Run(ctx, f.store, runners, pipeline.Config{}, ready) }()
	<-ready
	var last uint64
	for i, typ := range []string{"test.lu", "test.coup", "test.coup", "test.lu", "test.coup", "test.coup", "test.coup"} {
		res, err := f.store.Append(ctx, "partie-1", eventstore.Any,
			eventstore.EventData{ID: uuid.New(), Type: typ, Version: 1, Data: []byte(fmt.Sprint(i))})
		require.NoError(t, err)
		last = res.Position
		for _, r := range runners {
			require.NoError(t, r.Attendre(ctx, last))
		}
	}
	cancel()
	require.NoError(t, <-done)
	for _, r := range runners {
		cp, err := r.Checkpoint(context.Background())
		require.NoError(t, err)
		assert.Equal(t, last, cp, "projection %s", r.Name())
	}
	assert.Equal(t, freshRebuild(t, f.store, p, newTally("parties")), dump(t, f.db))

	f.append(t, "8")
	runners = []*projection.Runner{f.runner(t, p), f.runner(t, newTally("parties"))}
	runPipeline(t, f, pipeline.Config{}, runners...)
	for _, r := range runners {
		assert.Equal(t, last+1, r.Position(), "projection %s caught up", r.Name())
	}
}
