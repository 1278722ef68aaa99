package movegen_test

import (
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
// of the racks with jokers) fall by about two thirds, in CountOnly and
// TopOnly alike; the count and the tops are unchanged
// (TestMarche_MemesCoupsQueLaMarcheRecursive, TestOracleODS8).
func TestIssue34_SuiteDeTuilesADroiteDeLAncreEpeleeDAbord(t *testing.T) {
	lexs := lexiques(t)
	cases := []struct {
		lexique      string
		avant, apres int // squares entered, walking from the anchor / the run first
	}{
		{"libre", 570220, 214617},
		{"ODS8", 715637, 245955},
	}
	for _, c := range cases {
		t.Run(c.lexique, func(t *testing.T) {
			lex := lexs[c.lexique](t)
			opts := movegen.Options{Variant: movegen.Standard}
			g := movegen.New(lex, opts)
			positions := selfplay.Games(lex, opts, 53, 4)
			for _, mode := range []movegen.Mode{movegen.CountOnly, movegen.TopOnly} {
				entrees := 0
				for i := range positions {
					g.Generate(&positions[i].Board, positions[i].Rack, mode)
					entrees += movegen.CasesEntrees(g)
				}
				assert.Equal(t, c.apres, entrees, "mode %d, %d positions (walking from the anchor: %d)", mode, len(positions), c.avant)
			}
		})
	}
}
