package standings

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/engine/correction"
)

// Issue 16, item 10: a row of a player's decisions, written by hand, is
// valid JSON that reads back to the same decisions, whatever the values.
func TestDecisions_LigneRelueALIdentique(t *testing.T) {
	for _, d := range []decisionsJoueur{
		{},
		{1: {paid: 28, sanction: correction.None, raisons: `[]`}},
		{3: {paid: -5, sanction: correction.Penalty, discipline: 2, averageCap: 30, raisons: `["SCORE_WRONG","LATE"]`},
			1: {sanction: `é"\` + "\x01", raisons: `null`}, 22: {paid: 86, sanction: correction.Warning, raisons: `["DISCIPLINE"]`}},
	} {
		ligne := d.encoder()
		require.True(t, json.Valid(ligne), string(ligne))
		relue, err := decoderDecisions(string(ligne))
		require.NoError(t, err)
		assert.Equal(t, d, relue, string(ligne))
	}
}

// Issue 16, item 10: most decisions are "none" without reasons, and a row
// leaves both out (half the bytes a rebuild writes and commits); rows
// written before, with them, read the same.
func TestDecisions_LigneSansLesValeursCourantes(t *testing.T) {
	d := decisionsJoueur{1: {paid: 28, sanction: correction.None, raisons: `[]`}, 2: {paid: 0, sanction: correction.Zero, raisons: `["WORD_NOT_ADMITTED"]`},
		3: {paid: 14, sanction: correction.None, raisons: `null`}, 4: {sanction: "", raisons: `[]`}}
	assert.Equal(t, `[{"c":1,"p":28},{"c":2,"p":0,"s":"zero","r":["WORD_NOT_ADMITTED"]},{"c":3,"p":14,"r":null},{"c":4,"p":0,"s":""}]`, string(d.encoder()))
	ancienne, err := decoderDecisions(`[{"c":1,"p":28,"s":"none","r":[]},{"c":2,"p":0,"s":"zero","r":["WORD_NOT_ADMITTED"]},{"c":3,"p":14,"s":"none","r":null},{"c":4,"p":0,"s":"","r":[]}]`)
	require.NoError(t, err)
	assert.Equal(t, d, ancienne)
}

// The reasons of a decision are kept as encoding/json writes them (§5.8:
// they tell a disciplinary avertissement from the bulletin's own warning);
// the decisions without any are written without it.
func TestRaisons_CommeEncodingJSON(t *testing.T) {
	for _, reasons := range [][]correction.Reason{nil, {}, {"SCORE_WRONG"}, {"a", "b\"c"}} {
		want, err := json.Marshal(reasons)
		require.NoError(t, err)
		got, err := enJSON(reasons)
		require.NoError(t, err)
		assert.Equal(t, string(want), got, "%#v", reasons)
	}
}
