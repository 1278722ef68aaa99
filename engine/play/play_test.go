package play

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/engine/board"
	"arbitre/engine/lexicon"
	"arbitre/engine/movegen"
	"arbitre/engine/tile"
)

// testLexicon is a tiny list made for these cases (scores do not depend on
// the lexicon, validity does).
func testLexicon(t testing.TB) *lexicon.Lexicon {
	t.Helper()
	lex, err := lexicon.Compile(strings.NewReader(strings.Join([]string{
		"ZEN", "NE", "EN", "MOT", "MOTS", "ES", "ON", "TE", "ARBITRES", "DESINSTALLERAIS", "ZA",
	}, "\n")), "test")
	require.NoError(t, err)
	return lex
}

// grid builds a board from "square:WORD" horizontal ("H7:MOT") or vertical
// ("7H:MOT") placements.
func grid(t testing.TB, words ...string) board.Board {
	t.Helper()
	var b board.Board
	for _, w := range words {
		at, text, _ := strings.Cut(w, ":")
		ref, err := board.ParseRef(at)
		require.NoError(t, err)
		tiles, err := ParseWord(text)
		require.NoError(t, err)
		for i, tl := range tiles {
			sq := ref.Start() + i*ref.Step()
			b.Set(sq/board.Size, sq%board.Size, tl)
		}
	}
	return b
}

func rack(t testing.TB, s string) *tile.Rack {
	r, err := tile.ParseRack(s)
	require.NoError(t, err)
	return &r
}

// Scoring per §1.2: premiums of §1.2.1 (a covered square loses its effect),
// simultaneous words of §1.2.2 (the premium counts in each word), the bonus
// of §1.2.3 and of §3.8.2, jokers worth nothing (§1.2).
func TestScore_Article1_2(t *testing.T) {
	lex := testLexicon(t)
	cases := []struct {
		name    string
		board   board.Board
		ref     string
		word    string
		rack    string
		variant movegen.Variant
		score   int32
		words   []string
	}{
		{"first word on the star doubles (§1.2.1)", board.Board{}, "H6", "ZEN", "ZEN", movegen.Standard, 24, []string{"ZEN"}},
		{"joker worth 0 on the star (§1.2)", board.Board{}, "H8", "zEN", "EN?", movegen.Standard, 4, []string{"zEN"}},
		{"covered star loses its effect (§1.2.1)", grid(t, "H7:MOT"), "H7", "MOTS", "S", movegen.Standard, 5, []string{"MOTS"}},
		{"letter on double letter counts twice in both words (§1.2.2)", grid(t, "H7:MOT"), "I8", "NE", "EN", movegen.Standard, 8, []string{"NE", "ON", "TE"}},
		{"double word counts in the cross word too (§1.2.2)", grid(t, "L5:E"), "K3", "ZEN", "ZEN", movegen.Standard, 28, []string{"ZEN", "NE"}},
		{"joker on double word still doubles both words (§1.2.2)", grid(t, "L5:E"), "K3", "ZEn", "ZE?", movegen.Standard, 24, []string{"ZEn", "nE"}},
		{"two red squares: ×9 and the Scrabble bonus (§1.2.1, §1.2.3)", grid(t, "A5:T"), "A1", "ARBITRES", "ARBIRES", movegen.Standard, 149, []string{"ARBITRES"}},
		{"three red squares: ×27 (§1.2.1)", grid(t, "A2:ES", "A5:NS", "A9:LLE", "A13:A"), "A1", "DESINSTALLERAIS", "DITARIS", movegen.Standard, 536, []string{"DESINSTALLERAIS"}},
		{"vertical word (§1.1 references)", grid(t, "H7:MOT"), "10G", "ES", "ES", movegen.Standard, 7, []string{"ES", "MOTS"}},
	}
	c := NewChecker(lex, movegen.Options{})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ref, err := board.ParseRef(tc.ref)
			require.NoError(t, err)
			word, err := ParseWord(tc.word)
			require.NoError(t, err)
			var res Result
			c.Check(&tc.board, ref, word, rack(t, tc.rack), &res)
			require.Equal(t, OK, res.Problem, res.Problem.String())
			assert.Equal(t, tc.score, res.Score)
			var got []string
			for i := 0; i < res.NWords; i++ {
				got = append(got, res.Words[i].Text())
				assert.True(t, res.Words[i].Valid, res.Words[i].Text())
			}
			assert.Equal(t, tc.words, got)
			assert.True(t, res.Playable())
		})
	}
}

