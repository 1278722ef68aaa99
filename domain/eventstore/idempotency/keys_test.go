package idempotency

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/eventstore"
)

// lecturesRetenues is a log whose first read waits for suite, and which
// counts its reads.
type lecturesRetenues struct {
	eventstore.Reader
	lectures atomic.Int32
	suite    chan struct{}
}

func (l *lecturesRetenues) ReadAllAfter(ctx context.Context, after uint64, limit int) ([]eventstore.Event, error) {
	if l.lectures.Add(1) == 1 {
		<-l.suite
	}
	return nil, nil
}

// Issue 34: a hall's arbiters send their commands at the same instant; a
// command that waited for the index while another caught up does not read
// the log again when a catch-up began after it arrived (that one read
// every command acknowledged before it). Three commands: the first reads,
// the two that arrive during its read wait; the first of them to go reads
// again (its read began after both arrived), the last reads nothing.
func TestIssue34_ClesRattrapeesUneFoisPourLesCommandesQuiAttendent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		log := &lecturesRetenues{suite: make(chan struct{})}
		cles := NewKeys(log)
		c := Command{ID: "m-1", Author: "jeton:a", Request: "deposer:1"}
		var wg sync.WaitGroup
		wg.Go(func() { assert.NoError(t, cles.Check(ctx, c)) })
		synctest.Wait()
		require.EqualValues(t, 1, log.lectures.Load())
		for range 2 {
			wg.Go(func() { assert.NoError(t, cles.Check(ctx, c)) })
		}
		synctest.Wait()
		close(log.suite)
		wg.Wait()
		assert.EqualValues(t, 2, log.lectures.Load())
	})
}
