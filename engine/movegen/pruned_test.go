package movegen_test

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/engine/board"
	"arbitre/engine/enginetest"
	"arbitre/engine/enginetest/selfplay"
	"arbitre/engine/lexicon"
	"arbitre/engine/lexicon/libre"
	"arbitre/engine/movegen"
	"arbitre/engine/tile"
)

// grandJeu selects the whole generated set (as in the benchmarks) instead of
// its default slice.
var grandJeu = flag.Bool("grandjeu", false, "compare the pruned top on the whole generated set")

// positionsFichier writes the normal formula's positions on ODS8 for the
// whole-file CLI benchmark (docs/engine.md).
var positionsFichier = flag.String("positions", "", "write the ODS8 normal-formula positions to this JSONL file")

// Games of the large generated set (issue 17): about 25 positions a game.
const (
	partiesGrandJeu = 120
	partiesDefaut   = 14
)

// keysInOrder renders moves as "placement=score" keys in their order: the
// pruned search lists the tops in the full generation's order, so that its
// callers (the director's solutions, the simulator) behave as before.
func keysInOrder(moves []movegen.Move) []string {
	keys := make([]string, len(moves))
	for i := range moves {
		keys[i] = fmt.Sprintf("%s=%d", placementKey(&moves[i]), moves[i].Score)
	}
	return keys
}

// lexiques are the lists the pruned search is checked on: the shipped one
// always, ODS8 when ../shared/lexicons holds it.
func lexiques(t *testing.T) map[string]func(*testing.T) *lexicon.Lexicon {
	return map[string]func(*testing.T) *lexicon.Lexicon{
		"libre": func(t *testing.T) *lexicon.Lexicon {
			lex, err := libre.Lexicon()
			require.NoError(t, err)
			return lex
		},
		"ODS8": func(t *testing.T) *lexicon.Lexicon { return enginetest.ODS8(t) },
	}
}

// TestTopPruned_MemesTopsQueLaGenerationComplete: the pruned search (shadow
// bounds, most promising anchor first, stop once no bound reaches the best)
// lists exactly the tops the full generation lists — same placements, same
// scores, every top of equal score, in the same order — on every position of seeded self-play
// games from the empty board to the endgame, a quarter of the racks with one
// or two jokers, in every formula of §3.8.2 and with the classique's
// vertical first word (§3.4). The default run takes a slice of the games;
// -grandjeu takes all of them.
func TestTopPruned_MemesTopsQueLaGenerationComplete(t *testing.T) {
	parties := partiesDefaut
	if *grandJeu {
		parties = partiesGrandJeu
	}
	cases := []struct {
		name    string
		opts    movegen.Options
		parties int
	}{
		{"normal", movegen.Options{Variant: movegen.Standard}, parties},
		{"normal premier mot vertical", movegen.Options{Variant: movegen.Standard, FirstMoveVertical: true}, 2},
		{"7sur8", movegen.Options{Variant: movegen.SeptSurHuit}, 2},
		{"7et8", movegen.Options{Variant: movegen.SeptEtHuit}, 2},
		{"789", movegen.Options{Variant: movegen.SeptHuitNeuf, FirstMoveVertical: true}, 2},
	}
	for name, load := range lexiques(t) {
		t.Run(name, func(t *testing.T) {
			lex := load(t)
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					positions := selfplay.Games(lex, tc.opts, 17, tc.parties)
					if *positionsFichier != "" && name == "ODS8" && tc.name == "normal" {
						f, err := os.Create(*positionsFichier)
						require.NoError(t, err)
						require.NoError(t, selfplay.WriteJSONL(f, "ods8", positions))
						require.NoError(t, f.Close())
					}
					full, pruned := movegen.New(lex, tc.opts), movegen.New(lex, tc.opts)
					var jokers, endgame, empty int
					for i := range positions {
						p := &positions[i]
						want, _ := full.Generate(&p.Board, p.Rack, movegen.TopOnly)
						got, count := pruned.Generate(&p.Board, p.Rack, movegen.TopPruned)
						require.Equal(t, keysInOrder(want), keysInOrder(got), "game %d coup %d rack %s\n%s",
							p.Game, p.Coup, p.Rack.String(), p.Board.String())
						assert.Zero(t, count, "the pruned search does not count")
						if p.Rack[tile.NoLetter] > 0 {
							jokers++
						}
						if p.Bag == 0 {
							endgame++
						}
						if p.Board.IsEmpty() {
							empty++
						}
					}
					t.Logf("%d positions: %d empty boards, %d with jokers, %d with the bag empty", len(positions), empty, jokers, endgame)
					require.Positive(t, empty)
					require.Positive(t, endgame, "endgame positions are checked")
					require.Greater(t, jokers*6, len(positions), "joker racks are checked")
				})
			}
		})
	}
}