// §3.8.2: the bonus depends on the formula and on how many tiles go down.
func TestVariantBonus_Article3_8_2(t *testing.T) {
	lex, err := lexicon.Compile(strings.NewReader("ANTIQUES\nANTIQUE\nREANIMATES\n"), "test")
	require.NoError(t, err)
	// ANTIQUES (8 tiles) at H1: A(H1 ×3 word) N T I(H4 ×2) Q U E S(H8 ×2 word)
	// letters 1+1+1+2+8+1+1+1 = 16, ×6 = 96.
	cases := []struct {
		variant movegen.Variant
		word    string
		rack    string
		problem Problem
		score   int32
	}{
		{movegen.Standard, "ANTIQUES", "ANTIQUES", TooManyTiles, 0},
		{movegen.SeptSurHuit, "ANTIQUES", "ANTIQUES", TooManyTiles, 0},
		{movegen.SeptEtHuit, "ANTIQUES", "ANTIQUES", OK, 96 + 75},
		{movegen.SeptHuitNeuf, "ANTIQUES", "ANTIQUESZ", OK, 96 + 75},
		{movegen.SeptSurHuit, "ANTIQUE", "ANTIQUES", OK, 2*(1+1+1+2+8+1+1) + 50},
	}
	for _, tc := range cases {
		c := NewChecker(lex, movegen.Options{Variant: tc.variant})
		word, _ := ParseWord(tc.word)
		var res Result
		b := board.Board{}
		ref := board.Ref{Row: 7, Col: 0}
		if len(word) == 7 {
			ref.Col = 1 // B..H: covers the star, no red square
		}
		c.Check(&b, ref, word, rack(t, tc.rack), &res)
		assert.Equal(t, tc.problem, res.Problem, "%s %s", tc.variant.Name, tc.word)
		if tc.problem == OK {
			assert.Equal(t, tc.score, res.Score, "%s %s", tc.variant.Name, tc.word)
		}
	}
}

// §1.1: placement rules, each refused with its own problem code.
func TestPlacementProblems_Article1_1(t *testing.T) {
	lex := testLexicon(t)
	c := NewChecker(lex, movegen.Options{})
	mot := grid(t, "H7:MOT")
	cases := []struct {
		name  string
		board board.Board
		ref   string
		word  string
		rack  string
		want  Problem
	}{
		{"one letter is no word", mot, "H10", "S", "S", TooShort},
		{"past the edge", mot, "H14", "ZEN", "ZEN", OffBoard},
		{"word continues on the grid", mot, "H8", "OT", "", NotWhole},
		{"letter differs from the grid", mot, "H7", "MAT", "A", Mismatch},
		{"nothing put down", mot, "H7", "MOT", "", NothingPlaced},
		{"tiles not in the tirage", mot, "H7", "MOTS", "E", NotInRack},
		{"first word off the star", board.Board{}, "A1", "ZEN", "ZEN", NotOnCentre},
		{"first word vertical in duplicate (§3.4)", board.Board{}, "8H", "ZEN", "ZEN", FirstNotHorizontal},
		{"not touching the grid", mot, "A1", "ZEN", "ZEN", NotConnected},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ref, err := board.ParseRef(tc.ref)
			require.NoError(t, err)
			word, err := ParseWord(tc.word)
			if tc.want == TooShort {
				word = word[:1]
			}
			require.NoError(t, err)
			var res Result
			c.Check(&tc.board, ref, word, rack(t, tc.rack), &res)
			assert.Equal(t, tc.want, res.Problem, res.Problem.String())
			assert.False(t, res.Playable())
		})
	}
}

// A word absent from the lexicon is reported with its score: the arbiter
// needs both (§5.1).
func TestInvalidWordsAreNamed(t *testing.T) {
	lex := testLexicon(t)
	c := NewChecker(lex, movegen.Options{})
	b := grid(t, "H7:MOT")
	word, _ := ParseWord("NA")
	var res Result
	c.Check(&b, board.Ref{Row: 8, Col: 7}, word, nil, &res)
	require.Equal(t, OK, res.Problem)
	assert.False(t, res.Playable())
	assert.Equal(t, "NA", res.Words[0].Text())
	assert.False(t, res.Words[0].Valid)
	assert.Equal(t, "ON", res.Words[1].Text())
	assert.True(t, res.Words[1].Valid)
	assert.Equal(t, "TA", res.Words[2].Text())
	assert.False(t, res.Words[2].Valid)
}

func BenchmarkCheck(b *testing.B) {
	lex := testLexicon(b)
	c := NewChecker(lex, movegen.Options{})
	g := grid(b, "H7:MOT")
	word, _ := ParseWord("NE")
	r := rack(b, "EN")
	var res Result
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		c.Check(&g, board.Ref{Row: 8, Col: 7}, word, r, &res)
	}
}
