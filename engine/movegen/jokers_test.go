package movegen

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"arbitre/engine/tile"
)

// TestJokers_PlacementsDUnMotDenombres: the walk that goes once through a
// word counts as many placements as there are ways to make some of its
// tiles jokers (§1.1: a joker stands for any letter) that the rack allows —
// checked against every subset of the word's tiles, for racks of zero to
// three jokers.
func TestJokers_PlacementsDUnMotDenombres(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 5))
	for range 2000 {
		var hand tile.Rack
		hand[tile.NoLetter] = uint8(rng.IntN(4))
		n := 1 + rng.IntN(9)
		word := make([]uint8, n)
		for i := range word {
			word[i] = uint8(1 + rng.IntN(4)) // few letters: repeats
		}
		for l := 1; l <= 4; l++ {
			hand[l] = uint8(rng.IntN(3))
		}
		// The walk takes a letter from the rack while it holds one, a
		// joker otherwise.
		g := &Generator{hand: hand}
		left := hand
		feasible := true
		for _, l := range word {
			switch {
			case left[l] > 0:
				left[l]--
			case left[tile.NoLetter] > 0:
				left[tile.NoLetter]--
				g.blanks[g.nBlanks] = l
				g.nBlanks++
			default:
				feasible = false
			}
		}
		if !feasible {
			continue
		}
		want := 0
		for set := 0; set < 1<<n; set++ {
			if bits.OnesCount(uint(set)) > int(hand[tile.NoLetter]) {
				continue
			}
			used := tile.Rack{}
			for i, l := range word {
				if set&(1<<i) == 0 {
					used[l]++
				}
			}
			ok := true
			for l := 1; l <= 4; l++ {
				ok = ok && used[l] <= hand[l]
			}
			if ok {
				want++
			}
		}
		require.Equal(t, want, g.ways(n), "word %v, rack %v", word, hand)
	}
}
