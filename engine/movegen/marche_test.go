package movegen_test

import (
	"crypto/sha256"
	"fmt"
	"hash"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/engine/enginetest"
	"arbitre/engine/enginetest/selfplay"
	"arbitre/engine/lexicon"
	"arbitre/engine/lexicon/libre"
	"arbitre/engine/movegen"
)

// TestMarche_MemesCoupsQueLaMarcheRecursive: the walk with an explicit stack
// (issue 34 item 4) finds exactly what the recursive walk it replaced found,
// on fixed positions (seeded self-play games, jokers forced into a quarter
// of the racks, normal formula and 789 with the vertical first word): every
// placement of AllMoves in its order with every field, CountOnly's count,
// TopOnly's tops and count, TopPruned's tops. The digests were computed with
// the recursive walk (main 2ddabe5); any placement, score, field or order
// that differs changes them.
func TestMarche_MemesCoupsQueLaMarcheRecursive(t *testing.T) {
	libreLex, err := libre.Lexicon()
	require.NoError(t, err)
	cases := []struct {
		nom       string
		lex       func(t *testing.T) *lexicon.Lexicon
		opts      movegen.Options
		parties   int
		empreinte string
	}{
		{"libre/normal", func(*testing.T) *lexicon.Lexicon { return libreLex }, movegen.Options{Variant: movegen.Standard}, 6, "c5d9bf6f83dbe9ab9184725eb46e7a8b9a6d30f0fd0bf942b29776eb59b2b0d2"},
		{"libre/789", func(*testing.T) *lexicon.Lexicon { return libreLex }, movegen.Options{Variant: movegen.SeptHuitNeuf, FirstMoveVertical: true}, 6, "8c392c465d9b072df67f8e317e70428926bd7029b93f11b1b28381d09b74b6a1"},
		{"ODS8/normal", func(t *testing.T) *lexicon.Lexicon { return enginetest.ODS8(t) }, movegen.Options{Variant: movegen.Standard}, 3, "799b6653058283809b9ad101b449d23dc6bed884e9583ad95d6eaeb7d134e20e"},
	}
	for _, c := range cases {
		t.Run(c.nom, func(t *testing.T) {
			lex := c.lex(t)
			g := movegen.New(lex, c.opts)
			h := sha256.New()
			positions := selfplay.Games(lex, c.opts, 53, c.parties)
			for i := range positions {
				p := &positions[i]
				all, n := g.Generate(&p.Board, p.Rack, movegen.AllMoves)
				fmt.Fprintf(h, "position %d all %d\n", i, n)
				ecrireCoups(h, all)
				_, n = g.Generate(&p.Board, p.Rack, movegen.CountOnly)
				fmt.Fprintf(h, "count %d\n", n)
				tops, n := g.Generate(&p.Board, p.Rack, movegen.TopOnly)
				fmt.Fprintf(h, "top %d\n", n)
				ecrireCoups(h, tops)
				tops, _ = g.Generate(&p.Board, p.Rack, movegen.TopPruned)
				fmt.Fprintf(h, "pruned\n")
				ecrireCoups(h, tops)
			}
			assert.Equal(t, c.empreinte, fmt.Sprintf("%x", h.Sum(nil)), "%d positions", len(positions))
		})
	}
}

// ecrireCoups writes every field of each move, in order.
func ecrireCoups(h hash.Hash, moves []movegen.Move) {
	for i := range moves {
		m := &moves[i]
		fmt.Fprintf(h, "%s %s %d %b %d %t %t\n", m.Ref(), m.WordString(), m.Score, m.Placed, m.NPlaced, m.UsesJoker, m.EmptiesRack)
	}
}
