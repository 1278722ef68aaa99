package pipeline_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"arbitre/domain/eventstore"
	"arbitre/projections/pipeline"
	"arbitre/projections/projection"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// vus is a read model in memory that records the positions it applied;
// it fails once on the payload "hoquet".
type vus struct {
	name      string
	mu        sync.Mutex
	positions []uint64
	hoquet    bool
}

func (m *vus) Name() string { return m.name }

func (m *vus) Apply(_ context.Context, e eventstore.Event) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if string(e.Data) == `"hoquet"` && !m.hoquet {
		m.hoquet = true
		return errors.New("hoquet")
	}
	m.positions = append(m.positions, e.Position)
	return nil
}

func (m *vus) lues() []uint64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.positions)
}

// Issue 33 item 6: a read model in memory runs in the pipeline as one in
// SQLite: caught up at start-up, then live, each event applied once even
// when a batch whose first events reached it is rolled back and applied
// again, and its reads catch up on demand (Rattraper).
func TestEnMemoire_UnSeulRunnerPourToutesLesLectures(t *testing.T) {
	f := newFixture(t)
	m, autre := &vus{name: "vus"}, &vus{name: "autre", hoquet: true}
	r, err := projection.NewRunnerEnMemoire(context.Background(), m, f.store)
	require.NoError(t, err)
	ra, err := projection.NewRunnerEnMemoire(context.Background(), autre, f.store)
	require.NoError(t, err)
	r.Log, ra.Log = discard(), discard()
	f.append(t, "1", "2", `"hoquet"`, "4")
	runPipeline(t, f, pipeline.Config{Retry: pipeline.Retry{Attempts: 2, First: 1}, Reprise: pipeline.Reprise{First: time.Hour, Max: time.Hour}}, r, ra)
	last := f.append(t, "5", "6")
	require.NoError(t, r.Attendre(context.Background(), last))
	require.NoError(t, ra.Attendre(context.Background(), last))
	assert.Equal(t, []uint64{1, 2, 3, 4, 5, 6}, m.lues(), "each event once, in order")
	assert.Equal(t, []uint64{1, 2, 3, 4, 5, 6}, autre.lues())

	seul := &vus{name: "seul", hoquet: true}
	rs, err := projection.NewRunnerEnMemoire(context.Background(), seul, f.store)
	require.NoError(t, err)
	require.NoError(t, rs.Rattraper(context.Background()), "a read catches up without the pipeline")
	assert.Equal(t, []uint64{1, 2, 3, 4, 5, 6}, seul.lues())
	assert.Equal(t, last, rs.Position())
}

// Two read models of one name are refused: runners are found by name.
func TestLectures_DeuxDuMemeNomRefusees(t *testing.T) {
	f := newFixture(t)
	_, err := projection.NewRunners(context.Background(), f.db, projection.Journal{Store: f.store}, newTally("a"), newTally("b"), newTally("a"))
	assert.ErrorContains(t, err, "two read models are named a")
}
