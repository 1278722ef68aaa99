package correction

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/engine/lexicon"
)

// tinyWords is the test lexicon: common French words, enough for the
// positions below (the real ODS is never copied into the repository).
const tinyWords = "MINER CHEMINER OH RO OR AH NA HA HE HO EH AIE EAU EAUX MINERAI MINERAIS NE RE EN ME MI HOIR"

func tinyLex(t testing.TB) *lexicon.Lexicon {
	t.Helper()
	lex, err := lexicon.Compile(strings.NewReader(strings.ReplaceAll(tinyWords, " ", "\n")), "test")
	require.NoError(t, err)
	return lex
}

// grid builds 15 rows with the given rows (by letter) filled in.
func grid(rows map[byte]string) []string {
	out := make([]string, 15)
	for r := range out {
		line := []byte(strings.Repeat(".", 15))
		if s, ok := rows[byte('A'+r)]; ok {
			copy(line, s)
		}
		out[r] = string(line)
	}
	return out
}

var (
	// minerGrid: MINER at H4 (second coup after a 5-letter first word).
	minerGrid = grid(map[byte]string{'H': "...MINER"})
	// twinGrid: MINER at H4 and at L4, for raccord letters matching two places.
	twinGrid = grid(map[byte]string{'H': "...MINER", 'L': "...MINER"})
	// longGrid: MINERAI (7 letters) at H2, for §4.3.2's six raccord letters.
	longGrid = grid(map[byte]string{'H': ".MINERAI"})
)

func ref(s string) *string { return &s }
func score(n int) *int     { return &n }

func sol(word string, written Sens, r *string, sc *int, raccord ...RaccordLetter) Solution {
	return Solution{Word: word, Written: written, Ref: r, Score: sc, Raccord: raccord}
}

func rl(letter string, dr, dc int) RaccordLetter {
	return RaccordLetter{Letter: letter, DR: dr, DC: dc}
}

type want struct {
	paid       int
	sanction   Sanction
	reasons    []Reason
	commission bool
	place      string
}

type decideCase struct {
	name     string // cites the article
	board    []string
	tirage   string
	coup     int
	firstLen int
	bulletin Bulletin
	want     want
}

func one(s Solution) Bulletin { return Bulletin{Solutions: []Solution{s}} }

func runCases(t *testing.T, cases []decideCase) {
	t.Helper()
	lex := tinyLex(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			coup, first := tc.coup, tc.firstLen
			if coup == 0 {
				coup = 3
			}
			if first == 0 {
				first = 5
			}
			d, err := Correct(lex, Context{Board: tc.board, Tirage: tc.tirage, Coup: coup, FirstWordLength: first}, &tc.bulletin)
			require.NoError(t, err)
			assert.Equal(t, tc.want.paid, d.Paid, "paid")
			assert.Equal(t, tc.want.sanction, d.Sanction, "sanction")
			assert.Equal(t, tc.want.reasons, d.Reasons, "reasons")
			assert.Equal(t, tc.want.commission, d.Commission, "commission")
			assert.Equal(t, tc.want.place, d.Place, "place")
			assert.Equal(t, EngineVersion, d.Engine)
		})
	}
}

// First coup MINER: (2×2+1+1+1+1)×2 = 16 at H4 (M on the light blue H4,
// the star doubling), 14 with a joker as R.
//
// Scores on minerGrid with tirage CEHIOA?: CHEMINER H1 = (3+4+1+2+1+1+1+1)×3
// = 42 (a joker as C: 33, as H: 30, as E: 39; jokers as H and E: 27); OH I8 = 1 + 4×2 + RO 2 = 11,
// and OH G8 forms OR for 11 too, OH I9 does not lie; AH I6 = 1 + 4×2 + NA 2 + EH 9 = 20, and AH
// G6 forms AN (not admitted, plausible) for the same 20; AIE I2 = 1+2+1 + ME 3 = 7, but AIE G2 forms EM (not admitted) for 7 too.
const tirage = "CEHIOA?"

