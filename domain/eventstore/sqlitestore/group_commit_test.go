package sqlitestore

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/eventstoretest"
	"arbitre/domain/eventstore/integrity"
)

// Issue 17, group commit: appends that wait for the write lock together
// are written by one holder in one transaction; each is acknowledged with
// its own result, and one that fails (its expected revision, its guard, an
// id stored elsewhere) fails alone while the others are stored, in order,
// the chain and positions unbroken.
func TestGroupCommit_UnEchecNEchoueQueLui(t *testing.T) {
	ctx := context.Background()
	s, err := OpenDir(ctx, t.TempDir(), Options{Clock: eventstoretest.NewStepClock(eventstoretest.Epoch)})
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	evts := eventstoretest.Events(9)
	_, err = s.Append(ctx, "partie-g", eventstore.Any, evts[0])
	require.NoError(t, err)
	_, err = s.Append(ctx, "partie-g-table-2", eventstore.Any, evts[1])
	require.NoError(t, err)

	type demande struct {
		stream   string
		expected eventstore.ExpectedRevision
		gardes   []eventstore.Guard
		events   []eventstore.EventData
		refusee  bool
	}
	demandes := []demande{
		{stream: "partie-g-table-1", expected: eventstore.NoStream, gardes: []eventstore.Guard{{Stream: "partie-g", After: 1}}, events: evts[2:4]},
		{stream: "partie-g", expected: eventstore.NoStream, events: evts[4:5], refusee: true}, // the stream exists
		{stream: "partie-g-table-3", expected: eventstore.NoStream, gardes: []eventstore.Guard{{Stream: "partie-g", Sections: true, After: 1}},
			events: evts[5:6], refusee: true}, // table 2 moved after position 1
		{stream: "partie-g-table-4", expected: eventstore.Any, events: []eventstore.EventData{evts[1]}, refusee: true}, // id stored in table 2
		{stream: "partie-g-table-2", expected: eventstore.Exact(0), events: evts[6:8]},
		{stream: "partie-g-table-1", expected: eventstore.Exact(1), events: evts[8:9]}, // after the first of the group
	}

	// An append in progress holds the lock; the group waits for it.
	s.writeLock.Lock()
	resultats := make([]error, len(demandes))
	var wg sync.WaitGroup
	for i, d := range demandes {
		wg.Go(func() {
			_, resultats[i] = s.AppendGuarded(ctx, d.stream, d.expected, d.gardes, d.events...)
		})
		// One at a time, so that the group is written in this order.
		require.Eventually(t, func() bool {
			s.attenteMu.Lock()
			defer s.attenteMu.Unlock()
			return len(s.attente) == i+1
		}, 5*time.Second, time.Millisecond)
	}
	s.writeLock.Unlock()
	wg.Wait()

	for i, d := range demandes {
		if d.refusee {
			assert.Error(t, resultats[i], "demande %d", i)
		} else {
			assert.NoError(t, resultats[i], "demande %d", i)
		}
	}
	assert.ErrorIs(t, resultats[1], eventstore.ErrConflict)
	assert.ErrorIs(t, resultats[2], eventstore.ErrConflict)
	assert.ErrorIs(t, resultats[3], eventstore.ErrDuplicateEventID)

	tous, err := s.ReadSections(ctx, "partie-g", 0)
	require.NoError(t, err)
	var stockes, attendus []uuid.UUID
	for _, e := range tous {
		stockes = append(stockes, e.ID)
	}
	for _, i := range []int{0, 1, 2, 3, 6, 7, 8} {
		attendus = append(attendus, evts[i].ID)
	}
	assert.Equal(t, attendus, stockes, "the group's appends, in order, the refused ones absent")
	report, err := integrity.Verify(ctx, s, integrity.VerifyOptions{GaplessPositions: true})
	require.NoError(t, err)
	assert.True(t, report.OK(), "%v", report.Problems)
}
