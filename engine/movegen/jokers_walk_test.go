package movegen_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/engine/enginetest/selfplay"
	"arbitre/engine/lexicon/libre"
	"arbitre/engine/movegen"
	"arbitre/engine/tile"
)

// TestJokers_UneMarcheParMotMemesCoupsQueChaqueBranche: counting and the
// top walk each word once for joker racks, while AllMoves still branches on
// each letter, joker or not; both find the same number of placements, and
// the tops are AllMoves' placements of the best score, in its order (the
// order the callers — the director's solutions, the simulator — rely on), on
// seeded self-play games with one and two jokers in the racks.
func TestJokers_UneMarcheParMotMemesCoupsQueChaqueBranche(t *testing.T) {
	lex, err := libre.Lexicon()
	require.NoError(t, err)
	for _, opts := range []movegen.Options{{Variant: movegen.Standard}, {Variant: movegen.SeptHuitNeuf, FirstMoveVertical: true}} {
		t.Run(opts.Variant.Name, func(t *testing.T) {
			g := movegen.New(lex, opts)
			jokers := 0
			for _, p := range selfplay.Games(lex, opts, 29, 4) {
				if p.Rack[tile.NoLetter] == 0 {
					continue
				}
				jokers++
				all, n := g.Generate(&p.Board, p.Rack, movegen.AllMoves)
				var want []string
				best := maxScore(all)
				for i := range all {
					if all[i].Score == best {
						want = append(want, fmt.Sprintf("%s %s=%d", all[i].Ref(), all[i].WordString(), all[i].Score))
					}
				}
				require.Len(t, all, n)
				_, count := g.Generate(&p.Board, p.Rack, movegen.CountOnly)
				assert.Equal(t, n, count, "rack %s\n%s", p.Rack.String(), p.Board.String())
				tops, count := g.Generate(&p.Board, p.Rack, movegen.TopOnly)
				assert.Equal(t, n, count)
				got := make([]string, len(tops))
				for i := range tops {
					got[i] = fmt.Sprintf("%s %s=%d", tops[i].Ref(), tops[i].WordString(), tops[i].Score)
				}
				assert.Equal(t, want, got, "rack %s\n%s", p.Rack.String(), p.Board.String())
			}
			require.Positive(t, jokers)
		})
	}
}

func maxScore(moves []movegen.Move) int32 {
	best := int32(-1)
	for i := range moves {
		best = max(best, moves[i].Score)
	}
	return best
}