func TestDecideSection53(t *testing.T) {
	runCases(t, []decideCase{
		{name: "§5.3.1 correct reference, exact score", board: minerGrid, tirage: tirage,
			bulletin: one(sol("CHEMINER", "h", ref("H1"), score(42))),
			want:     want{42, None, []Reason{}, false, "H1"}},
		{name: "§5.3.2 correct reference, score missing: exact score and avertissement", board: minerGrid, tirage: tirage,
			bulletin: one(sol("OH", "h", ref("I8"), nil)),
			want:     want{11, Warning, []Reason{ScoreMissing}, false, "I8"}},
		{name: "§5.3.2 correct reference, score wrong", board: minerGrid, tirage: tirage,
			bulletin: one(sol("OH", "h", ref("I8"), score(12))),
			want:     want{11, Warning, []Reason{ScoreWrong}, false, "I8"}},
		{name: "§5.3 reference inverted (8I for a horizontal word): avertissement", board: minerGrid, tirage: tirage,
			bulletin: one(sol("OH", "h", ref("8I"), score(11))),
			want:     want{11, Warning, []Reason{Inverted}, false, "I8"}},
		{name: "§5.3 sense inverted (written vertically, reference I8): avertissement", board: minerGrid, tirage: tirage,
			bulletin: one(sol("OH", "v", ref("I8"), score(11))),
			want:     want{11, Warning, []Reason{Inverted}, false, "I8"}},
		{name: "§5.3 sense AND reference inverted, the word's score: zéro, box (27) and not a wrong score (6)", board: minerGrid, tirage: tirage,
			bulletin: one(sol("AIE", "v", ref("2I"), score(7))),
			want:     want{0, Zero, []Reason{Inverted, ReferenceWrong}, false, ""}},
		{name: "§5.3 sense AND reference inverted, a score the word makes nowhere: zéro, (6) and (27)", board: minerGrid, tirage: tirage,
			bulletin: one(sol("AIE", "v", ref("2I"), score(8))),
			want:     want{0, Zero, []Reason{ScoreWrong, Inverted, ReferenceWrong}, false, ""}},
		{name: "§5.3.3 offset by one square, score exact: −5 (guide §5.4.4)", board: minerGrid, tirage: tirage,
			bulletin: one(sol("OH", "h", ref("I9"), score(11))),
			want:     want{6, Penalty, []Reason{Offset}, false, "I8"}},
		{name: "§5.3.3 reference absent, existing score: −5", board: minerGrid, tirage: tirage,
			bulletin: one(sol("OH", "h", nil, score(11))),
			want:     want{6, Penalty, []Reason{RaccordMissing}, false, "G8"}},
		{name: "§5.3.3 garbled reference, existing score: −5", board: minerGrid, tirage: tirage,
			bulletin: one(sol("OH", "h", ref("Q?"), score(11))),
			want:     want{6, Penalty, []Reason{ReferenceWrong}, false, "G8"}},
		{name: "§5.3.3 AIE for 7 could form EM at G2 (fallacious raccord): zéro, commission", board: minerGrid, tirage: tirage,
			bulletin: one(sol("AIE", "h", nil, score(7))),
			want:     want{0, Zero, []Reason{FallaciousRaccord}, true, ""}},
		{name: "§5.3.3 fallacious raccord possible for this score (AH G6 forms AN): zéro, commission", board: minerGrid, tirage: tirage,
			bulletin: one(sol("AH", "h", ref("J6"), score(20))),
			want:     want{0, Zero, []Reason{FallaciousRaccord}, true, ""}},
		{name: "§5.3.2 then §5.4.2.b: correct place pays more than 5.3.3 elsewhere", board: minerGrid, tirage: tirage,
			bulletin: one(sol("OH", "h", ref("I8"), score(11))),
			want:     want{11, None, []Reason{}, false, "I8"}},
		{name: "§5.3.2 reference and score both wrong: zéro (2014 §B.1)", board: minerGrid, tirage: tirage,
			bulletin: one(sol("OH", "h", ref("I9"), score(12))),
			want:     want{0, Zero, []Reason{ScoreWrong, ReferenceWrong}, false, ""}},
		{name: "§5.7 at the place written the word forms a non-admitted word (AIE I3 forms IE)", board: minerGrid, tirage: tirage,
			bulletin: one(sol("AIE", "h", ref("I3"), score(8))),
			want:     want{0, Zero, []Reason{WordNotAdmitted}, false, ""}},
	})
}

