package repository_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/eventstoretest"
	"arbitre/domain/eventstore/repository"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/domain/eventstore/streamname"
	"arbitre/domain/tournoi"
)

// TestDepot_EnregistrerLot (issue 17, classique at federation scale):
// several aggregates saved in one batch. On the SQLite store (Batches) a
// conflict on one of them writes none and leaves every one's events new; on
// a store without batches (here the SQLite store behind a wrapper that
// hides them, as EventStoreDB has none) the aggregates before the failing
// one are saved and told so.
func TestDepot_EnregistrerLot(t *testing.T) {
	tests := []struct {
		name  string
		wrap  func(eventstore.Store) eventstore.Store
		saved []bool
	}{
		{"one transaction", func(s eventstore.Store) eventstore.Store { return s }, []bool{false, false, false}},
		{"one append after the other", eventstoretest.Gapped, []bool{true, false, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			inner, err := sqlitestore.OpenDir(ctx, t.TempDir(), sqlitestore.Options{})
			require.NoError(t, err)
			t.Cleanup(func() { inner.Close() })
			store := tt.wrap(inner)
			reg := eventstore.NewRegistry()
			require.NoError(t, tournoi.RegisterEvents(reg))
			depot := repository.Repository[*tournoi.Tournoi]{Streams: repository.Streams{Store: store, Registry: reg}, New: tournoi.Nouveau}
			md := eventstore.Metadata{Actor: "directeur"}
			var streams []string
			var aggs []*tournoi.Tournoi
			for _, id := range []string{"t1", "t2", "t3"} {
				stream, err := streamname.TournoiStream(id)
				require.NoError(t, err)
				tr := tournoi.Nouveau()
				require.NoError(t, tr.Creer(id, "Open "+id, true))
				streams, aggs = append(streams, stream), append(aggs, tr)
			}
			rival := tournoi.Nouveau()
			require.NoError(t, rival.Creer("t2", "Rival", true))
			require.NoError(t, depot.Save(ctx, streams[1], rival, md))

			err = depot.SaveBatch(ctx, streams, aggs, md)
			require.ErrorIs(t, err, eventstore.ErrConflict)
			for i, a := range aggs {
				assert.Equal(t, tt.saved[i], len(a.Pending()) == 0, "aggregate %d told it is saved", i)
				relu, err := depot.Load(ctx, streams[i])
				require.NoError(t, err)
				want := 0
				if tt.saved[i] || i == 1 {
					want = 1
				}
				assert.Equal(t, want, relu.Version(), "stream %s", streams[i])
			}

			// Once the conflict is out of the way, the batch goes through.
			aggs = []*tournoi.Tournoi{aggs[0], aggs[2]}
			streams = []string{streams[0], streams[2]}
			require.NoError(t, depot.SaveBatch(ctx, streams, aggs, md))
			for i, a := range aggs {
				assert.Empty(t, a.Pending())
				relu, err := depot.Load(ctx, streams[i])
				require.NoError(t, err)
				assert.Equal(t, 1, relu.Version())
			}
		})
	}
}