// TestTopPruned_CasLimites: hand-made positions where a bound is tight —
// the first word (H8, §3.4, horizontal only in duplicate), six tops of equal
// score (ZEN and NEZ three times each), a rack of jokers only (value 0), no
// move at all, a full board.
func TestTopPruned_CasLimites(t *testing.T) {
	lex, err := lexicon.Compile(strings.NewReader("ZEN\nEN\nNE\nNEZ\n"), "test")
	require.NoError(t, err)
	var empty, full board.Board
	for i := range board.Squares {
		full.Set(i/board.Size, i%board.Size, tile.Tile(5))
	}
	cases := []struct {
		name     string
		board    *board.Board
		rack     string
		vertical bool
		tops     int
		score    int32
	}{
		{"premier coup horizontal", &empty, "ZEN", false, 6, 24},
		{"premier coup vertical permis", &empty, "ZEN", true, 12, 24},
		{"jokers seuls", &empty, "??", false, 4, 0},
		{"joker et lettres", &empty, "Z?N", false, 6, 22},
		{"aucun coup", &empty, "Q", false, 0, 0},
		{"grille pleine", &full, "ZEN", false, 0, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rack, err := tile.ParseRack(tc.rack)
			require.NoError(t, err)
			opts := movegen.Options{FirstMoveVertical: tc.vertical}
			want, _ := movegen.New(lex, opts).Generate(tc.board, rack, movegen.TopOnly)
			got, _ := movegen.New(lex, opts).Generate(tc.board, rack, movegen.TopPruned)
			assert.Equal(t, keysInOrder(want), keysInOrder(got))
			require.Len(t, got, tc.tops, keysInOrder(got))
			for _, m := range got {
				assert.Equal(t, tc.score, m.Score)
			}
		})
	}
}

// TestGenerator_CroisementsGardesEntreDeuxAppels: a generator keeps the
// cross-sets of the columns a call finds unchanged since its previous one
// (the robot's next move, the director's next coup). Reused on positions
// taken in a shuffled order — tiles added and removed between calls, a
// column changed by one tile, another game's board — it finds exactly what
// a new generator finds on each position, in every mode.
func TestGenerator_CroisementsGardesEntreDeuxAppels(t *testing.T) {
	lex, err := libre.Lexicon()
	require.NoError(t, err)
	opts := movegen.Options{Variant: movegen.Standard, FirstMoveVertical: true}
	positions := selfplay.Games(lex, opts, 23, 4)
	order := rand.New(rand.NewPCG(5, 8)).Perm(len(positions))
	// shuffled first, then the games in order (the usual sequence)
	sequence := append(make([]int, 0, 2*len(positions)), order...)
	for i := range positions {
		sequence = append(sequence, i)
	}
	reused := movegen.New(lex, opts)
	for _, mode := range []movegen.Mode{movegen.AllMoves, movegen.TopPruned} {
		for _, i := range sequence {
			p := &positions[i]
			want, wantCount := movegen.New(lex, opts).Generate(&p.Board, p.Rack, mode)
			wantKeys := keysInOrder(want)
			got, count := reused.Generate(&p.Board, p.Rack, mode)
			require.Equal(t, wantCount, count, "mode %d game %d coup %d", mode, p.Game, p.Coup)
			require.Equal(t, wantKeys, keysInOrder(got), "mode %d game %d coup %d rack %s\n%s", mode, p.Game, p.Coup, p.Rack.String(), p.Board.String())
		}
	}
}

// ctxInterrompu ends after its first n questions: a search stopped between
// two anchors, as by a request's deadline.
type ctxInterrompu struct {
	context.Context
	n int
}

func (c *ctxInterrompu) Err() error {
	if c.n == 0 {
		return context.DeadlineExceeded
	}
	c.n--
	return nil
}

// TestGenerator_RechercheInterrompueSansEffetSurLaSuivante: a pruned search
// stopped by its context between two anchors — where the walk may have
// limited the letters the jokers stand for, to those of the anchor's
// placements of the whole rack — leaves nothing behind: the generator's
// next full generation finds exactly what a new generator finds.
func TestGenerator_RechercheInterrompueSansEffetSurLaSuivante(t *testing.T) {
	lex := enginetest.ODS8(t)
	opts := movegen.Options{Variant: movegen.Standard}
	positions := selfplay.Games(lex, opts, 17, partiesDefaut)
	g := movegen.New(lex, opts)
	jokers := 0
	for i := range positions {
		p := &positions[i]
		if p.Rack[tile.NoLetter] == 0 {
			continue
		}
		jokers++
		want, wantCount := movegen.New(lex, opts).Generate(&p.Board, p.Rack, movegen.TopOnly)
		wantKeys := keysInOrder(want)
		for n := 1; n <= 6; n++ {
			_, _, err := g.GenerateContext(&ctxInterrompu{Context: context.Background(), n: n}, &p.Board, p.Rack, movegen.TopPruned)
			if err == nil {
				break
			}
			got, count := g.Generate(&p.Board, p.Rack, movegen.TopOnly)
			require.Equal(t, wantCount, count, "game %d coup %d rack %s, stopped after %d anchors", p.Game, p.Coup, p.Rack.String(), n)
			require.Equal(t, wantKeys, keysInOrder(got), "game %d coup %d rack %s", p.Game, p.Coup, p.Rack.String())
		}
	}
	require.Positive(t, jokers)
}