func TestDecideJoker(t *testing.T) {
	runCases(t, []decideCase{
		{name: "§5.3 coup joker, circling and score exact", board: minerGrid, tirage: "CHIOA??",
			bulletin: one(sol("CH(E)MINER", "h", ref("H1"), score(39))),
			want:     want{39, None, []Reason{}, false, "H1"}},
		{name: "§5.3.1 score existing for another circling: paid, avertissement (§5.5 circling)", board: minerGrid, tirage: "CEHIOA?",
			bulletin: one(sol("(C)HEMINER", "h", ref("H1"), score(42))),
			want:     want{42, Warning, []Reason{JokerCircling}, false, "H1"}},
		{name: "§5.3.2 circling possible, score wrong: exact score for that circling", board: minerGrid, tirage: "CEHIOA?",
			bulletin: one(sol("(C)HEMINER", "h", ref("H1"), score(40))),
			want:     want{33, Warning, []Reason{ScoreWrong}, false, "H1"}},
		{name: "§5.3.2 no circle, played without joker possible: that score (\"y compris ... sans joker\")", board: minerGrid, tirage: "CEHIOA?",
			bulletin: one(sol("CHEMINER", "h", ref("H1"), nil)),
			want:     want{42, Warning, []Reason{ScoreMissing}, false, "H1"}},
		{name: "§5.3.2 circling impossible, score missing: minimum over circlings", board: minerGrid, tirage: "CIOA??R",
			bulletin: one(sol("CHEMINER", "h", ref("H1"), nil)),
			want:     want{27, Warning, []Reason{ScoreMissing, JokerCircling}, false, "H1"}},
		{name: "guide §5.6 two letters absent from a one-joker tirage: zéro, erreur de lettre", board: minerGrid, tirage: "CEHIOA?",
			bulletin: one(sol("EAUX", "h", ref("I6"), score(30))),
			want:     want{0, Zero, []Reason{LetterError}, false, ""}},
	})
}

