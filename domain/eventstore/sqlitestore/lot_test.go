package sqlitestore_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/eventstoretest"
	"arbitre/domain/eventstore/integrity"
	"arbitre/domain/eventstore/sqlitestore"
)

// Issue 17 (classique at federation scale): a simulated round's matches
// are saved in batches, one transaction each; a batch is written whole, in
// its order, or not at all.
func TestAppendLot_ToutOuRien(t *testing.T) {
	ctx := context.Background()
	evts := eventstoretest.Events(8)
	lot := func(second eventstore.ExpectedRevision, extra ...eventstore.EventData) []eventstore.BatchPart {
		return []eventstore.BatchPart{
			{Stream: "match-a", Expected: eventstore.NoStream, Events: evts[2:4]},
			{Stream: "match-b", Expected: second, Events: append(evts[4:6:6], extra...)},
			{Stream: "match-c", Expected: eventstore.NoStream, Events: evts[6:8]},
		}
	}
	tests := []struct {
		name  string
		ajout []eventstore.BatchPart
		code  eventstore.Code // "" when the batch is written
	}{
		{"every part fits", lot(eventstore.Exact(0)), ""},
		{"the second part conflicts", lot(eventstore.NoStream), eventstore.CodeConflict},
		{"the second part is invalid", lot(eventstore.Exact(0), eventstore.EventData{}), eventstore.CodeInvalidEvent},
		{"an id already stored elsewhere", lot(eventstore.Exact(0), evts[0]), eventstore.CodeDuplicateEventID},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store := openTemp(t, eventstoretest.NewStepClock(eventstoretest.Epoch))
			_, err := store.Append(ctx, "match-0", eventstore.NoStream, evts[0])
			require.NoError(t, err)
			_, err = store.Append(ctx, "match-b", eventstore.NoStream, evts[1])
			require.NoError(t, err)

			res, err := store.AppendBatch(ctx, tt.ajout)
			log, rerr := store.ReadAll(ctx, 1, 100)
			require.NoError(t, rerr)
			if tt.code != "" {
				require.Error(t, err)
				assert.Equal(t, tt.code, eventstore.CodeOf(err))
				assert.Nil(t, res)
				assert.Len(t, log, 2, "nothing of the batch is written")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, []eventstore.AppendResult{{Revision: 1, Position: 4}, {Revision: 2, Position: 6}, {Revision: 1, Position: 8}}, res)
			var streams []string
			for _, e := range log {
				streams = append(streams, e.Stream)
			}
			assert.Equal(t, []string{"match-0", "match-b", "match-a", "match-a", "match-b", "match-b", "match-c", "match-c"}, streams)
			report, err := integrity.Verify(ctx, store, integrity.VerifyOptions{GaplessPositions: true, Chained: true})
			require.NoError(t, err)
			assert.True(t, report.OK(), "%v", report.Problems)

			again, err := store.AppendBatch(ctx, tt.ajout)
			require.NoError(t, err, "the same batch again is an idempotent retry")
			assert.Equal(t, res, again)
			last, err := store.LastPosition(ctx)
			require.NoError(t, err)
			assert.Equal(t, uint64(8), last)
		})
	}
}

// Issue 34: a write transaction reads the log's last event once and each
// append moves it on; an append whose checks pass is told to be a retry by
// its first id at the insert. A retry between two new appends of one
// transaction writes nothing, answers its original result, and the next
// append chains to the one before it.
func TestIssue34_RenvoiEntreDeuxAjoutsDUnLot(t *testing.T) {
	ctx := context.Background()
	evts := eventstoretest.Events(5)
	store := openTemp(t, eventstoretest.NewStepClock(eventstoretest.Epoch))
	_, err := store.Append(ctx, "match-a", eventstore.NoStream, evts[0])
	require.NoError(t, err)
	stored, err := store.Append(ctx, "match-b", eventstore.NoStream, evts[1], evts[2])
	require.NoError(t, err)

	res, err := store.AppendBatch(ctx, []eventstore.BatchPart{
		{Stream: "match-a", Expected: eventstore.Any, Events: evts[3:4]},
		{Stream: "match-b", Expected: eventstore.Any, Events: evts[1:3]},
		{Stream: "match-c", Expected: eventstore.NoStream, Events: evts[4:5]},
	})
	require.NoError(t, err)
	assert.Equal(t, []eventstore.AppendResult{{Revision: 1, Position: 4}, stored, {Revision: 0, Position: 5}}, res)
	report, err := integrity.Verify(ctx, store, integrity.VerifyOptions{GaplessPositions: true, Chained: true})
	require.NoError(t, err)
	assert.True(t, report.OK(), "%v", report.Problems)
	assert.Equal(t, uint64(5), report.LastPosition)
}

var _ eventstore.Batches = (*sqlitestore.Store)(nil)
