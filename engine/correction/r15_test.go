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

// TestArt5_7_MotDUneLettre: a single written letter is recorded and judged,
// not refused: it is no mot joué (§1.1), the bulletin has no acceptable
// solution (§5.7). A presentation hard to read is an avertissement (§5.5)
// that neither a penalty nor a zéro cumulates with (§5.8).
func TestArt5_7_MotDUneLettre(t *testing.T) {
	hard := func(s Solution) Bulletin { return Bulletin{HardToRead: true, Solutions: []Solution{s}} }
	runCases(t, []decideCase{
		{name: "§5.7 a single letter is not a mot joué: zéro", board: minerGrid, tirage: tirage,
			bulletin: one(sol("A", "h", ref("I2"), score(2))),
			want:     want{0, Zero, []Reason{NotAWord}, false, ""}},
		{name: "§5.7 a single letter on the first coup: zéro", board: grid(nil), tirage: tirage, coup: 1,
			bulletin: one(sol("E", "h", ref("H8"), score(2))),
			want:     want{0, Zero, []Reason{NotAWord}, false, ""}},
		{name: "§5.5 presentation hard to read: avertissement, paid", board: minerGrid, tirage: tirage,
			bulletin: hard(sol("CHEMINER", "h", ref("H1"), score(42))),
			want:     want{42, Warning, []Reason{HardToRead}, false, "H1"}},
		{name: "§5.8 hard to read and a wrong score: one avertissement", board: minerGrid, tirage: tirage,
			bulletin: hard(sol("OH", "h", ref("I8"), score(12))),
			want:     want{11, Warning, []Reason{ScoreWrong, HardToRead}, false, "I8"}},
		{name: "§5.8 hard to read does not cumulate with the −5", board: minerGrid, tirage: tirage,
			bulletin: hard(sol("OH", "h", ref("I9"), score(11))),
			want:     want{6, Penalty, []Reason{Offset}, false, "I8"}},
	})
}

// TestArt4_3_1_SensAbsentSelonLaReference: a client that leaves written out
// gets the direction the reference's notation gives (H4 across, 4H down), so
// a correct bulletin is not punished; an explicit written contradicting the
// reference stays INVERTED (§5.3, §5.5).
func TestArt4_3_1_SensAbsentSelonLaReference(t *testing.T) {
	runCases(t, []decideCase{
		{name: "§4.3.1 I8 without written: across, correct", board: minerGrid, tirage: tirage,
			bulletin: one(sol("OH", "", ref("I8"), score(11))),
			want:     want{11, None, []Reason{}, false, "I8"}},
		{name: "§4.3.1 4H without written: down, correct", board: minerGrid, tirage: tirage,
			bulletin: one(sol("ME", "", ref("4H"), score(3))),
			want:     want{3, None, []Reason{}, false, "4H"}},
		{name: "§5.5 written across with a down reference: inverted", board: minerGrid, tirage: tirage,
			bulletin: one(sol("OH", "h", ref("8I"), score(11))),
			want:     want{11, Warning, []Reason{Inverted}, false, "I8"}},
	})
}
