package movegen_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/engine/board"

	"arbitre/engine/enginetest/selfplay"
	"arbitre/engine/lexicon"
	"arbitre/engine/movegen"
	"arbitre/engine/tile"
)

// TestIssue34_SuiteDeTuilesADroiteDeLAncreEpeleeDAbord: from an anchor whose
// right neighbour is a tile, every placement covers the whole run of tiles
// from there; the walk spells that run first (the GADDAG path pivoting on
// its last tile) before it puts a letter on the anchor, instead of walking
// every left part and finding only at the turn that no word goes on with
// the run. Likewise from an anchor with a run on its left and none on its
// right: the run, from its last tile, and the turn first, the anchor then
// being the right part's first square. The squares the walk enters on
// seeded self-play games (a quarter of the racks with jokers) fall by about
// two thirds in every mode but AllMoves (whose order is its walk's); the
// count and the tops are unchanged (TestIssue34_SuiteDeTuiles_CasLimites,
// TestMarche_MemesCoupsQueLaMarcheRecursive, TestOracleODS8,
// TestTopPruned_MemesTopsQueLaGenerationComplete). With the right run only
// (commit 5d5277c): libre 214,617 and 104,025, ODS8 245,955 and 96,259.
func TestIssue34_SuiteDeTuilesADroiteDeLAncreEpeleeDAbord(t *testing.T) {
	lexs := lexiques(t)
	cases := []struct {
		lexique      string
		mode         movegen.Mode
		avant, apres int // squares entered, walking from the anchor / the runs first
	}{
		{"libre", movegen.CountOnly, 570220, 195100},
		{"libre", movegen.TopOnly, 570220, 195100},
		{"libre", movegen.TopPruned, 291571, 97763},
		{"ODS8", movegen.CountOnly, 715637, 219704},
		{"ODS8", movegen.TopOnly, 715637, 219704},
		{"ODS8", movegen.TopPruned, 305166, 88755},
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

// TestIssue34_SuiteDeTuiles_CasLimites: where the run right of the anchor
// reaches the edge, where the anchor sits in a hole between two runs, single
// tiles on the first and last columns, and the same board turned (the
// vertical pass), with no joker, one and two: CountOnly, TopOnly and
// TopPruned find exactly what AllMoves — which keeps the walk from the
// anchor, its order being its walk's — lists: the count, and the placements
// of the best score in its order. On a list of two words, the placements
// that end on the run (recorded before any turn) are listed whole.
func TestIssue34_SuiteDeTuiles_CasLimites(t *testing.T) {
	petit, err := lexicon.Compile(strings.NewReader("AMER\nRAMER\nLAMER\n"), "test")
	require.NoError(t, err)
	cases := []struct {
		nom    string
		lex    *lexicon.Lexicon
		lignes map[int]string // row -> its 15 squares
		rack   string
		tops   []string // nil: checked against AllMoves only
	}{
		{"suite au bord", petit, map[int]string{7: "............MER"}, "AR", []string{"H11 RAMER=7"}},
		{"suite au milieu", petit, map[int]string{7: ".....MER......."}, "A?", []string{"H4 lAMER=5", "H4 rAMER=5", "H5 AMER=5"}},
		{"ancre entre deux suites", petit, map[int]string{7: "...LA.ER......."}, "M", []string{"H4 LAMER=6"}},
		{"libre", lexiques(t)["libre"](t), map[int]string{
			1: "..........RIVES", 3: "...LA.MER......", 5: "S.............E", 7: ".....CHANTE....",
			9: "..O.......T.ET.", 10: "..U............", 11: "..I.......SOL..", 13: "....PAR.MI.....",
		}, "", nil},
	}
	for _, c := range cases {
		lignes := make([]string, board.Size)
		for r := range lignes {
			lignes[r] = strings.Repeat(".", board.Size)
			if l, ok := c.lignes[r]; ok {
				lignes[r] = l
			}
		}
		droit, err := board.Parse(lignes)
		require.NoError(t, err)
		var tourne board.Board
		droit.Transpose(&tourne)
		racks := []string{c.rack}
		if c.rack == "" {
			racks = []string{"AEIRSTU", "AE?RSTN", "?E?RST"}
		}
		g := movegen.New(c.lex, movegen.Options{Variant: movegen.Standard})
		for _, grille := range []struct {
			nom string
			b   *board.Board
		}{{"droit", &droit}, {"tourne", &tourne}} {
			for _, chevalet := range racks {
				t.Run(c.nom+"/"+grille.nom+"/"+chevalet, func(t *testing.T) {
					rack, err := tile.ParseRack(chevalet)
					require.NoError(t, err)
					all, n := g.Generate(grille.b, rack, movegen.AllMoves)
					require.Positive(t, n)
					var want []string
					best := maxScore(all)
					for i := range all {
						if all[i].Score == best {
							want = append(want, fmt.Sprintf("%s %s=%d", all[i].Ref(), all[i].WordString(), all[i].Score))
						}
					}
					_, count := g.Generate(grille.b, rack, movegen.CountOnly)
					assert.Equal(t, n, count)
					tops, count := g.Generate(grille.b, rack, movegen.TopOnly)
					assert.Equal(t, n, count)
					assert.Equal(t, want, coupsEcrits(tops))
					if c.tops != nil && grille.nom == "droit" {
						assert.Equal(t, c.tops, coupsEcrits(tops))
					}
					tops, _ = g.Generate(grille.b, rack, movegen.TopPruned)
					assert.Equal(t, want, coupsEcrits(tops))
				})
			}
		}
	}
}

// coupsEcrits renders moves as "ref word=score" in their order.
func coupsEcrits(moves []movegen.Move) []string {
	out := make([]string, len(moves))
	for i := range moves {
		out[i] = fmt.Sprintf("%s %s=%d", moves[i].Ref(), moves[i].WordString(), moves[i].Score)
	}
	return out
}
