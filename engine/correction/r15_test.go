package correction

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// raccordGrid: an H right of C7 and an N right of E7 designate AIE written
// down from C7 (AH, EN); at G5, AIE runs through the I of MINER, the H right
// of G5 agrees with its raccord H but an X right of I5 forms EX.
var raccordGrid = grid(map[byte]string{'C': ".......H", 'E': ".......N", 'G': ".....H", 'H': "...MINER", 'I': ".....X"})

// TestArt5_3_3_RaccordDeuxLettresUnSeulLieu: the bulletin points only to the
// places where every written raccord letter agrees with the grid (§4.3.2);
// only those can be fallacious (§5.3.3). Two raccord letters matching at one
// place are an avertissement (§5.5), paid the score.
func TestArt5_3_3_RaccordDeuxLettresUnSeulLieu(t *testing.T) {
	runCases(t, []decideCase{
		{name: "§5.5 two raccord letters agreeing at one place only: avertissement, not fallacious", board: raccordGrid, tirage: tirage,
			bulletin: one(sol("AIE", "v", nil, score(12), rl("H", 0, 1), rl("N", 2, 1))),
			want:     want{12, Warning, []Reason{RaccordTwoLetters}, false, "7C"}},
	})
}

// TestArt5_5_AvertissementDisciplinaireSanction: a disciplinary
// avertissement on a bulletin makes its sanction at least a warning (§5.5);
// it cumulates with the bulletin's own (§5.8) and counts once for §5.9.
func TestArt5_5_AvertissementDisciplinaireSanction(t *testing.T) {
	lex := tinyLex(t)
	tests := []struct {
		name       string
		solution   Solution
		discipline int
		sanction   Sanction
		reasons    []Reason
		warnings   int
	}{
		{"§5.5 a correct bulletin with one disciplinary avertissement: warning", sol("CHEMINER", "h", ref("H1"), score(42)), 1, Warning, []Reason{Discipline}, 1},
		{"guide §2.2 two disciplinary avertissements: warning, two counted", sol("CHEMINER", "h", ref("H1"), score(42)), 2, Warning, []Reason{Discipline}, 2},
		{"§5.8 cumulates with the bulletin's own warning", sol("OH", "h", ref("I8"), score(12)), 1, Warning, []Reason{ScoreWrong, Discipline}, 2},
		{"§5.8 cumulates with the −5", sol("OH", "h", ref("I9"), score(11)), 1, Penalty, []Reason{Offset, Discipline}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := Bulletin{Discipline: tt.discipline, Solutions: []Solution{tt.solution}}
			d, err := Correct(lex, Context{Board: minerGrid, Tirage: tirage, Coup: 3, FirstWordLength: 5}, &b)
			require.NoError(t, err)
			assert.Equal(t, tt.sanction, d.Sanction)
			assert.Equal(t, tt.reasons, d.Reasons)
			assert.Equal(t, tt.warnings, d.Warnings(), "§5.9")
			assert.True(t, d.Billet, "§5.9: every sanction is notified")
		})
	}
}
