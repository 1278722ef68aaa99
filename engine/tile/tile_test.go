package tile

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// §1.1: 100 letters and 2 jokers, with the values and counts of the table.
func TestFrenchSet_Article1_1(t *testing.T) {
	total := 0
	for l := Letter(0); l <= Alphabet; l++ {
		total += l.Count()
	}
	assert.Equal(t, TotalTiles, total)
	cases := []struct {
		letter     byte
		value, cnt int
	}{
		{'A', 1, 9}, {'B', 3, 2}, {'C', 3, 2}, {'D', 2, 3}, {'E', 1, 15}, {'F', 4, 2}, {'G', 2, 2},
		{'H', 4, 2}, {'I', 1, 8}, {'J', 8, 1}, {'K', 10, 1}, {'L', 1, 5}, {'M', 2, 3}, {'N', 1, 6},
		{'O', 1, 6}, {'P', 3, 2}, {'Q', 8, 1}, {'R', 1, 6}, {'S', 1, 6}, {'T', 1, 6}, {'U', 1, 6},
		{'V', 4, 2}, {'W', 10, 1}, {'X', 10, 1}, {'Y', 10, 1}, {'Z', 10, 1},
	}
	for _, c := range cases {
		l, ok := LetterOf(c.letter)
		require.True(t, ok)
		assert.Equal(t, c.value, l.Value(), "value of %c", c.letter)
		assert.Equal(t, c.cnt, l.Count(), "count of %c", c.letter)
	}
	assert.Equal(t, 2, NoLetter.Count(), "two jokers")
}

// §1.2: a joker is worth nothing whatever letter it stands for.
func TestTileNotation(t *testing.T) {
	cases := []struct {
		in     byte
		letter Letter
		joker  bool
		value  int
	}{
		{'K', 11, false, 10}, {'k', 11, true, 0}, {'.', 0, false, 0},
	}
	for _, c := range cases {
		tl, ok := TileOf(c.in)
		require.True(t, ok)
		assert.Equal(t, c.letter, tl.Letter())
		assert.Equal(t, c.joker, tl.IsJoker())
		assert.Equal(t, c.value, tl.Value())
		assert.Equal(t, c.in, tl.Byte())
	}
	_, ok := TileOf('#')
	assert.False(t, ok)
}

// §3.1: the reliquat is announced in alphabetical order, jokers last.
func TestRackAnnouncementOrder_Article3_1(t *testing.T) {
	r, err := ParseRack("s?eTa?r")
	require.NoError(t, err)
	assert.Equal(t, "AERST??", r.String())
	assert.Equal(t, 7, r.Size())
	_, err = ParseRack("AB1")
	assert.ErrorContains(t, err, "« 1 » en position 3")
}
