package sqlitestore_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/eventstoretest"
	"arbitre/domain/eventstore/sqlitestore"
)

// Issue 17: a game's streams read as one, whole or on from a position, and
// appends guarded in their transaction by what the writer read of the
// other streams.
func TestSections_LectureEtGardes(t *testing.T) {
	ctx := context.Background()
	// partie-g, its tables, and neighbours that are not its tables.
	ouvrir := func(t *testing.T) (*sqlitestore.Store, []eventstore.Event) {
		store := openTemp(t, eventstoretest.NewStepClock(eventstoretest.Epoch))
		evts := eventstoretest.Events(6)
		for i, stream := range []string{"partie-g", "partie-g-table-1", "partie-g-1", "partie-g-table-2", "partie-gg-table-1", "partie-g"} {
			_, err := store.Append(ctx, stream, eventstore.Any, evts[i])
			require.NoError(t, err)
		}
		tous, err := store.ReadSections(ctx, "partie-g", 0)
		require.NoError(t, err)
		return store, tous
	}
	store, tous := ouvrir(t)
	var streams []string
	for _, e := range tous {
		streams = append(streams, e.Stream)
	}
	assert.Equal(t, []string{"partie-g", "partie-g-table-1", "partie-g-table-2", "partie-g"}, streams)
	suite, err := store.ReadSections(ctx, "partie-g", tous[1].Position)
	require.NoError(t, err)
	assert.Equal(t, tous[2:], suite, "read on from a position: the same events")

	tests := []struct {
		name   string
		stream string
		garde  eventstore.Guard
		ok     bool
	}{
		{"a table's append, game unchanged", "partie-g-table-1", eventstore.Guard{Stream: "partie-g", After: tous[3].Position}, true},
		{"a table's append, game moved", "partie-g-table-1", eventstore.Guard{Stream: "partie-g", After: tous[0].Position}, false},
		{"the game's append, tables unchanged", "partie-g", eventstore.Guard{Stream: "partie-g", Sections: true, After: tous[2].Position}, true},
		{"the game's append, a table moved", "partie-g", eventstore.Guard{Stream: "partie-g", Sections: true, After: tous[1].Position}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store, _ := ouvrir(t)
			avant, err := store.LastPosition(ctx)
			require.NoError(t, err)
			_, err = store.AppendGuarded(ctx, tt.stream, eventstore.Any, []eventstore.Guard{tt.garde}, eventstoretest.Events(7)[6])
			apres, lerr := store.LastPosition(ctx)
			require.NoError(t, lerr)
			if tt.ok {
				require.NoError(t, err)
				assert.Equal(t, avant+1, apres)
				return
			}
			assert.ErrorIs(t, err, eventstore.ErrConflict)
			assert.Equal(t, avant, apres, "nothing written")
		})
	}
}
