package projection_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"arbitre/domain/eventstore"
	"arbitre/projections/projection"

	"github.com/stretchr/testify/require"
)

// rien is a read model that keeps nothing: a batch costs its runner's
// transaction and checkpoint alone.
type rien struct{}

func (rien) Name() string                                           { return "rien" }
func (rien) Setup(context.Context, *sql.Tx) error                   { return nil }
func (rien) Reset(context.Context, *sql.Tx) error                   { return nil }
func (rien) Apply(context.Context, *sql.Tx, eventstore.Event) error { return nil }

// BenchmarkIssue34_LotDUnEvenement applies one event at a time, as a read
// model folds a hall's burst of bulletins in small batches (issue 34):
// what each batch costs besides the read model's own statements.
func BenchmarkIssue34_LotDUnEvenement(b *testing.B) {
	ctx := context.Background()
	db, err := projection.OpenDB(filepath.Join(b.TempDir(), "p.db"))
	require.NoError(b, err)
	defer db.Close()
	r, err := projection.NewRunner(ctx, db, rien{}, nil)
	require.NoError(b, err)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if n, err := r.Apply(ctx, []eventstore.Event{{Position: uint64(i) + 1, Stream: "partie-1", Type: "duplicate.bulletin_depose", Hash: []byte{1}}}); err != nil || n != 1 {
			b.Fatal(n, err)
		}
	}
}
