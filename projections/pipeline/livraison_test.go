package pipeline_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"runtime/metrics"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
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

// ignore is a read model that reads no event it is handed but does not
// say so, as the ones serve holds in memory (the appeals', the twinnings'
// and the tokens' indexes).
type ignore struct{ name string }

func (p ignore) Name() string                                           { return p.name }
func (p ignore) Setup(context.Context, *sql.Tx) error                   { return nil }
func (p ignore) Reset(context.Context, *sql.Tx) error                   { return nil }
func (p ignore) Apply(context.Context, *sql.Tx, eventstore.Event) error { return nil }

// BenchmarkIssue34_SalleNeufLectures is the live fold of a bulletin by
// serve's nine read models, their read-ahead and decoding shared
// (projection.Avance): three fold it (a row each), three read only other
// types and say so (projection.Selectif: the classique standings and
// cotes, the history), three read none but do not say so. One bulletin
// of about 600 bytes is appended at a time and waited for by all nine.
func BenchmarkIssue34_SalleNeufLectures(b *testing.B) {
	neufLectures(b, func(f *fixture) *projection.Avance { return projection.NewAvance(f.store, registreDeTest) },
		func(i int) projection.Projection {
			nom := fmt.Sprint("lecture_", i)
			switch i % 3 {
			case 0:
				return newTally(nom)
			case 1:
				return neLitQue{tally: newTally(nom), lu: "classique.resultat"}
			}
			return ignore{name: nom}
		}, "duplicate.bulletin_depose")
}

// neufLectures appends one event of type typ (about 600 bytes) at a time
// to a pipeline of nine read models (lecture(0) to lecture(8)), as many as
// serve runs, sharing the read-ahead avance gives (nil: none), and waits
// until each has applied it. It reports the goroutines the process
// started and the CPU it used per event.
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
	crees := []metrics.Sample{{Name: "/sched/goroutines-created:goroutines"}}
	metrics.Read(crees)
	avant, cpuAvant := crees[0].Value.Uint64(), cpu(b)
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
	metrics.Read(crees)
	b.ReportMetric(float64(crees[0].Value.Uint64()-avant)/float64(b.N), "goroutines/op")
	b.ReportMetric(float64((cpu(b)-cpuAvant).Microseconds())/float64(b.N), "cpu-µs/op")
	cancel()
	require.NoError(b, <-done)
}

// cpu is the process's CPU time so far, user and system: on a machine
// whose cores other jobs share, the bench's own cost, which its wall time
// (an fsync each append) hides.
func cpu(b *testing.B) time.Duration {
	var u syscall.Rusage
	require.NoError(b, syscall.Getrusage(syscall.RUSAGE_SELF, &u))
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