func TestDecideRaccord(t *testing.T) {
	above := []RaccordLetter{rl("M", -1, 2), rl("I", -1, 3), rl("N", -1, 4)}
	runCases(t, []decideCase{
		{name: "§4.3.2 three raccord letters chained to the word: correct", board: minerGrid, tirage: tirage,
			bulletin: one(sol("AIE", "h", nil, score(7), above...)),
			want:     want{7, None, []Reason{}, false, "I2"}},
		{name: "§5.5 two raccord letters: avertissement", board: minerGrid, tirage: tirage,
			bulletin: one(sol("AIE", "h", nil, score(7), above[:2]...)),
			want:     want{7, Warning, []Reason{RaccordTwoLetters}, false, "I2"}},
		{name: "§4.3.2 second-coup exception: two letters suffice after a two-letter first word", board: minerGrid, tirage: tirage,
			coup: 2, firstLen: 2,
			bulletin: one(sol("AIE", "h", nil, score(7), above[:2]...)),
			want:     want{7, None, []Reason{}, false, "I2"}},
		{name: "§5.3.3 one raccord letter does not localise: existing score −5", board: minerGrid, tirage: tirage,
			bulletin: one(sol("OH", "h", nil, score(11), rl("R", -1, 0))),
			want:     want{6, Penalty, []Reason{RaccordWrong}, false, "I8"}},
		{name: "§5.2.3 a parasite letter breaks the chain: two raccord letters, avertissement", board: minerGrid, tirage: tirage,
			bulletin: one(sol("AIE", "h", nil, score(7), rl("M", -1, 2), rl("I", -1, 3), rl("X", -1, 4), rl("E", -1, 5))),
			want:     want{7, Warning, []Reason{RaccordTwoLetters}, false, "I2"}},
		{name: "§5.4.2.b raccord matching two places, score matches one: applied", board: twinGrid, tirage: tirage,
			bulletin: one(sol("AIE", "h", nil, score(9), above...)),
			want:     want{9, None, []Reason{}, false, "M2"}},
		{name: "§5.4.2.b raccord matching two places, score wrong: minimum, avertissement (guide §5.5)", board: twinGrid, tirage: tirage,
			bulletin: one(sol("AIE", "h", nil, score(8), above...)),
			want:     want{7, Warning, []Reason{ScoreWrong}, false, "I2"}},
		{name: "§5.2.2 §5.5 prolongation of a 3–6 letter word not written whole: avertissement", board: minerGrid, tirage: tirage,
			bulletin: one(sol("CHE", "h", nil, score(42), rl("M", 0, 3), rl("I", 0, 4), rl("N", 0, 5))),
			want:     want{42, Warning, []Reason{WordNotWhole}, false, "H1"}},
		{name: "§5.2.2 prolongation with one letter of the prolonged word: not a mot joué, zéro", board: minerGrid, tirage: tirage,
			bulletin: one(sol("CHEM", "h", ref("H1"), score(42))),
			want:     want{0, Zero, []Reason{WordNotWhole}, false, ""}},
		{name: "§5.3 in fine exception: prolongation located by raccord, the reference is ignored", board: minerGrid, tirage: tirage,
			bulletin: one(sol("CHEMINER", "h", ref("H3"), score(42))),
			want:     want{42, None, []Reason{}, false, "H1"}},
		{name: "§4.3.2 prolongation of a 7-letter word with 6 raccord letters, 3 touching: correct", board: longGrid, tirage: "AEIOSTU",
			bulletin: one(sol("NERAIS", "h", nil, score(9), rl("I", 0, -1))),
			want:     want{9, None, []Reason{}, false, "H2"}},
		{name: "§5.5 prolongation of a 7-letter word with only 5 raccord letters: avertissement", board: longGrid, tirage: "AEIOSTU",
			bulletin: one(sol("NERAIS", "h", nil, score(9))),
			want:     want{9, Warning, []Reason{RaccordTwoLetters}, false, "H2"}},
		{name: "§5.7 final letter already on the grid omitted: zéro (guide box 16 gave −5 before 2020)", board: minerGrid, tirage: tirage,
			bulletin: one(sol("HOI", "v", ref("8E"), score(16))),
			want:     want{0, Zero, []Reason{FinalLetterOmitted}, false, ""}},
	})
}

