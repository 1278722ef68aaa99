package eventstore_test

import (
	"context"
	"testing"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/idempotency"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// keyed is an event of stream caused by the client id of actor for the
// request fingerprinted requete.
func keyed(pos uint64, stream, actor, id, requete string) eventstore.Event {
	return eventstore.Event{Position: pos, Stream: stream, Type: "t",
		Metadata: eventstore.Metadata{Actor: actor, CausationID: id, Request: requete}}
}

// Issue 11, item 9: a client id is bound to its first request in the whole
// log, not only in the stream a retry writes to.
func TestSecurite_ClesDeToutLeJournal(t *testing.T) {
	log := &logReader{
		keyed(1, "partie-A", "jeton:1", "k1", "tirer:aaa"),
		keyed(2, "partie-A", "jeton:1", "", "tirer:bbb"),
		keyed(3, "partie-A", "jeton:1", "k-ancien", ""),
	}
	cles := idempotency.NewKeys(log)
	tests := []struct {
		name string
		cmd  idempotency.Command
		err  error
	}{
		{"the same request again (a retry)", idempotency.Command{ID: "k1", Author: "jeton:1", Request: "tirer:aaa"}, nil},
		{"another request under the key, any stream", idempotency.Command{ID: "k1", Author: "jeton:1", Request: "tirer:ccc"}, idempotency.ErrKeyReused},
		{"the same id from another token", idempotency.Command{ID: "k1", Author: "jeton:2", Request: "tirer:ccc"}, nil},
		{"a new id", idempotency.Command{ID: "k2", Author: "jeton:1", Request: "tirer:ccc"}, nil},
		{"no client id", idempotency.Command{Author: "jeton:1", Request: "tirer:ccc"}, nil},
		{"a key recorded before fingerprints", idempotency.Command{ID: "k-ancien", Author: "jeton:1", Request: "tirer:ccc"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.ErrorIs(t, cles.Check(context.Background(), tt.cmd), tt.err)
			if tt.err == nil {
				assert.NoError(t, cles.Check(context.Background(), tt.cmd))
			}
		})
	}
	// An event appended after the index was read is seen by the next check.
	*log = append(*log, keyed(4, "partie-B", "jeton:1", "k2", "rejeter:ddd"))
	require.ErrorIs(t, cles.Check(context.Background(), idempotency.Command{ID: "k2", Author: "jeton:1", Request: "tirer:ccc"}),
		idempotency.ErrKeyReused)
	var nul *idempotency.Keys
	assert.NoError(t, nul.Check(context.Background(), idempotency.Command{ID: "k1", Author: "jeton:1", Request: "x"}))
}

// liees is a log whose store binds keys (eventstore.BoundKeys): it counts
// the reads of the log and the lookups of a key.
type liees struct {
	logReader
	lectures, recherches int
}

func (l *liees) ReadAllAfter(ctx context.Context, after uint64, limit int) ([]eventstore.Event, error) {
	l.lectures++
	return l.logReader.ReadAllAfter(ctx, after, limit)
}

func (l *liees) LoadKeys(context.Context) error { return nil }

func (l *liees) KeyReused(_ context.Context, actor, id, request string) (bool, error) {
	l.recherches++
	for _, e := range l.logReader {
		if md := e.Metadata; md.Actor == actor && md.CausationID == id && md.Request != "" && md.Request != request {
			return true, nil
		}
	}
	return false, nil
}

// Issue 34 item 3: over a store that binds keys, the index reads nothing of
// the log (before, a page after the last event it saw at every command,
// and the whole log at the first): each check is the store's lookup.
func TestIssue34_ClesParLaRechercheDuMagasin(t *testing.T) {
	log := &liees{logReader: logReader{keyed(1, "partie-A", "jeton:1", "k1", "tirer:aaa")}}
	cles := idempotency.NewKeys(log)
	require.NoError(t, cles.CatchUp(context.Background()))
	assert.NoError(t, cles.Check(context.Background(), idempotency.Command{ID: "k1", Author: "jeton:1", Request: "tirer:aaa"}))
	assert.ErrorIs(t, cles.Check(context.Background(), idempotency.Command{ID: "k1", Author: "jeton:1", Request: "tirer:ccc"}), idempotency.ErrKeyReused)
	assert.NoError(t, cles.Check(context.Background(), idempotency.Command{Author: "jeton:1", Request: "tirer:ccc"}))
	assert.Zero(t, log.lectures, "reads of the log")
	assert.Equal(t, 2, log.recherches, "one lookup per command with a key")
}
