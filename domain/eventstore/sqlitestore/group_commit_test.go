package sqlitestore

import (
	"context"
	"fmt"
	"runtime"
	"strings"
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

// Issue 34, the largest hall: the appends of a group wait for their
// group's commit, not for the write lock. Before, each append a group had
// written took the write lock in turn once the group committed, only to
// find it had nothing to write: a convoy of lock handoffs, one per append
// of the group, each waiting for its goroutine to be scheduled, during
// which the next group could not begin (docs/charge.md, séance 14). The
// test counts the appends blocked on the write lock while an append in
// progress holds it: one, the next group's writer, however many wait.
func TestIssue34_UnSeulAjoutAttendLeVerrouDEcriture(t *testing.T) {
	for _, n := range []int{2, 10, 50} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			ctx := context.Background()
			s, err := OpenDir(ctx, t.TempDir(), Options{Clock: eventstoretest.NewStepClock(eventstoretest.Epoch)})
			require.NoError(t, err)
			t.Cleanup(func() { s.Close() })
			evts := eventstoretest.Events(n)

			s.writeLock.Lock()
			erreurs := make([]error, n)
			var wg sync.WaitGroup
			for i := range n {
				wg.Go(func() {
					_, erreurs[i] = s.AppendGuarded(ctx, fmt.Sprintf("partie-v-table-%d", i+1), eventstore.NoStream, nil, evts[i])
				})
			}
			var bloques map[string]int
			require.Eventually(t, func() bool {
				bloques = ajoutsBloques()
				return bloques["select"]+bloques["sync.Mutex.Lock"] == n
			}, 5*time.Second, time.Millisecond)
			s.writeLock.Unlock()
			wg.Wait()

			assert.Equal(t, 1, bloques["sync.Mutex.Lock"], "appends waiting for the write lock: %v", bloques)
			for i, err := range erreurs {
				assert.NoError(t, err, "ajout %d", i)
			}
			fin, err := s.ReadAllAfter(ctx, 0, n+1)
			require.NoError(t, err)
			assert.Len(t, fin, n, "every append written")
		})
	}
}

// ajoutsBloques counts the goroutines blocked in AppendGuarded, by what
// they wait for (the wait reason of their goroutine's header: "select",
// "sync.Mutex.Lock", …).
func ajoutsBloques() map[string]int {
	buf := make([]byte, 1<<22)
	buf = buf[:runtime.Stack(buf, true)]
	bloques := map[string]int{}
	for _, g := range strings.Split(string(buf), "\n\n") {
		entete, pile, _ := strings.Cut(g, "\n")
		if !strings.Contains(pile, "sqlitestore.(*Store).AppendGuarded(") {
			continue
		}
		_, raison, ok := strings.Cut(entete, " [")
		if !ok {
			continue
		}
		raison, _, _ = strings.Cut(strings.TrimSuffix(raison, "]:"), ",")
		bloques[raison]++
	}
	return bloques
}
