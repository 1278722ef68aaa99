package movegen_test

import (
	"context"
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/engine/board"
	"arbitre/engine/enginetest"
	"arbitre/engine/lexicon"
	"arbitre/engine/lexicon/libre"
	"arbitre/engine/movegen"
	"arbitre/engine/play"
	"arbitre/engine/tile"
)

// placementKey identifies a placement by the tiles it puts down, so that a
// single tile forming words both ways counts once.
func placementKey(m *movegen.Move) string {
	var parts []string
	for i := 0; i < int(m.Len); i++ {
		if m.IsPlaced(i) {
			parts = append(parts, fmt.Sprintf("%d%c", m.Square(i), m.Word[i].Byte()))
		}
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

// bruteForce finds every placement by trying every word of the list at every
// place in both directions with every choice of real tile or joker, and
// asking play.Checker: an implementation independent of the GADDAG walk.
func bruteForce(words []string, c *play.Checker, b *board.Board, rack tile.Rack, firstVertical bool) map[string]int32 {
	found := map[string]int32{}
	var res play.Result
	empty := b.IsEmpty()
	for _, w := range words {
		for _, vertical := range []bool{false, true} {
			if vertical && empty && !firstVertical {
				continue
			}
			for r := 0; r < board.Size; r++ {
				for col := 0; col < board.Size; col++ {
					ref := board.Ref{Row: r, Col: col, Vertical: vertical}
					along := col
					if vertical {
						along = r
					}
					if along+len(w) > board.Size {
						continue
					}
					word := make([]tile.Tile, len(w))
					var choose func(i int, left tile.Rack)
					choose = func(i int, left tile.Rack) {
						if i == len(w) {
							c.Check(b, ref, word, &rack, &res)
							if res.Playable() {
								m := moveOf(b, ref, word, res.Score)
								found[placementKey(&m)] = res.Score
							}
							return
						}
						l, _ := tile.LetterOf(w[i])
						sq := ref.Start() + i*ref.Step()
						if t := b.Square(sq); t != tile.Empty {
							if t.Letter() != l {
								return
							}
							word[i] = t
							choose(i+1, left)
							return
						}
						if left[l] > 0 {
							left[l]--
							word[i] = tile.Tile(l)
							choose(i+1, left)
							left[l]++
						}
						if left[tile.NoLetter] > 0 {
							left[tile.NoLetter]--
							word[i] = tile.Tile(l) | tile.JokerBit
							choose(i+1, left)
						}
					}
					choose(0, rack)
				}
			}
		}
	}
	return found
}

// moveOf builds the Move a placement corresponds to, for its key.
func moveOf(b *board.Board, ref board.Ref, word []tile.Tile, score int32) movegen.Move {
	m := movegen.Move{Row: uint8(ref.Row), Col: uint8(ref.Col), Vertical: ref.Vertical, Len: uint8(len(word)), Score: score}
	for i, t := range word {
		m.Word[i] = t
		if b.Square(ref.Start()+i*ref.Step()) == tile.Empty {
			m.Placed |= 1 << i
		}
	}
	return m
}

// libreSample returns a seeded sample of short words of the shipped list.
func libreSample(t testing.TB, n int, seed int64) []string {
	var short []string
	for _, w := range enginetest.ListeLivree(t) {
		if len(w) <= 6 {
			short = append(short, w)
		}
	}
	rng := rand.New(rand.NewSource(seed))
	rng.Shuffle(len(short), func(i, j int) { short[i], short[j] = short[j], short[i] })
	sample := short[:n]
	sort.Strings(sample)
	return sample
}

// randomGame plays greedy tops from a seeded bag and returns the positions
// met along the way (board and rack before each coup).
func randomGame(t testing.TB, g *movegen.Generator, rng *rand.Rand, coups int) (boards []board.Board, racks []tile.Rack) {
	var bag []tile.Tile
	for l := tile.Letter(0); l <= tile.Alphabet; l++ {
		for k := 0; k < l.Count(); k++ {
			bag = append(bag, tile.Tile(l))
		}
	}
	rng.Shuffle(len(bag), func(i, j int) { bag[i], bag[j] = bag[j], bag[i] })
	var b board.Board
	var rack tile.Rack
	for coup := 0; coup < coups; coup++ {
		for rack.Size() < 7 && len(bag) > 0 {
			rack[bag[0]]++
			bag = bag[1:]
		}
		boards, racks = append(boards, b), append(racks, rack)
		tops, _ := g.Generate(&b, rack, movegen.TopOnly)
		if len(tops) == 0 {
			break
		}
		m := tops[rng.Intn(len(tops))]
		for i := 0; i < int(m.Len); i++ {
			if m.IsPlaced(i) {
				sq := m.Square(i)
				b.Set(sq/board.Size, sq%board.Size, m.Word[i])
				if m.Word[i].IsJoker() {
					rack[tile.NoLetter]--
				} else {
					rack[m.Word[i].Letter()]--
				}
			}
		}
	}
	return boards, racks
}

// The generator finds exactly the placements, and the scores, that a brute
// force over the lexicon finds: edges, prefixes and suffixes through tiles,
// parallel plays, single tiles counted once, one and two jokers.
func TestGeneratorMatchesBruteForce(t *testing.T) {
	words := libreSample(t, 6000, 1)
	lex, err := lexicon.Build(lexicon.WordList{Words: words}, "sample")
	require.NoError(t, err)
	opts := movegen.Options{Variant: movegen.Standard}
	g := movegen.New(lex, opts)
	c := play.NewChecker(lex, opts)
	rng := rand.New(rand.NewSource(7))
	checked, total := 0, 0
	for game := 0; game < 3; game++ {
		boards, racks := randomGame(t, g, rng, 12)
		for i := range boards {
			rack := racks[i]
			if i%3 == 1 { // force jokers into some racks
				rack[tile.NoLetter] = uint8(1 + i%2)
			}
			want := bruteForce(words, c, &boards[i], rack, false)
			moves, count := g.Generate(&boards[i], rack, movegen.AllMoves)
			got := map[string]int32{}
			for k := range moves {
				got[placementKey(&moves[k])] = moves[k].Score
			}
			require.Equal(t, len(moves), len(got), "duplicate placement generated")
			assert.Equal(t, len(want), count, "game %d coup %d rack %s", game, i, rack.String())
			assert.Equal(t, want, got, "game %d coup %d rack %s\n%s", game, i, rack.String(), boards[i].String())
			checked++
			total += count
		}
	}
	require.Greater(t, total, 1000, "the positions must offer real choice")
	t.Logf("%d positions, %d placements checked against brute force", checked, total)
}

// Edge cases on hand-made boards: a full board has no move; the empty board
// counts horizontal placements through H8 only (§1.1, §3.4), vertical ones
// too when the classique option allows them.
func TestGeneratorEdgeCases(t *testing.T) {
	lex, err := lexicon.Compile(strings.NewReader("ZEN\nEN\nNE\n"), "test")
	require.NoError(t, err)
	rack, _ := tile.ParseRack("ZEN")
	var empty board.Board
	_, count := movegen.New(lex, movegen.Options{}).Generate(&empty, rack, movegen.CountOnly)
	assert.Equal(t, 7, count, "ZEN×3, EN×2, NE×2 through H8")
	tops, _ := movegen.New(lex, movegen.Options{}).Generate(&empty, rack, movegen.TopOnly)
	assert.Len(t, tops, 3)
	for _, m := range tops {
		assert.Equal(t, int32(24), m.Score)
		assert.True(t, m.EndsGame(true), "all three tiles down with an empty bag ends the game (§3.7)")
		assert.False(t, m.EndsGame(false))
		assert.False(t, m.UsesJoker)
	}
	withJoker := rack
	withJoker[tile.NoLetter] = 1
	tops, _ = movegen.New(lex, movegen.Options{}).Generate(&empty, withJoker, movegen.TopOnly)
	for _, m := range tops {
		assert.False(t, m.EndsGame(true), "a joker left in the rack")
	}
	_, count = movegen.New(lex, movegen.Options{FirstMoveVertical: true}).Generate(&empty, rack, movegen.CountOnly)
	assert.Equal(t, 14, count)

	var full board.Board
	for i := 0; i < board.Squares; i++ {
		full.Set(i/board.Size, i%board.Size, tile.Tile(5))
	}
	_, count = movegen.New(lex, movegen.Options{}).Generate(&full, rack, movegen.CountOnly)
	assert.Zero(t, count)
}

// Properties on the real lexicon: every generated move re-validates and
// re-scores identically with play.Checker; transposing the board transposes
// the move set; the count is stable across modes and repeated calls.
func TestGeneratorPropertiesODS8(t *testing.T) {
	lex := enginetest.ODS8(t)
	positions := enginetest.OraclePositions(t, "")
	opts := movegen.Options{Variant: movegen.Standard}
	g := movegen.New(lex, opts)
	c := play.NewChecker(lex, opts)
	var res play.Result
	for _, p := range positions {
		moves, count := g.Generate(&p.Board, p.Rack, movegen.AllMoves)
		all := append([]movegen.Move(nil), moves...)
		require.Equal(t, p.Moves, count, p.ID)
		for i := range all {
			m := &all[i]
			c.Check(&p.Board, m.Ref(), m.Word[:m.Len], &p.Rack, &res)
			require.True(t, res.Playable(), "%s: %s %s not playable (%s)", p.ID, m.WordString(), m.Ref(), res.Problem)
			require.Equal(t, m.Score, res.Score, "%s: %s %s", p.ID, m.WordString(), m.Ref())
		}
		_, again := g.Generate(&p.Board, p.Rack, movegen.CountOnly)
		assert.Equal(t, count, again, "%s: count stable", p.ID)

		if p.Board.IsEmpty() {
			continue
		}
		var tr board.Board
		p.Board.Transpose(&tr)
		trMoves, trCount := g.Generate(&tr, p.Rack, movegen.AllMoves)
		assert.Equal(t, count, trCount, "%s: transposed count", p.ID)
		want := map[string]int32{}
		for i := range all {
			want[transposedKey(&all[i])] = all[i].Score
		}
		got := map[string]int32{}
		for i := range trMoves {
			got[placementKey(&trMoves[i])] = trMoves[i].Score
		}
		require.NotEmpty(t, want, "%s: a position with moves", p.ID)
		assert.Equal(t, want, got, "%s: transposed moves", p.ID)
	}
}

// transposedKey is the key of the move mirrored about the main diagonal.
func transposedKey(m *movegen.Move) string {
	var parts []string
	for i := 0; i < int(m.Len); i++ {
		if m.IsPlaced(i) {
			sq := m.Square(i)
			parts = append(parts, fmt.Sprintf("%d%c", (sq%board.Size)*board.Size+sq/board.Size, m.Word[i].Byte()))
		}
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

// afterChecks is a context that ends after its n-th Err call: it stands for
// a client leaving while the walk is under way, deterministically.
type afterChecks struct {
	context.Context
	n int
}

func (c *afterChecks) Err() error {
	if c.n--; c.n < 0 {
		return context.Canceled
	}
	return nil
}

// Issue 11 item 4: the work stops when the request's context ends. On the
// heaviest rack the formulas allow (nine tiles of 789, two of them jokers),
// a context already ended gets context.Canceled before any placement is
// walked, and one ending mid-way stops the walk there.
func TestSecurite_GenerationAnnulee(t *testing.T) {
	lex, err := libre.Lexicon()
	require.NoError(t, err)
	rack, err := tile.ParseRack("AEIRST??E")
	require.NoError(t, err)
	var b board.Board
	for c, l := range []byte("RAINETTE") {
		sq, _ := tile.TileOf(l)
		b.Set(7, 3+c, sq)
	}
	g := movegen.New(lex, movegen.Options{Variant: movegen.SeptHuitNeuf})
	_, full, err := g.GenerateContext(context.Background(), &b, rack, movegen.CountOnly)
	require.NoError(t, err)
	require.Greater(t, full, 10000, "a heavy position")

	tests := []struct {
		name   string
		checks int
	}{
		{"ended before the start", 0},
		{"ended after three rows", 3},
		{"ended during the vertical pass", board.Size + 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := &afterChecks{Context: context.Background(), n: tc.checks}
			_, count, err := g.GenerateContext(ctx, &b, rack, movegen.AllMoves)
			assert.ErrorIs(t, err, context.Canceled)
			assert.Less(t, count, full)
			if tc.checks == 0 {
				assert.Zero(t, count, "nothing walked")
			}
		})
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	moves, count, err := g.GenerateContext(cancelled, &b, rack, movegen.TopOnly)
	assert.ErrorIs(t, err, context.Canceled)
	assert.Zero(t, count)
	assert.Empty(t, moves)
}
