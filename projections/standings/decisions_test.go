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
		require.True(t, json.Valid([]byte(ligne)), ligne)
		relue, err := decoderDecisions(ligne)
		require.NoError(t, err)
		assert.Equal(t, d, relue, ligne)
	}
}