func TestDecideZeros(t *testing.T) {
	runCases(t, []decideCase{
		{name: "§5.7 missing bulletin", board: minerGrid, tirage: tirage, bulletin: Bulletin{Missing: true},
			want: want{0, Zero, []Reason{Missing}, false, ""}},
		{name: "§5.7 blank bulletin", board: minerGrid, tirage: tirage, bulletin: Bulletin{Blank: true},
			want: want{0, Zero, []Reason{Blank}, false, ""}},
		{name: "§5.4 every solution crossed out: inexistent, blank", board: minerGrid, tirage: tirage,
			bulletin: Bulletin{Solutions: []Solution{{Word: "OH", Written: "h", Ref: ref("I8"), Score: score(11), Crossed: true}}},
			want:     want{0, Zero, []Reason{Blank}, false, ""}},
		{name: "§5.7 several bulletins", board: minerGrid, tirage: tirage, bulletin: Bulletin{Several: true, Solutions: []Solution{sol("OH", "h", ref("I8"), score(11))}},
			want: want{0, Zero, []Reason{SeveralBulletins}, false, ""}},
		{name: "§5.7 written after the end of the coup", board: minerGrid, tirage: tirage, bulletin: Bulletin{Late: true, Solutions: []Solution{sol("OH", "h", ref("I8"), score(11))}},
			want: want{0, Zero, []Reason{Late}, false, ""}},
		{name: "§5.7 exchanged after the end of the coup", board: minerGrid, tirage: tirage, bulletin: Bulletin{Exchanged: true, Solutions: []Solution{sol("OH", "h", ref("I8"), score(11))}},
			want: want{0, Zero, []Reason{Exchanged}, false, ""}},
		{name: "§5.7 illegible: zéro, graphie to the commission (2014 §C)", board: minerGrid, tirage: tirage, bulletin: Bulletin{Illegible: true},
			want: want{0, Zero, []Reason{Illegible}, true, ""}},
		{name: "§5.7 word not admitted", board: minerGrid, tirage: tirage,
			bulletin: one(sol("OHE", "h", ref("I8"), score(12))),
			want:     want{0, Zero, []Reason{WordNotAdmitted}, false, ""}},
		{name: "§5.7 word formed in raccord not admitted (AH at G6 forms AN)", board: minerGrid, tirage: tirage,
			bulletin: one(sol("AH", "h", ref("G6"), score(21))),
			want:     want{0, Zero, []Reason{WordNotAdmitted}, false, ""}},
		{name: "§5.4.1.c erreur de grille: the word cannot lie where written", board: minerGrid, tirage: "ACEIOTU",
			bulletin: one(sol("MINERAIS", "h", ref("H3"), nil)),
			want:     want{0, Zero, []Reason{GridError}, false, ""}},
		{name: "§5.4.1.d erreur de lettre", board: minerGrid, tirage: "CEHIOS?",
			bulletin: one(sol("EAUX", "h", ref("I6"), score(30))),
			want:     want{0, Zero, []Reason{LetterError}, false, ""}},
		{name: "§5.9 zéro above the top", board: minerGrid, tirage: tirage,
			bulletin: one(sol("OHE", "h", ref("I8"), score(300))),
			want:     want{0, Zero, []Reason{WordNotAdmitted, AboveTop}, false, ""}},
		{name: "§5.4.2.b several independent solutions: the minimum, nullité included", board: minerGrid, tirage: tirage,
			bulletin: Bulletin{Solutions: []Solution{sol("CHEMINER", "h", ref("H1"), score(42)), sol("OHE", "h", ref("I8"), score(12))}},
			want:     want{0, Zero, []Reason{WordNotAdmitted, SeveralSolutions}, false, ""}},
		{name: "§5.4.2.b several independent valid solutions: the minimum", board: minerGrid, tirage: tirage,
			bulletin: Bulletin{Solutions: []Solution{sol("CHEMINER", "h", ref("H1"), score(42)), sol("OH", "h", ref("I8"), score(11))}},
			want:     want{11, None, []Reason{SeveralSolutions}, false, "I8"}},
		{name: "§5.4 a crossed-out solution is inexistent", board: minerGrid, tirage: tirage,
			bulletin: Bulletin{Solutions: []Solution{sol("CHEMINER", "h", ref("H1"), score(42)), {Word: "OHE", Written: "h", Crossed: true}}},
			want:     want{42, None, []Reason{}, false, "H1"}},
		{name: "§5.8 the disciplinary avertissement cumulates with a zéro", board: minerGrid, tirage: tirage,
			bulletin: Bulletin{Discipline: 1, Solutions: []Solution{sol("OHE", "h", ref("I8"), score(12))}},
			want:     want{0, Zero, []Reason{WordNotAdmitted, Discipline}, false, ""}},
	})
}

