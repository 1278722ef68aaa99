package projection_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/eventstore"
	"arbitre/projections/feed"
	"arbitre/projections/projection"
)

// nonChaine is a store that does not chain its events (EventStoreDB): the
// SQLite store seen without its hashes.
type nonChaine struct{ eventstore.Reader }

func sansHash(events []eventstore.Event, err error) ([]eventstore.Event, error) {
	for i := range events {
		events[i].Hash = nil
	}
	return events, err
}

func (s nonChaine) ReadAll(ctx context.Context, from uint64, limit int) ([]eventstore.Event, error) {
	return sansHash(s.Reader.ReadAll(ctx, from, limit))
}

func (s nonChaine) ReadAllAfter(ctx context.Context, after uint64, limit int) ([]eventstore.Event, error) {
	return sansHash(s.Reader.ReadAllAfter(ctx, after, limit))
}

func (s nonChaine) ReadStream(ctx context.Context, stream string, from uint64, limit int) ([]eventstore.Event, error) {
	return sansHash(s.Reader.ReadStream(ctx, stream, from, limit))
}

// Review of s12-avance: on a store that does not chain its events
// (EventStoreDB: Event.Hash is nil), a runner writes its checkpoint with an
// empty hash (the column is NOT NULL; before, the nil hash was bound as
// NULL and every batch failed), and the checkpoint it keeps is the one its
// write finds (hashStocke): its batches read no checkpoint either.
func TestRevue12_PointDeRepriseSurUnMagasinNonChaine(t *testing.T) {
	s := salleComptee(t, 0)
	store := nonChaine{s.store}
	r, err := projection.NewRunner(context.Background(), s.db, releve("nonchaine"), store)
	require.NoError(t, err)
	r.Avance = projection.NewAvance(store, nil)
	livrer := func(p int) {
		events, err := store.ReadAllAfter(context.Background(), uint64(p-1), 1)
		require.NoError(t, err)
		msg, err := feed.NewMessage(events[0], uint64(p-1))
		require.NoError(t, err)
		l, err := feed.Livrer(msg)
		require.NoError(t, err)
		require.NoError(t, r.Recevoir(context.Background(), l), "message %d", p)
	}
	s.ajouter(t, 1)
	livrer(1)
	avant := lecturesDePoints.Load()
	for p := 2; p <= 6; p++ {
		s.ajouter(t, 1)
		livrer(p)
	}
	assert.Zero(t, lecturesDePoints.Load()-avant, "checkpoint reads for 5 batches")
	var n int
	require.NoError(t, s.db.QueryRow(`SELECT COUNT(*) FROM nonchaine`).Scan(&n))
	assert.Equal(t, 6, n)
	cp, err := r.Checkpoint(context.Background())
	require.NoError(t, err)
	assert.EqualValues(t, 6, cp)
}
