package pipeline_test

import (
	"context"
	"database/sql"
	"fmt"
	"testing"

	"arbitre/domain/eventstore"
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
	neufLectures(b, func(f *fixture) *projection.Avance { return projection.NewAvance(f.store, registreDeTest) },
		func(i int) projection.Projection { return lotQuiLit{name: fmt.Sprint("lot_", i)} }, "test.coup")
}
