package eventstoretest

import (
	"testing"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/streamname"

	"github.com/stretchr/testify/require"
)

// EachType returns an event of every type reg holds in each of streams,
// each given by its kind and id (streamname.StreamName), its payload the type's zero value ("{}") at the type's current version,
// at positions 1, 2, ...: what a read model's test feeds it, one at a
// time, to check that it folds only the types it says it reads
// (projection.Selectif).
func EachType(t testing.TB, reg *eventstore.Registry, streams ...[2]string) []eventstore.Event {
	t.Helper()
	names := make([]string, len(streams))
	for i, s := range streams {
		var err error
		names[i], err = streamname.StreamName(streamname.StreamKind(s[0]), s[1])
		require.NoError(t, err)
	}
	var out []eventstore.Event
	for _, typ := range reg.Types() {
		version, err := reg.CurrentVersion(typ)
		require.NoError(t, err)
		for _, stream := range names {
			out = append(out, eventstore.Event{Stream: stream, Type: typ, Version: version, Data: []byte("{}"),
				Position: uint64(len(out) + 1)})
		}
	}
	return out
}
