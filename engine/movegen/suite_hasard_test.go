package movegen_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"arbitre/engine/board"
	"arbitre/engine/lexicon"
	"arbitre/engine/movegen"
	"arbitre/engine/tile"
)

// grillesHasard is the number of random boards of
// TestIssue34_SuiteDeTuiles_GrillesAuHasard (four racks each): more for a
// longer search.
var grillesHasard = flag.Int("grilles", 160, "random boards of TestIssue34_SuiteDeTuiles_GrillesAuHasard")

// TestIssue34_SuiteDeTuiles_GrillesAuHasard: the runs of tiles beside the
// anchor spelled first (séance 12) checked against AllMoves, which keeps the
// walk from the anchor, on seeded random boards no game reaches: a dense
// list over five letters (most strings of two to four letters are words,
// some of up to nine), boards filled square by square from a fifth to
// nearly full (runs touching the edges, one-square holes between two runs,
// runs on both sides of an anchor, full rows, lone tiles in the corners), a
// letter in no word among the tiles, racks of one tile to the formula's
// size with no joker, one or two, every formula of §3.8.2, the classique's
// vertical first word. CountOnly and TopOnly count what AllMoves lists;
// TopOnly and TopPruned list its placements of the best score, every field
// of each, in its order.
func TestIssue34_SuiteDeTuiles_GrillesAuHasard(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 12))
	lex := listeDense(t, rng)
	formules := []movegen.Options{
		{Variant: movegen.Standard},
		{Variant: movegen.Standard, FirstMoveVertical: true},
		{Variant: movegen.SeptSurHuit},
		{Variant: movegen.SeptEtHuit},
		{Variant: movegen.SeptHuitNeuf, FirstMoveVertical: true},
	}
	grilles := *grillesHasard
	var coups, tops, joker, vides int
	for i := range grilles {
		opts := formules[i%len(formules)]
		b := grilleAuHasard(rng, i)
		g := movegen.New(lex, opts)
		for range 4 {
			rack := chevaletAuHasard(rng, opts.Variant.RackSize)
			all, n := g.Generate(&b, rack, movegen.AllMoves)
			want := []string{}
			best := maxScore(all)
			for k := range all {
				if all[k].Score == best {
					want = append(want, coupComplet(&all[k]))
				}
			}
			quoi := fmt.Sprintf("board %d (%s, vertical first %t), rack %s\n%s", i, opts.Variant.Name,
				opts.FirstMoveVertical, rack.String(), strings.Join(b.Rows(), "\n"))
			_, count := g.Generate(&b, rack, movegen.CountOnly)
			require.Equal(t, n, count, "CountOnly: %s", quoi)
			got, count := g.Generate(&b, rack, movegen.TopOnly)
			require.Equal(t, n, count, "TopOnly: %s", quoi)
			require.Equal(t, want, coupsComplets(got), "TopOnly: %s", quoi)
			got, _ = g.Generate(&b, rack, movegen.TopPruned)
			require.Equal(t, want, coupsComplets(got), "TopPruned: %s", quoi)
			coups, tops = coups+n, tops+len(want)
			if rack[tile.NoLetter] > 0 {
				joker++
			}
			if n == 0 {
				vides++
			}
		}
	}
	t.Logf("%d boards, %d racks (%d with a joker, %d without a placement): %d placements, %d tops",
		grilles, 4*grilles, joker, vides, coups, tops)
}

// lettresDenses are the letters of listeDense's words; K is in none.
const lettresDenses = "AERST"

// listeDense is a seeded list over lettresDenses where a word is likely to
// go on with any run of tiles: most strings of two and three letters, a
// third of those of four, a fifth of five, fewer beyond, some of seven to
// nine (whole racks of the larger formulas).
func listeDense(t *testing.T, rng *rand.Rand) *lexicon.Lexicon {
	var mots strings.Builder
	var suite func(prefixe string, n int, p float64)
	suite = func(prefixe string, n int, p float64) {
		if len(prefixe) == n {
			if rng.Float64() < p {
				mots.WriteString(prefixe + "\n")
			}
			return
		}
		for _, l := range lettresDenses {
			suite(prefixe+string(l), n, p)
		}
	}
	for n, p := range []float64{2: 0.7, 3: 0.5, 4: 0.3, 5: 0.2, 6: 0.08} {
		suite("", n, p)
	}
	for n := 7; n <= 9; n++ {
		for range 1500 {
			var w []byte
			for range n {
				w = append(w, lettresDenses[rng.IntN(len(lettresDenses))])
			}
			mots.WriteString(string(w) + "\n")
		}
	}
	lex, err := lexicon.Compile(strings.NewReader(mots.String()), "dense")
	require.NoError(t, err)
	return lex
}

// grilleAuHasard is a seeded board of the kind i selects: empty; a few
// tiles on the edges and corners; or filled square by square with a
// density from a fifth to nine tenths, some rows full.
func grilleAuHasard(rng *rand.Rand, i int) board.Board {
	var b board.Board
	lettre := func() tile.Tile {
		if rng.IntN(20) == 0 {
			return tile.Tile('K' - 'A' + 1)
		}
		t := tile.Tile(lettreDense(rng))
		if rng.IntN(15) == 0 {
			t |= tile.JokerBit
		}
		return t
	}
	const last = board.Size - 1
	switch k := i % 8; k {
	case 0:
		if i%16 == 0 {
			return b
		}
		for range 1 + rng.IntN(6) {
			r, c := []int{0, last}[rng.IntN(2)], rng.IntN(board.Size)
			if rng.IntN(2) == 0 {
				r, c = c, r
			}
			b.Set(r, c, lettre())
		}
	default:
		p := []float64{0.2, 0.3, 0.4, 0.5, 0.6, 0.75, 0.9}[k-1]
		for r := range board.Size {
			q := p
			if rng.IntN(10) == 0 {
				q = 1
			}
			for c := range board.Size {
				if rng.Float64() < q {
					b.Set(r, c, lettre())
				}
			}
		}
	}
	return b
}

// lettreDense is one of lettresDenses at random.
func lettreDense(rng *rand.Rand) tile.Letter {
	return tile.Letter(lettresDenses[rng.IntN(len(lettresDenses))] - 'A' + 1)
}

// chevaletAuHasard is a seeded rack of one tile to size: letters of the
// dense list, now and then K, and no joker, one or two.
func chevaletAuHasard(rng *rand.Rand, size int) tile.Rack {
	var rack tile.Rack
	n := 1 + rng.IntN(size)
	jokers := min(n, []int{0, 0, 1, 2}[rng.IntN(4)])
	rack[tile.NoLetter] = uint8(jokers)
	for range n - jokers {
		if rng.IntN(12) == 0 {
			rack['K'-'A'+1]++
			continue
		}
		rack[lettreDense(rng)]++
	}
	return rack
}

// coupComplet renders every field of a move.
func coupComplet(m *movegen.Move) string {
	return fmt.Sprintf("%s %s=%d placed %b n %d joker %t vide %t", m.Ref(), m.WordString(), m.Score, m.Placed,
		m.NPlaced, m.UsesJoker, m.EmptiesRack)
}

// coupsComplets renders moves as coupComplet does, in their order.
func coupsComplets(moves []movegen.Move) []string {
	out := make([]string, len(moves))
	for i := range moves {
		out[i] = coupComplet(&moves[i])
	}
	return out
}
