package pipeline_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/eventstoretest"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/projections/pipeline"
	"arbitre/projections/projection"

	"github.com/stretchr/testify/require"
)

// lagProbe is a projection that reports when each event is applied.
type lagProbe struct{ applied chan time.Time }

func (lagProbe) Name() string                         { return "lag_probe" }
func (lagProbe) Setup(context.Context, *sql.Tx) error { return nil }
func (lagProbe) Reset(context.Context, *sql.Tx) error { return nil }
func (p lagProbe) Apply(context.Context, *sql.Tx, eventstore.Event) error {
	p.applied <- time.Now()
	return nil
}

// BenchmarkPipelineLag measures, for single-event appends, the time from
// calling Append to the projection applying the event inside its
// checkpointed transaction, through the watermill gochannel; it reports the
// median and the 99th percentile.
func BenchmarkPipelineLag(b *testing.B) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := b.TempDir()
	store, err := sqlitestore.OpenDir(ctx, dir, sqlitestore.Options{})
	require.NoError(b, err)
	defer store.Close()
	db, err := projection.OpenDB(filepath.Join(dir, projection.FileName))
	require.NoError(b, err)
	defer db.Close()
	probe := lagProbe{applied: make(chan time.Time, 1)}
	runner, err := projection.NewRunner(ctx, db, probe, store)
	require.NoError(b, err)
	ready := make(chan struct{})
	done := make(chan error, 1)
	go func() { done <- pipeline.Run(ctx, store, []*projection.Runner{runner}, pipeline.Config{}, ready) }()
	<-ready
	events := eventstoretest.Events(b.N)
	lags := make([]time.Duration, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sent := time.Now()
		if _, err := store.Append(ctx, "partie-lag", eventstore.Any, events[i]); err != nil {
			b.Fatal(err)
		}
		lags[i] = (<-probe.applied).Sub(sent)
	}
	b.StopTimer()
	cancel()
	require.NoError(b, <-done)
	slices.Sort(lags)
	b.ReportMetric(float64(lags[len(lags)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lags[len(lags)*99/100].Microseconds())/1000, "p99-ms")
}
