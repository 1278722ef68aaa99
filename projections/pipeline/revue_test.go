package pipeline_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"iter"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/eventstore"
	"arbitre/projections/projection"
)

// premiereTranche is a projection.Tranches that folds the first slice of
// a transaction and stops ranging over the others, returning nil: a
// `break` or an early `return nil` in the range over the slices, an easy
// slip in an ApplyTranches.
type premiereTranche struct{ tally }

func (p premiereTranche) ApplyBatch(ctx context.Context, tx *sql.Tx, events []projection.Decoded) error {
	for _, d := range events {
		if err := p.Apply(ctx, tx, *d.Event); err != nil {
			return err
		}
	}
	return nil
}

func (p premiereTranche) ApplyTranches(ctx context.Context, tx *sql.Tx, tranches iter.Seq[[]projection.Decoded]) error {
	for t := range tranches {
		return p.ApplyBatch(ctx, tx, t)
	}
	return nil
}

// Session 11's review: with projection.Tranches the runner no longer hands
// each slice of a large batch over itself; the projection ranges over
// them. One that stops ranging early and returns nil had the whole batch
// checkpointed: the events of the slices it never saw were counted as
// applied, and are never folded again (the checkpoint is past them).
// Whatever the projection does, the checkpoint never passes an event it
// was not handed.
func TestRevue_TranchesNonToutesRemisesNAvancentPasLePointDeReprise(t *testing.T) {
	f := newFixture(t)
	n := projection.RebuildPage + 5
	lot := make([]eventstore.EventData, n)
	for i := range lot {
		lot[i] = eventstore.EventData{ID: uuid.New(), Type: "test.coup", Version: 1, Data: json.RawMessage(fmt.Sprintf(`{"Score":%d}`, i))}
	}
	_, err := f.store.Append(context.Background(), "partie-1", eventstore.Any, lot...)
	require.NoError(t, err)
	r := f.runner(t, premiereTranche{newTally("premiere")})
	events, err := f.store.ReadAll(context.Background(), 0, n)
	require.NoError(t, err)
	require.Len(t, events, n)

	applied, _ := r.Apply(context.Background(), events)
	cp, err := r.Checkpoint(context.Background())
	require.NoError(t, err)
	var plies int
	require.NoError(t, f.db.QueryRow(`SELECT COUNT(*) FROM premiere`).Scan(&plies))
	assert.Equal(t, events[plies-1].Position, cp, "the checkpoint is the last event folded (%d of %d)", plies, n)
	assert.Equal(t, plies, applied, "events said applied")
}
