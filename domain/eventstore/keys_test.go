package eventstore_test

import (
	"context"
	"testing"

	"arbitre/domain/eventstore"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// keyed is an event of stream caused by the client id of actor for the
// request fingerprinted requete.
func keyed(pos uint64, stream, actor, id, requete string) eventstore.Event {
	return eventstore.Event{Position: pos, Stream: stream, Type: "t",
		Metadata: eventstore.Metadata{Actor: actor, CausationID: id, Requete: requete}}
}

// Issue 11, item 9: a client id is bound to its first request in the whole
// log, not only in the stream a retry writes to.
func TestSecurite_ClesDeToutLeJournal(t *testing.T) {
	log := &logReader{
		keyed(1, "partie-A", "jeton:1", "k1", "tirer:aaa"),
		keyed(2, "partie-A", "jeton:1", "", "tirer:bbb"),
		keyed(3, "partie-A", "jeton:1", "k-ancien", ""),
	}
	cles := eventstore.NewCles(log)
	tests := []struct {
		name string
		cmd  eventstore.Commande
		err  error
	}{
		{"the same request again (a retry)", eventstore.Commande{ID: "k1", Auteur: "jeton:1", Requete: "tirer:aaa"}, nil},
		{"another request under the key, any stream", eventstore.Commande{ID: "k1", Auteur: "jeton:1", Requete: "tirer:ccc"}, eventstore.ErrCleReutilisee},
		{"the same id from another token", eventstore.Commande{ID: "k1", Auteur: "jeton:2", Requete: "tirer:ccc"}, nil},
		{"a new id", eventstore.Commande{ID: "k2", Auteur: "jeton:1", Requete: "tirer:ccc"}, nil},
		{"no client id", eventstore.Commande{Auteur: "jeton:1", Requete: "tirer:ccc"}, nil},
		{"a key recorded before fingerprints", eventstore.Commande{ID: "k-ancien", Auteur: "jeton:1", Requete: "tirer:ccc"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.ErrorIs(t, cles.Verifier(context.Background(), tt.cmd), tt.err)
			if tt.err == nil {
				assert.NoError(t, cles.Verifier(context.Background(), tt.cmd))
			}
		})
	}
	// An event appended after the index was read is seen by the next check.
	*log = append(*log, keyed(4, "partie-B", "jeton:1", "k2", "rejeter:ddd"))
	require.ErrorIs(t, cles.Verifier(context.Background(), eventstore.Commande{ID: "k2", Auteur: "jeton:1", Requete: "tirer:ccc"}),
		eventstore.ErrCleReutilisee)
	var nul *eventstore.Cles
	assert.NoError(t, nul.Verifier(context.Background(), eventstore.Commande{ID: "k1", Auteur: "jeton:1", Requete: "x"}))
}
