package lexicon_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/engine/enginetest"
	"arbitre/engine/lexicon"
	"arbitre/engine/lexicon/libre"
	"arbitre/engine/tile"
)

func compte(t *testing.T, lettres string) *[tile.Alphabet + 1]uint8 {
	var c [tile.Alphabet + 1]uint8
	for i := 0; i < len(lettres); i++ {
		l, ok := tile.LetterOf(lettres[i])
		require.True(t, ok, lettres)
		c[l]++
	}
	return &c
}

// TestAnagrammes_LettresDUnMot: the set of a length holds the letters of
// each word of that length, in any order, and nothing else.
func TestAnagrammes_LettresDUnMot(t *testing.T) {
	lex, err := lexicon.Compile(strings.NewReader("ZEN\nNEZ\nEN\nETE\nTETE\nZENITH\n"), "test")
	require.NoError(t, err)
	cases := []struct {
		lettres string
		want    bool
	}{
		{"ZEN", true}, {"NZE", true}, {"NE", true}, {"EET", true}, {"TEET", true}, {"THZINE", true},
		{"ZZE", false}, {"ET", false}, {"ZENT", false}, {"ZENITHS", false}, {"E", false},
	}
	for _, c := range cases {
		a := lex.Anagrammes(len(c.lettres))
		if len(c.lettres) < 2 {
			assert.Nil(t, a, c.lettres)
			continue
		}
		assert.Equal(t, c.want, a.Contient(compte(t, c.lettres)), c.lettres)
	}
	assert.Equal(t, 2, lex.Anagrammes(3).Taille(), "ZEN and NEZ are one class, ETE another")
	assert.Nil(t, lex.Anagrammes(lexicon.MaxAnagramme+1))
}

// TestAnagrammes_ListeLivree: on the shipped list, the sets of 7 and 8
// letters (the whole rack, and the rack with a letter of the board) hold
// exactly the sorted letters of its words of those lengths.
func TestAnagrammes_ListeLivree(t *testing.T) {
	words := enginetest.ListeLivree(t)
	lex, err := libre.Lexicon()
	require.NoError(t, err)
	for _, n := range []int{7, 8} {
		want := map[uint64]bool{}
		for _, w := range words {
			if len(w) == n {
				want[lexicon.Cle(compte(t, w))] = true
			}
		}
		a := lex.Anagrammes(n)
		assert.Equal(t, len(want), a.Taille(), "length %d", n)
		for _, w := range words[:2000] {
			if len(w) == n {
				assert.True(t, a.Contient(compte(t, w)), w)
			}
		}
	}
}
