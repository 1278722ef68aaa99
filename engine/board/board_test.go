package board

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/engine/tile"
)

// §1.1 grille type, as restated in seeds/README.md: 8 + 17 + 12 + 24 premium
// squares, symmetric about both diagonals.
func TestPremiumLayout_Article1_1(t *testing.T) {
	count := map[Premium]int{}
	for r := 0; r < Size; r++ {
		for c := 0; c < Size; c++ {
			p := PremiumAt(Index(r, c))
			count[p]++
			assert.Equal(t, p, PremiumAt(Index(c, r)), "main diagonal symmetry at %d,%d", r, c)
			assert.Equal(t, p, PremiumAt(Index(Size-1-c, Size-1-r)), "anti-diagonal symmetry at %d,%d", r, c)
		}
	}
	assert.Equal(t, 8, count[TripleWord])
	assert.Equal(t, 17, count[DoubleWord])
	assert.Equal(t, 12, count[TripleLetter])
	assert.Equal(t, 24, count[DoubleLetter])
	assert.Equal(t, DoubleWord, PremiumAt(Centre), "the star H8 doubles the word")
}

// §1.1: a reference starting with a letter is horizontal, with a number vertical.
func TestParseRef_Article1_1(t *testing.T) {
	cases := []struct {
		in   string
		want Ref
		err  bool
	}{
		{"H4", Ref{Row: 7, Col: 3}, false},
		{"4H", Ref{Row: 7, Col: 3, Vertical: true}, false},
		{"o15", Ref{Row: 14, Col: 14}, false},
		{"15A", Ref{Row: 0, Col: 14, Vertical: true}, false},
		{"P1", Ref{}, true},
		{"H16", Ref{}, true},
		{"0A", Ref{}, true},
		{"", Ref{}, true},
		{"44", Ref{}, true},
	}
	for _, c := range cases {
		got, err := ParseRef(c.in)
		if c.err {
			assert.Error(t, err, c.in)
			continue
		}
		require.NoError(t, err, c.in)
		assert.Equal(t, c.want, got, c.in)
		assert.Equal(t, strings.ToUpper(c.in), got.String())
	}
}

func TestParseAndTranspose(t *testing.T) {
	rows := strings.Split(strings.Repeat("...............\n", 15), "\n")[:15]
	rows[7] = "...BOUCAuD....."
	b, err := Parse(rows)
	require.NoError(t, err)
	assert.Equal(t, rows, b.Rows())
	assert.Equal(t, tile.Tile(21)|tile.JokerBit, b.At(7, 8))
	var tr Board
	b.Transpose(&tr)
	assert.Equal(t, b.At(7, 3), tr.At(3, 7))
	_, err = Parse(rows[:3])
	assert.Error(t, err)
	rows[2] = "......#........"
	_, err = Parse(rows)
	assert.ErrorContains(t, err, "ligne C colonne 7")
}