func TestDecideBothModes(t *testing.T) {
	above := []RaccordLetter{rl("M", -1, 2), rl("I", -1, 3), rl("N", -1, 4)}
	runCases(t, []decideCase{
		{name: "§5.3 in fine both modes correct", board: minerGrid, tirage: tirage,
			bulletin: one(sol("AIE", "h", ref("I2"), score(7), above...)),
			want:     want{7, None, []Reason{}, false, "I2"}},
		{name: "§5.3 in fine reference wrong, raccord correct: avertissement", board: minerGrid, tirage: tirage,
			bulletin: one(sol("AIE", "h", ref("I3"), score(7), above...)),
			want:     want{7, Warning, []Reason{TwoReferencesOneWrong}, false, "I2"}},
		{name: "§5.3 in fine both modes incorrect: the less severe (−5)", board: minerGrid, tirage: tirage,
			bulletin: one(sol("OH", "h", ref("I9"), score(11), rl("R", -1, 0))),
			want:     want{6, Penalty, []Reason{Offset}, false, "I8"}},
		{name: "guide §5.4.5 reference inverted and two raccord letters: one avertissement (§5.8)", board: minerGrid, tirage: tirage,
			bulletin: one(sol("AIE", "h", ref("2I"), score(7), above[:2]...)),
			want:     want{7, Warning, []Reason{RaccordTwoLetters, Inverted}, false, "I2"}},
	})
}

func TestDecideFirstCoup(t *testing.T) {
	empty := grid(nil)
	runCases(t, []decideCase{
		{name: "§5.4.2.a first coup: maximum for the word, whatever the reference", board: empty, tirage: "CEHIMNR", coup: 1,
			bulletin: one(sol("MINER", "h", ref("H8"), score(16))),
			want:     want{16, None, []Reason{}, false, "H4"}},
		{name: "§5.4.2.a §5.5 first coup, score absent: maximum and avertissement", board: empty, tirage: "CEHIMNR", coup: 1,
			bulletin: one(sol("MINER", "h", nil, nil)),
			want:     want{16, Warning, []Reason{ScoreMissing}, false, "H4"}},
		{name: "§5.4.2.a first coup, score possible but not the maximum: avertissement (the 2020 text; guide §5.3 spared it)", board: empty, tirage: "CEHIMNR", coup: 1,
			bulletin: one(sol("MINER", "h", nil, score(14))),
			want:     want{16, Warning, []Reason{ScoreWrong}, false, "H4"}},
		{name: "§5.4.2.a first coup, joker not circled: maximum, avertissement for the circling", board: empty, tirage: "CEHIMN?", coup: 1,
			bulletin: one(sol("MINER", "h", nil, score(14))),
			want:     want{14, Warning, []Reason{JokerCircling}, false, "H4"}},
	})
}

// TestDecideJoker_NotationDuTop: a top pasted into a bulletin, its joker in
// lower case as the engine writes it, is corrected as the same word
// circled (once JOKER_CIRCLING); accents fold as in the word list.
func TestDecideJoker_NotationDuTop(t *testing.T) {
	runCases(t, []decideCase{
		{name: "lower-case joker as in the top", board: minerGrid, tirage: "CHIOA??",
			bulletin: one(sol("CHeMINER", "h", ref("H1"), score(39))),
			want:     want{39, None, []Reason{}, false, "H1"}},
		{name: "circled lower-case joker", board: minerGrid, tirage: "CHIOA??",
			bulletin: one(sol("CH(e)MINER", "h", ref("H1"), score(39))),
			want:     want{39, None, []Reason{}, false, "H1"}},
		{name: "accented letters and an accented tirage", board: minerGrid, tirage: "ÇHIOA??",
			bulletin: one(sol("ÇH(É)MINÉR", "h", ref("H1"), score(39))),
			want:     want{39, None, []Reason{}, false, "H1"}},
	})
}

// TestValidate_RaccordAccentue: a raccord letter typed with its accent is
// the letter ("É" is E), not two bytes refused.
func TestValidate_RaccordAccentue(t *testing.T) {
	b := one(sol("CHE", "h", nil, nil, RaccordLetter{Letter: "É", DR: -1, DC: 0}))
	require.NoError(t, b.Validate())
	b = one(sol("CHE", "h", nil, nil, RaccordLetter{Letter: "€", DR: -1, DC: 0}))
	require.Error(t, b.Validate())
}
