// Package selfplay generates positions for the engine's tests and benchmarks:
// seeded greedy games (every coup plays one of the tops, as in duplicate),
// from the empty board to the endgame, with jokers forced into about a
// quarter of the racks. The same seed gives the same positions.
package selfplay

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"

	"arbitre/engine/board"
	"arbitre/engine/lexicon"
	"arbitre/engine/movegen"
	"arbitre/engine/tile"
)

// Position is a board and the rack to play on it, met in game Game at coup
// Coup with Bag tiles left in the bag.
type Position struct {
	Game, Coup, Bag int
	Board           board.Board
	Rack            tile.Rack
}

// JokerShare is the share of racks holding one or two jokers: jokers are
// forced into racks (as many as the board leaves to the French set, §1.1)
// while the share of the positions so far is below it.
const JokerShare = 0.25

// Games plays n games with the seed on lex under opts (its variant's rack
// size, §3.8.2) and returns every position met, before each coup.
func Games(lex *lexicon.Lexicon, opts movegen.Options, seed uint64, n int) []Position {
	s := &series{gen: movegen.New(lex, opts), rackSize: opts.Variant.RackSize, rng: rand.New(rand.NewPCG(seed, uint64(n)))}
	for game := range n {
		s.play(game)
	}
	return s.out
}

// series is the state of a run of games.
type series struct {
	gen      *movegen.Generator
	rackSize int
	rng      *rand.Rand
	out      []Position
	jokers   int // positions of out whose rack holds a joker
}

// play plays one game and appends its positions to s.out.
func (s *series) play(game int) {
	g, rng := s.gen, s.rng
	var bag []tile.Tile
	for l := tile.Letter(0); l <= tile.Alphabet; l++ {
		for range l.Count() {
			bag = append(bag, tile.Tile(l))
		}
	}
	rng.Shuffle(len(bag), func(i, j int) { bag[i], bag[j] = bag[j], bag[i] })
	var b board.Board
	var rack tile.Rack
	boardJokers := 0
	for coup, stuck := 1, 0; stuck < 2; coup++ {
		for rack.Size() < s.rackSize && len(bag) > 0 {
			rack[bag[0]]++
			bag = bag[1:]
		}
		if rack.Size() == 0 {
			return
		}
		p := Position{Game: game, Coup: coup, Bag: len(bag), Board: b, Rack: rack}
		below := float64(s.jokers) < JokerShare*float64(len(s.out)+1)
		if free := 2 - boardJokers - int(rack[tile.NoLetter]); free > 0 && p.Rack[tile.NoLetter] == 0 && below {
			forceJokers(&p.Rack, min(free, 1+rng.IntN(2)), rng)
		}
		if p.Rack[tile.NoLetter] > 0 {
			s.jokers++
		}
		s.out = append(s.out, p)
		tops, _ := g.Generate(&b, rack, movegen.TopOnly)
		if len(tops) == 0 {
			// No move: the tiles go back to the bag and a new rack is
			// drawn; twice in a row, or with nothing to draw, ends the game.
			stuck++
			if len(bag) == 0 {
				return
			}
			for l, k := range rack {
				for range k {
					bag = append(bag, tile.Tile(l))
				}
			}
			rack = tile.Rack{}
			rng.Shuffle(len(bag), func(i, j int) { bag[i], bag[j] = bag[j], bag[i] })
			continue
		}
		stuck = 0
		m := &tops[rng.IntN(len(tops))]
		for i := range int(m.Len) {
			if !m.IsPlaced(i) {
				continue
			}
			sq := m.Square(i)
			b.Set(sq/board.Size, sq%board.Size, m.Word[i])
			if m.Word[i].IsJoker() {
				rack[tile.NoLetter]--
				boardJokers++
			} else {
				rack[m.Word[i].Letter()]--
			}
		}
	}
}

// forceJokers replaces k letters of the rack, chosen at random, by jokers.
func forceJokers(r *tile.Rack, k int, rng *rand.Rand) {
	for ; k > 0; k-- {
		var letters []tile.Letter
		for l := tile.Letter(1); l <= tile.Alphabet; l++ {
			for range r[l] {
				letters = append(letters, l)
			}
		}
		if len(letters) == 0 {
			return
		}
		r[letters[rng.IntN(len(letters))]]--
		r[tile.NoLetter]++
	}
}

// WriteJSONL writes the positions in the input format of `arbitre engine
// solve`, one per line, named by seed, game and coup.
func WriteJSONL(w io.Writer, name string, ps []Position) error {
	enc := json.NewEncoder(w)
	for i := range ps {
		p := &ps[i]
		line := struct {
			ID    string   `json:"id"`
			Board []string `json:"board"`
			Rack  string   `json:"rack"`
		}{fmt.Sprintf("%s-g%03d-c%02d", name, p.Game, p.Coup), p.Board.Rows(), p.Rack.String()}
		if err := enc.Encode(line); err != nil {
			return err
		}
	}
	return nil
}
