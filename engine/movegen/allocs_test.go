package movegen_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/engine/board"
	"arbitre/engine/lexicon/libre"
	"arbitre/engine/movegen"
	"arbitre/engine/play"
	"arbitre/engine/tile"
)

// positionFixe is a grid holding MAISON at H4, the shipped lexicon's
// generator and checker for it.
func positionFixe(t *testing.T) (*board.Board, *movegen.Generator, *play.Checker) {
	t.Helper()
	lex, err := libre.Lexicon()
	require.NoError(t, err)
	var b board.Board
	ref, err := board.ParseRef("H4")
	require.NoError(t, err)
	word, err := play.ParseWord("MAISON")
	require.NoError(t, err)
	for i, sq := 0, ref.Start(); i < len(word); i, sq = i+1, sq+ref.Step() {
		b.Set(sq/board.Size, sq%board.Size, word[i])
	}
	opts := movegen.Options{Variant: movegen.Standard}
	return &b, movegen.New(lex, opts), play.NewChecker(lex, opts)
}

// TestAllocs_GenerationSansAllocation: the engine's promise (docs/engine.md)
// that move generation allocates nothing once its buffers are warm, for the
// top and for all moves, jokers included.
func TestAllocs_GenerationSansAllocation(t *testing.T) {
	b, g, _ := positionFixe(t)
	for _, chevalet := range []string{"AEINRST", "ETUDIS?", "??ELRST"} {
		for _, mode := range []movegen.Mode{movegen.TopOnly, movegen.TopPruned, movegen.AllMoves} {
			t.Run(fmt.Sprintf("%s/%v", chevalet, mode), func(t *testing.T) {
				r, err := tile.ParseRack(chevalet)
				require.NoError(t, err)
				moves, _ := g.Generate(b, r, mode) // warms the buffers
				require.NotEmpty(t, moves, "a position without any move proves nothing")
				assert.Zero(t, testing.AllocsPerRun(20, func() { g.Generate(b, r, mode) }))
			})
		}
	}
}

// TestAllocs_VerificationSansAllocation: checking one move allocates
// nothing, a joker in the word included.
func TestAllocs_VerificationSansAllocation(t *testing.T) {
	b, g, c := positionFixe(t)
	r, err := tile.ParseRack("ETUDIS?")
	require.NoError(t, err)
	moves, _ := g.Generate(b, r, movegen.TopOnly)
	require.NotEmpty(t, moves)
	top := moves[0]
	word := top.Word[:top.Len]
	var res play.Result
	c.Check(b, top.Ref(), word, &r, &res)
	require.True(t, res.Playable(), "the top checks as playable")
	assert.Zero(t, testing.AllocsPerRun(20, func() { c.Check(b, top.Ref(), word, &r, &res) }))
}
