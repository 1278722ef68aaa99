package correction

import "testing"

// §5.2.3: parasite letters, laid where the bulletin puts them at the place
// judged, that form a mot joué (§5.2.1) not valid give a zéro. AIE in I2 is
// located by M, I, N of MINER above it (7 points, see TestDecideRaccord).
func TestDecideParasites(t *testing.T) {
	minerAbove := []RaccordLetter{rl("M", -1, 2), rl("I", -1, 3), rl("N", -1, 4), rl("E", -1, 5), rl("R", -1, 6)}
	with := func(extra ...RaccordLetter) []RaccordLetter {
		return append(append([]RaccordLetter(nil), minerAbove...), extra...)
	}
	runCases(t, []decideCase{
		{name: "§5.2.3 a parasite S after the raccord MINER forms MINERS, a mot joué not admitted: zéro (§5.1, box 19)", board: minerGrid, tirage: tirage,
			bulletin: one(sol("AIE", "h", nil, score(7), with(rl("S", -1, 7))...)),
			want:     want{0, Zero, []Reason{WordNotAdmitted}, false, ""}},
		{name: "§5.2.3 parasites A, I after MINER form MINERAI, admitted: neglected, to the commission (§6.3, 2014 §C)", board: minerGrid, tirage: tirage,
			bulletin: one(sol("AIE", "h", nil, score(7), with(rl("A", -1, 7), rl("I", -1, 8))...)),
			want:     want{7, None, []Reason{}, true, "I2"}},
		{name: "§5.2.3 §5.4.1.b parasites AH above MINER form AI and HN: a mot joué of two letters matching no solution: zéro", board: minerGrid, tirage: tirage,
			bulletin: one(sol("AIE", "h", nil, score(7), with(rl("A", -2, 3), rl("H", -2, 4))...)),
			want:     want{0, Zero, []Reason{WordNotAdmitted}, false, ""}},
		{name: "§5.2.3 a parasite X under OH forms ROX with the raccord R and the word's O, not admitted: zéro", board: minerGrid, tirage: tirage,
			bulletin: one(sol("OH", "h", ref("I8"), score(11), rl("R", -1, 0), rl("X", 1, 0))),
			want:     want{0, Zero, []Reason{WordNotAdmitted}, false, ""}},
		{name: "§5.2.3 a lone parasite letter forms no word: neglected", board: minerGrid, tirage: tirage,
			bulletin: one(sol("AIE", "h", nil, score(7), with(rl("Z", 3, 0))...)),
			want:     want{7, None, []Reason{}, false, "I2"}},
		{name: "§5.2.3 parasites that cannot lie where written (over MINER's letters) form no mot joué: neglected", board: minerGrid, tirage: tirage,
			bulletin: one(sol("AIE", "h", nil, score(7), rl("M", -1, 2), rl("I", -1, 3), rl("N", -1, 4), rl("S", -1, 5), rl("T", -1, 6))),
			want:     want{7, None, []Reason{}, false, "I2"}},
		{name: "§5.9 a parasite word above the top: zéro, no billet needed", board: minerGrid, tirage: tirage,
			bulletin: one(sol("AIE", "h", nil, score(400), with(rl("S", -1, 7))...)),
			want:     want{0, Zero, []Reason{WordNotAdmitted, AboveTop}, false, ""}},
	})
}

// The guide §5.4.4 accepts with an avertissement a raccord with one letter
// modified or omitted, or two consecutive letters swapped. The 2020
// regulation has no such tolerance: a raccord letter is a grid letter
// touching a letter put down or another raccord letter (§4.3.2); a written
// letter that is not one is parasite and interrupts the chain (§5.2.1,
// §5.2.3); what is left is counted as any raccord (§4.3.2: three letters,
// §5.5: two letters, an avertissement; fewer do not locate, §5.3.3).
func TestDecideRaccordModified(t *testing.T) {
	runCases(t, []decideCase{
		{name: "§4.3.2 §5.2.3 one letter modified (E written A), M I N still chained: correct, no avertissement", board: minerGrid, tirage: tirage,
			bulletin: one(sol("AIE", "h", nil, score(7), rl("M", -1, 2), rl("I", -1, 3), rl("N", -1, 4), rl("A", -1, 5))),
			want:     want{7, None, []Reason{}, false, "I2"}},
		{name: "§5.2.3 §5.5 one letter modified (N written X) leaves M, I: two letters, avertissement", board: minerGrid, tirage: tirage,
			bulletin: one(sol("AIE", "h", nil, score(7), rl("M", -1, 2), rl("I", -1, 3), rl("X", -1, 4))),
			want:     want{7, Warning, []Reason{RaccordTwoLetters}, false, "I2"}},
		{name: "§5.2.3 §5.3.3 two letters swapped (INER written IENR): R alone is chained, no localisation: existing score −5", board: minerGrid, tirage: tirage,
			bulletin: one(sol("OH", "h", nil, score(11), rl("I", -1, -3), rl("E", -1, -2), rl("N", -1, -1), rl("R", -1, 0))),
			want:     want{6, Penalty, []Reason{RaccordWrong}, false, "I8"}},
	})
}
