package pairing

import (
	"arbitre/domain/erreur"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The console shows why the software paired a round as it did: each
// table's rematch (if any) and who starts (§3.1), and why the bye is who it
// is. Explain says it for any pairing, the proposal or the director's
// amendment.
func TestExplain_RaisonsDeLAppariement(t *testing.T) {
	// A and B met in round 1 (A started), C and D too (C started), E had
	// the bye. Ranking: A, C, B, D, E.
	req := Request{Round: 2, Method: Swiss,
		Players: []Player{{ID: "A", MatchPoints: 3, Starts: 1}, {ID: "C", MatchPoints: 3, Starts: 1},
			{ID: "B", MatchPoints: 1}, {ID: "D", MatchPoints: 1}, {ID: "E", MatchPoints: 3, HadBye: true}},
		History: []Meeting{{Round: 1, First: "A", Second: "B"}, {Round: 1, First: "C", Second: "D"}}}
	cases := []struct {
		nom      string
		tables   []Table
		bye      PlayerID
		revanche []int
		debut    []StartReason
		exempt   ByeReason
		nb       int
	}{
		{nom: "proposition", tables: []Table{{Number: 1, First: "B", Second: "C"}, {Number: 2, First: "D", Second: "E"}}, bye: "A",
			revanche: []int{0, 0}, debut: []StartReason{DebutMoinsSouvent, DebutMoinsSouvent}, exempt: ExemptChoisi, nb: 0},
		{nom: "revanche et exempt déjà exempt", tables: []Table{{Number: 1, First: "A", Second: "B"}, {Number: 2, First: "C", Second: "D"}}, bye: "E",
			revanche: []int{1, 1}, debut: []StartReason{DebutPlusSouvent, DebutPlusSouvent}, exempt: ExemptDejaExempt, nb: 2},
		{nom: "exempt le moins bien classé", tables: []Table{{Number: 1, First: "B", Second: "A"}, {Number: 2, First: "E", Second: "C"}}, bye: "D",
			revanche: []int{1, 0}, debut: []StartReason{DebutMoinsSouvent, DebutMoinsSouvent}, exempt: ExemptDernier, nb: 1},
	}
	for _, c := range cases {
		t.Run(c.nom, func(t *testing.T) {
			ex, err := Explain(req, c.tables, c.bye)
			require.NoError(t, err)
			require.Len(t, ex.Tables, len(c.tables))
			for i, tb := range ex.Tables {
				assert.Equal(t, c.tables[i].Number, tb.Number)
				assert.Equal(t, c.revanche[i], tb.RepeatOf, "table %d", tb.Number)
				assert.Equal(t, c.debut[i], tb.Start, "table %d", tb.Number)
			}
			assert.Equal(t, c.exempt, ex.Bye)
			assert.Equal(t, c.nb, ex.Repeats)
		})
	}
}

// Equal balances: the one who was second in his latest game starts; with
// no history at all, the table's parity decides (§3.1).
func TestExplain_DebutAEquilibreEgal(t *testing.T) {
	req := Request{Round: 3, Method: Swiss,
		Players: []Player{{ID: "A", Starts: 1}, {ID: "B", Starts: 1}, {ID: "C", Starts: 1}, {ID: "D", Starts: 1}, {ID: "E"}, {ID: "F"}},
		History: []Meeting{{Round: 1, First: "A", Second: "B"}, {Round: 2, First: "B", Second: "A"},
			{Round: 1, First: "C", Second: "D"}, {Round: 2, First: "D", Second: "C"}}}
	ex, err := Explain(req, []Table{{Number: 1, First: "A", Second: "B"}, {Number: 2, First: "D", Second: "C"}, {Number: 3, First: "E", Second: "F"}}, "")
	require.NoError(t, err)
	assert.Equal(t, []StartReason{DebutSecondAvant, DebutPremierAvant, DebutAlternance}, []StartReason{ex.Tables[0].Start, ex.Tables[1].Start, ex.Tables[2].Start})
	assert.Equal(t, []int{2, 2, 0}, []int{ex.Tables[0].RepeatOf, ex.Tables[1].RepeatOf, ex.Tables[2].RepeatOf}, "the latest earlier meeting")
	assert.Empty(t, ex.Bye)
	assert.Equal(t, "était second à sa dernière partie (§3.1)", ex.Tables[0].Start.Texte())

	_, err = Explain(req, []Table{{Number: 1, First: "Z", Second: "A"}}, "")
	assert.Equal(t, CodeUnknownPlayerInHistory, erreur.CodeOf(err), "an unknown player is refused")
}
