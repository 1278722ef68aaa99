package projectiontest_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/eventstoretest"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/projections/feed"
	"arbitre/projections/pipeline"
	"arbitre/projections/projection"
	"arbitre/projections/projection/projectiontest"

	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func newStore(t *testing.T) *sqlitestore.Store {
	t.Helper()
	store, err := sqlitestore.OpenDir(context.Background(), t.TempDir(), sqlitestore.Options{Clock: eventstoretest.NewStepClock(eventstoretest.Epoch)})
	require.NoError(t, err)
	t.Cleanup(func() { store.Close() })
	return store
}

func newRunner(t *testing.T, store eventstore.Reader) (*projection.Runner, *sql.DB) {
	t.Helper()
	db, err := projection.OpenDB(filepath.Join(t.TempDir(), projection.FileName))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	r, err := projection.NewRunner(context.Background(), db, projectiontest.Projection{}, store)
	require.NoError(t, err)
	return r, db
}

func dump(t *testing.T, db *sql.DB) string {
	t.Helper()
	out, err := projection.Dump(context.Background(), db)
	require.NoError(t, err)
	return string(out)
}

func appendN(t *testing.T, store eventstore.Store, stream string, n int) eventstore.AppendResult {
	t.Helper()
	res, err := store.Append(context.Background(), stream, eventstore.Any, eventstoretest.Events(n)...)
	require.NoError(t, err)
	return res
}

func TestLiveArchiveThroughWatermillEqualsRebuild(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	store := newStore(t)
	appendN(t, store, "partie-1", 5) // history before the pipeline starts
	live, liveDB := newRunner(t, store)

	runCtx, stop := context.WithCancel(ctx)
	ready := make(chan struct{})
	done := make(chan error, 1)
	go func() { done <- pipeline.Run(runCtx, store, []*projection.Runner{live}, pipeline.Config{}, ready) }()
	<-ready
	appendN(t, store, "appel-7", 2)
	appendN(t, store, "partie-1", 3)
	last := appendN(t, store, "essai", 4)
	require.Eventually(t, func() bool {
		cp, err := live.Checkpoint(ctx)
		return err == nil && cp == last.Position
	}, 10*time.Second, 5*time.Millisecond, "the live projection reaches the head")
	stop()
	require.NoError(t, <-done)

	streams, err := projectiontest.Streams(ctx, liveDB)
	require.NoError(t, err)
	require.Len(t, streams, 3)
	assert.Equal(t, projectiontest.Stream{Name: "appel-7", Kind: "appel", Events: 2, LastRevision: 1,
		FirstRecordedAt: eventstoretest.Epoch.Add(time.Millisecond), LastRecordedAt: eventstoretest.Epoch.Add(time.Millisecond)}, streams[0])
	assert.Equal(t, projectiontest.KindOther, streams[1].Kind)
	assert.Equal(t, projectiontest.Stream{Name: "partie-1", Kind: "partie", Events: 8, LastRevision: 7,
		FirstRecordedAt: eventstoretest.Epoch, LastRecordedAt: eventstoretest.Epoch.Add(2 * time.Millisecond)}, streams[2])
	types, err := projectiontest.EventTypes(ctx, liveDB)
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"test.coup": 14}, types)

	rebuilt, rebuiltDB := newRunner(t, store)
	n, err := rebuilt.Rebuild(ctx, nil)
	require.NoError(t, err)
	assert.Equal(t, 14, n)
	assert.Equal(t, dump(t, liveDB), dump(t, rebuiltDB), "rebuild is byte-identical to the live projection")

	// Issue 16, item 10: counted in memory and written once, the same rows.
	folded, foldedDB := newRunner(t, store)
	n, err = projection.RebuildAll(ctx, store, nil, []*projection.Runner{folded}, nil)
	require.NoError(t, err)
	assert.Equal(t, 14, n)
	assert.Equal(t, dump(t, liveDB), dump(t, foldedDB), "the rebuild folded in memory is byte-identical")
}

func TestRunnerSkipsEventsAtOrBeforeItsCheckpoint(t *testing.T) {
	ctx := context.Background()
	store := newStore(t)
	appendN(t, store, "match-1", 10)
	r, db := newRunner(t, store)
	events, err := store.ReadAll(ctx, 0, 100)
	require.NoError(t, err)

	n, err := r.Apply(ctx, events[:6])
	require.NoError(t, err)
	assert.Equal(t, 6, n)
	before := dump(t, db)
	n, err = r.Apply(ctx, events[:6])
	require.NoError(t, err)
	assert.Equal(t, 0, n, "a redelivered batch applies nothing")
	assert.Equal(t, before, dump(t, db))
	n, err = r.Apply(ctx, events[3:])
	require.NoError(t, err)
	assert.Equal(t, 4, n, "an overlapping batch applies only the new events")
	cp, err := r.Checkpoint(ctx)
	require.NoError(t, err)
	assert.Equal(t, uint64(10), cp)
}

func TestRunnerMessagesAreIdempotentAndGapsAreFilledFromTheStore(t *testing.T) {
	ctx := context.Background()
	store := newStore(t)
	appendN(t, store, "tournoi-1", 1)
	r, _ := newRunner(t, store)
	deliver := func(i int, previous uint64) {
		events, err := store.ReadAll(ctx, 0, 100)
		require.NoError(t, err)
		msg, err := feed.NewMessage(events[i], previous)
		require.NoError(t, err)
		l, err := feed.Livrer(msg)
		require.NoError(t, err)
		require.NoError(t, r.Recevoir(ctx, l))
	}
	checkpoint := func() uint64 {
		cp, err := r.Checkpoint(ctx)
		require.NoError(t, err)
		return cp
	}
	deliver(0, 0)
	assert.Equal(t, uint64(1), checkpoint())
	appendN(t, store, "tournoi-1", 1)
	deliver(1, 1)
	assert.Equal(t, uint64(2), checkpoint())
	deliver(1, 1)
	assert.Equal(t, uint64(2), checkpoint(), "a duplicate is ignored")
	appendN(t, store, "tournoi-1", 4)
	deliver(4, 4) // positions 3 and 4 were lost in transit
	assert.Equal(t, uint64(6), checkpoint(), "the runner caught up from the store to the head")

	etranger := message.NewMessage("m-1", []byte("not json"))
	etranger.Metadata.Set(feed.MetaPosition, "7")
	etranger.Metadata.Set(feed.MetaPreviousPosition, "6")
	l, err := feed.Livrer(etranger)
	require.NoError(t, err)
	_, err = l.Event()
	assert.ErrorIs(t, err, eventstore.ErrMalformedPayload, "a foreign message is refused with a typed error")
}
