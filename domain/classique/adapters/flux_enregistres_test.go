package adapters_test

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/classique/adapters"
	"arbitre/domain/classique/matchclassique"
	"arbitre/domain/eventstore"
	"arbitre/engine/lexicon/libre"
)

// evenementEnregistre is one line of a stored log: an event as the store
// keeps it.
type evenementEnregistre struct {
	ID      uuid.UUID       `json:"id"`
	Stream  string          `json:"stream"`
	Type    string          `json:"type"`
	Version int             `json:"version"`
	Data    json.RawMessage `json:"data"`
}

// TestUnNomParChose_FluxEnregistresSeRechargent: issue 33 item 4 renames
// the classique aggregates' Go packages and types, never what is stored.
// testdata/flux-classique-v1.jsonl was written by the code of commit
// baaba2a, before the renames, and is never regenerated: a simulated
// tournament (3 players, 2 rounds, seed 7) and a tournament that writes
// every other event type (amended pairing, contestation, penalty, time out,
// refused abandon, disagreement, a result entered then corrected, a
// withdrawal). Every event still decodes under its type name and encodes
// back to the same JSON, and both tournaments and their matches load.
func TestUnNomParChose_FluxEnregistresSeRechargent(t *testing.T) {
	ctx, store, reg := ouvrirStore(t)
	f, err := os.Open("testdata/flux-classique-v1.jsonl")
	require.NoError(t, err)
	defer f.Close()
	var log []evenementEnregistre
	types := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e evenementEnregistre
		require.NoError(t, json.Unmarshal(sc.Bytes(), &e))
		log = append(log, e)
		types[e.Type] = true
	}
	require.NoError(t, sc.Err())
	require.Len(t, types, 24, "every classique event type is in the log")

	for i := 0; i < len(log); {
		var lot []eventstore.EventData
		j := i
		for ; j < len(log) && log[j].Stream == log[i].Stream; j++ {
			e := log[j]
			payload, err := reg.Decode(eventstore.Event{ID: e.ID, Stream: e.Stream, Type: e.Type, Version: e.Version, Data: e.Data})
			require.NoError(t, err, "%s", e.Type)
			data, err := reg.NewEventData(e.ID, payload, eventstore.Metadata{})
			require.NoError(t, err, "%s", e.Type)
			assert.Equal(t, e.Type, data.Type)
			assert.Equal(t, e.Version, data.Version)
			assert.JSONEq(t, string(e.Data), string(data.Data), "%s encodes back as stored", e.Type)
			lot = append(lot, eventstore.EventData{ID: e.ID, Type: e.Type, Version: e.Version, Data: e.Data})
		}
		_, err := store.Append(ctx, log[i].Stream, eventstore.Any, lot...)
		require.NoError(t, err)
		i = j
	}

	lex, err := libre.Lexicon()
	require.NoError(t, err)
	regles, err := matchclassique.NewRegles(lex)
	require.NoError(t, err)
	matchs := adapters.NewMatchs(store, reg, regles)
	tournois := adapters.NewTournois(store, reg)
	for _, tt := range []struct {
		id               string
		inscrits, matchs int
	}{
		{id: "simule", inscrits: 3, matchs: 2},
		{id: "saisi", inscrits: 4, matchs: 1},
	} {
		tr, err := tournois.Charger(ctx, tt.id)
		require.NoError(t, err, tt.id)
		assert.True(t, tr.Clos(), tt.id)
		assert.Len(t, tr.Inscrits(), tt.inscrits, tt.id)
		joues := 0
		for _, pub := range tr.Publiees() {
			for _, tb := range pub.Tables {
				res, ok := tr.Resultat(tb.Match)
				require.True(t, ok, "%s: result of %s", tt.id, tb.Match)
				if res.Correction != "" {
					continue // entered from the paper sheet: no match stream
				}
				p, err := matchs.Charger(ctx, tb.Match)
				require.NoError(t, err, tb.Match)
				feuille, ok := p.Feuille()
				require.True(t, ok, tb.Match)
				assert.Equal(t, res.Scores, feuille.Scores, tb.Match)
				joues++
			}
		}
		assert.Equal(t, tt.matchs, joues, tt.id)
	}
}
