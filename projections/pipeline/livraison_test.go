package pipeline_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"arbitre/domain/eventstore"
	"arbitre/projections/pipeline"
	"arbitre/projections/projection"
)

// temoin is a projection that notes where the payload of each event it
// applies lies in memory: read models handed one decoded event see the
// same bytes.
type temoin struct {
	name string
	mu   *sync.Mutex
	vus  map[uint64][]*byte
}

func (p temoin) Name() string                         { return p.name }
func (p temoin) Setup(context.Context, *sql.Tx) error { return nil }
func (p temoin) Reset(context.Context, *sql.Tx) error { return nil }
func (p temoin) Apply(_ context.Context, _ *sql.Tx, e eventstore.Event) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.vus[e.Position] = append(p.vus[e.Position], unsafe.SliceData(e.Data))
	return nil
}

// Issue 34 item 3: a message the feed delivers is decoded once, and its
// event handed to every read model behind it (each decoded it again).
func TestIssue34_MessageDecodeUneFoisPourToutesLesLectures(t *testing.T) {
	f := newFixture(t)
	mu, vus := &sync.Mutex{}, map[uint64][]*byte{}
	var runners []*projection.Runner
	for i := range 3 {
		runners = append(runners, f.runner(t, temoin{name: fmt.Sprint("temoin_", i), mu: mu, vus: vus}))
	}
	runPipeline(t, f, pipeline.Config{}, runners...)
	position := f.append(t, `{"coup":1}`)
	for _, r := range runners {
		require.NoError(t, r.Attendre(context.Background(), position))
	}
	mu.Lock()
	defer mu.Unlock()
	require.Len(t, vus[position], 3)
	for _, vu := range vus[position][1:] {
		require.Same(t, vus[position][0], vu, "one decoded event for every read model")
	}
}

// BenchmarkIssue34_UnMessageNeufLectures appends one bulletin (about 600
// bytes) at a time to a pipeline of nine read models, as many as serve
// runs, and waits until each has applied it: every read model is behind
// every message.
func BenchmarkIssue34_UnMessageNeufLectures(b *testing.B) {
	neufLectures(b, func(*fixture) *projection.Avance { return nil },
		func(i int) projection.Projection { return newTally(fmt.Sprint("lecture_", i)) }, "duplicate.bulletin_depose")
}

// neufLectures appends one event of type typ (about 600 bytes) at a time
// to a pipeline of nine read models (lecture(0) to lecture(8)), as many as
// serve runs, sharing the read-ahead avance gives (nil: none), and waits
// until each has applied it.
func neufLectures(b *testing.B, avance func(*fixture) *projection.Avance, lecture func(int) projection.Projection, typ string) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f := &fixture{dir: b.TempDir()}
	f.open(b)
	partagee := avance(f)
	var runners []*projection.Runner
	for i := range 9 {
		r, err := projection.NewRunner(ctx, f.db, lecture(i), f.store)
		require.NoError(b, err)
		if partagee != nil {
			r.Avance = partagee
		}
		runners = append(runners, r)
	}
	ready := make(chan struct{})
	done := make(chan error, 1)
	go func() { done <- pipeline.Run(ctx, f.store, runners, pipeline.Config{}, ready) }()
	<-ready
	data := json.RawMessage(`{"coup":7,"licence":"` + strings.Repeat("0", 8) + `","mot":"EXEMPLAIRE","ref":"H4","score":98,"chrono":"` + strings.Repeat("x", 420) + `"}`)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		res, err := f.store.Append(ctx, "partie-1", eventstore.Any, eventstore.EventData{ID: uuid.New(), Type: typ, Version: 1, Data: data,
			Metadata: eventstore.Metadata{Actor: "arbitre-1", CorrelationID: uuid.NewString()}})
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range runners {
			if err := r.Attendre(ctx, res.Position); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.StopTimer()
	cancel()
	require.NoError(b, <-done)
}
