package movegen_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"arbitre/engine/enginetest/selfplay"
	"arbitre/engine/movegen"
)

// TestIssue34_SuiteDeTuilesADroiteDeLAncreEpeleeDAbord: from an anchor whose
// right neighbour is a tile, every placement covers the whole run of tiles
// from there; the walk spells that run first (the GADDAG path pivoting on
// its last tile) before it puts a letter on the anchor, instead of walking
// every left part and finding only at the turn that no word goes on with
// the run. The squares the walk enters on seeded self-play games (a quarter
// of the racks with jokers) fall by about two thirds in every mode but
// AllMoves (whose order is its walk's); the count and the tops are
// unchanged (TestMarche_MemesCoupsQueLaMarcheRecursive, TestOracleODS8,
// TestTopPruned_MemesTopsQueLaGenerationComplete).
func TestIssue34_SuiteDeTuilesADroiteDeLAncreEpeleeDAbord(t *testing.T) {
	lexs := lexiques(t)
	cases := []struct {
		lexique      string
		mode         movegen.Mode
		avant, apres int // squares entered, walking from the anchor / the run first
	}{
		{"libre", movegen.CountOnly, 570220, 214617},
		{"libre", movegen.TopOnly, 570220, 214617},
		{"libre", movegen.TopPruned, 291571, 104025},
		{"ODS8", movegen.CountOnly, 715637, 245955},
		{"ODS8", movegen.TopOnly, 715637, 245955},
		{"ODS8", movegen.TopPruned, 305166, 96259},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/%d", c.lexique, c.mode), func(t *testing.T) {
			lex := lexs[c.lexique](t)
			opts := movegen.Options{Variant: movegen.Standard}
			g := movegen.New(lex, opts)
			positions := selfplay.Games(lex, opts, 53, 4)
			entrees := 0
			for i := range positions {
				g.Generate(&positions[i].Board, positions[i].Rack, c.mode)
				entrees += movegen.CasesEntrees(g)
			}
			assert.Equal(t, c.apres, entrees, "%d positions (walking from the anchor: %d)", len(positions), c.avant)
		})
	}
}
