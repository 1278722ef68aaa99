package correction

import "testing"

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
