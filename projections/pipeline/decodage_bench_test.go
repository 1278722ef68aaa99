package pipeline_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"arbitre/domain/eventstore"
	"arbitre/projections/pipeline"
	"arbitre/projections/projection"
)

// lotQuiLit is a read model applied in batches (projection.Batcher) that
// reads every payload and keeps nothing of it.
type lotQuiLit struct{ name string }

func (p lotQuiLit) Name() string                         { return p.name }
func (p lotQuiLit) Setup(context.Context, *sql.Tx) error { return nil }
func (p lotQuiLit) Reset(context.Context, *sql.Tx) error { return nil }
func (p lotQuiLit) Apply(ctx context.Context, tx *sql.Tx, e eventstore.Event) error {
	return p.ApplyBatch(ctx, tx, []projection.Decoded{{Event: &e}})
}

func (p lotQuiLit) ApplyBatch(_ context.Context, _ *sql.Tx, events []projection.Decoded) error {
	for _, d := range events {
		if d = d.Sinon(registreDeTest); d.Err != nil {
			return d.Err
		}
	}
	return nil
}

// BenchmarkDecodage_UnMessageNeufLots is the live fold of serve's pipeline
// (its read-ahead and decoding shared, projection.Avance) with nine read
// models applied in batches that read every payload: one event of about
// 600 bytes appended at a time, waited for by all nine.
func BenchmarkDecodage_UnMessageNeufLots(b *testing.B) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f := &fixture{dir: b.TempDir()}
	f.open(b)
	avance := projection.NewAvance(f.store, registreDeTest)
	var runners []*projection.Runner
	for i := range 9 {
		r, err := projection.NewRunner(ctx, f.db, lotQuiLit{name: fmt.Sprint("lot_", i)}, f.store)
		require.NoError(b, err)
		r.Avance = avance
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
		res, err := f.store.Append(ctx, "partie-1", eventstore.Any, eventstore.EventData{ID: uuid.New(), Type: "test.coup", Version: 1, Data: data,
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
