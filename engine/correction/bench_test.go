package correction

import (
	"math/rand/v2"
	"sort"
	"testing"

	"arbitre/engine/board"
	"arbitre/engine/lexicon"
	"arbitre/engine/lexicon/libre"
	"arbitre/engine/movegen"
	"arbitre/engine/tile"
)

// simulatedCoup is one coup of a simulated game and its players' bulletins.
type simulatedCoup struct {
	ctx       Context
	bulletins []Bulletin
}

// simulateGame plays a duplicate game of coups tops with the shipped lexicon
// and writes, for each coup, the bulletins of players: solutions drawn among
// the legal moves (the top more often), with the usual mistakes (score wrong
// or missing, reference offset or inverted, raccord letters, circling).
func simulateGame(tb testing.TB, lex *lexicon.Lexicon, coups, players int, seed uint64) []simulatedCoup {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	var bag []tile.Letter
	for l := tile.Letter(0); l <= tile.Alphabet; l++ {
		for i := 0; i < l.Count(); i++ {
			bag = append(bag, l)
		}
	}
	rng.Shuffle(len(bag), func(i, j int) { bag[i], bag[j] = bag[j], bag[i] })
	gen := movegen.New(lex, movegen.Options{Variant: movegen.Standard})
	var b board.Board
	var rack tile.Rack
	firstLen := 0
	var out []simulatedCoup
	for coup := 1; coup <= coups; coup++ {
		for rack.Size() < 7 && len(bag) > 0 {
			rack[bag[len(bag)-1]]++
			bag = bag[:len(bag)-1]
		}
		moves, _ := gen.Generate(&b, rack, movegen.AllMoves)
		if len(moves) == 0 {
			break
		}
		ms := append([]movegen.Move(nil), moves...)
		sort.Slice(ms, func(i, j int) bool { return ms[i].Score > ms[j].Score })
		sc := simulatedCoup{ctx: Context{Board: b.Rows(), Tirage: rack.String(), Coup: coup, FirstWordLength: firstLen}}
		for p := 0; p < players; p++ {
			m := &ms[0]
			if rng.IntN(10) >= 4 {
				m = &ms[rng.IntN(min(len(ms), 60))]
			}
			sc.bulletins = append(sc.bulletins, Bulletin{Solutions: []Solution{writeSolution(rng, &b, m)}})
		}
		out = append(out, sc)
		top := &ms[0]
		for i := 0; i < int(top.Len); i++ {
			if top.IsPlaced(i) {
				sq := top.Square(i)
				b.Set(sq/board.Size, sq%board.Size, top.Word[i])
				if top.Word[i].IsJoker() {
					rack[tile.NoLetter]--
				} else {
					rack[top.Word[i].Letter()]--
				}
			}
		}
		if coup == 1 {
			firstLen = int(top.Len)
		}
	}
	return out
}

// writeSolution writes move m on a bulletin, with a player's usual mistakes.
func writeSolution(rng *rand.Rand, b *board.Board, m *movegen.Move) Solution {
	var word []byte
	for i := 0; i < int(m.Len); i++ {
		c := m.Word[i].Letter().Byte()
		if m.Word[i].IsJoker() && m.IsPlaced(i) && rng.IntN(5) > 0 {
			word = append(word, '(', c, ')')
			continue
		}
		word = append(word, c)
	}
	s := Solution{Word: string(word), Written: "h"}
	if m.Vertical {
		s.Written = "v"
	}
	r := m.Ref()
	scoreValue := int(m.Score)
	switch k := rng.IntN(20); {
	case k < 2:
		scoreValue += 1 + rng.IntN(5)
	case k < 4 && r.Row > 0:
		r.Row--
	case k == 4:
		r = board.Ref{Row: r.Row, Col: r.Col, Vertical: !r.Vertical}
	case k == 5:
		s.Score = nil
	}
	if s.Score == nil && rng.IntN(20) != 5 {
		s.Score = &scoreValue
	}
	if rng.IntN(4) == 0 {
		// Raccord letters: the grid letters touching the word.
		for i := 0; i < int(m.Len) && len(s.Raccord) < 3; i++ {
			sq := m.Square(i)
			for _, d := range [][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
				rr, cc := sq/board.Size+d[0], sq%board.Size+d[1]
				if rr < 0 || rr >= board.Size || cc < 0 || cc >= board.Size || b.At(rr, cc) == tile.Empty {
					continue
				}
				dr, dc := rr-int(m.Row), cc-int(m.Col)
				if (m.Vertical && dc == 0) || (!m.Vertical && dr == 0) {
					continue
				}
				s.Raccord = append(s.Raccord, RaccordLetter{Letter: string(b.At(rr, cc).Letter().Byte()), DR: dr, DC: dc})
			}
		}
		return s
	}
	ref := r.String()
	s.Ref = &ref
	return s
}

// BenchmarkCorrectGame corrects the 7,500 bulletins of a simulated game of
// 300 players × 25 coups (one op), the coups prepared (top included).
func BenchmarkCorrectGame(b *testing.B) {
	lex, err := libre.Lexicon()
	if err != nil {
		b.Fatal(err)
	}
	game := simulateGame(b, lex, 25, 300, 2020)
	n := 0
	for _, c := range game {
		n += len(c.bulletins)
	}
	x := NewCorrector(lex)
	b.ResetTimer()
	for range b.N {
		for i := range game {
			cp, err := NewCoup(lex, game[i].ctx)
			if err != nil {
				b.Fatal(err)
			}
			for j := range game[i].bulletins {
				x.Decide(cp, &game[i].bulletins[j])
			}
		}
	}
	b.ReportMetric(float64(n), "bulletins/op")
}

// TestSimulatedGameInvariants corrects a smaller simulated game and checks
// every decision's invariants on real positions.
func TestSimulatedGameInvariants(t *testing.T) {
	lex, err := libre.Lexicon()
	if err != nil {
		t.Fatal(err)
	}
	x := NewCorrector(lex)
	counts := map[Sanction]int{}
	for _, c := range simulateGame(t, lex, 12, 40, 7) {
		cp, err := NewCoup(lex, c.ctx)
		if err != nil {
			t.Fatal(err)
		}
		for j := range c.bulletins {
			if err := c.bulletins[j].Validate(); err != nil {
				t.Fatal(err)
			}
			d := x.Decide(cp, &c.bulletins[j])
			checkDecision(t, cp, &c.bulletins[j], d)
			counts[d.Sanction]++
		}
	}
	t.Logf("sanctions: %v", counts)
	if counts[None] == 0 || counts[Warning] == 0 {
		t.Fatalf("a realistic game gives clean bulletins and warnings: %v", counts)
	}
}
