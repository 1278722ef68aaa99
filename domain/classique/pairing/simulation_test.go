package pairing

import (
	"fmt"
	"math/rand"
	"slices"
)

// simulation plays a random tournament round by round with Propose, keeping
// the state a tournament aggregate would keep.
type simulation struct {
	rng     *rand.Rand
	players []Player
	history []Meeting
	byes    map[PlayerID]int
}

func newSimulation(rng *rand.Rand, size int) *simulation {
	s := &simulation{rng: rng, byes: map[PlayerID]int{}}
	for i := range size {
		s.players = append(s.players, Player{ID: PlayerID(fmt.Sprintf("p%03d", i)), Cote: 600 + rng.Intn(1400)})
	}
	return s
}

func (s *simulation) request(round int, method Method) Request {
	return Request{Round: round, Method: method, Players: slices.Clone(s.players), History: slices.Clone(s.history)}
}

// record applies a proposal with random results (win 3, draw 2, loss 1; the
// bye counts as a win).
func (s *simulation) record(round int, p Proposal) {
	index := map[PlayerID]int{}
	for i, pl := range s.players {
		index[pl.ID] = i
	}
	for _, t := range p.Tables {
		first, second := &s.players[index[t.First]], &s.players[index[t.Second]]
		first.Starts++
		s.history = append(s.history, Meeting{Round: round, First: t.First, Second: t.Second})
		spread := s.rng.Intn(200) - 100
		switch {
		case spread > 0:
			first.MatchPoints, second.MatchPoints = first.MatchPoints+3, second.MatchPoints+1
		case spread < 0:
			first.MatchPoints, second.MatchPoints = first.MatchPoints+1, second.MatchPoints+3
		default:
			first.MatchPoints, second.MatchPoints = first.MatchPoints+2, second.MatchPoints+2
		}
		first.Spread, second.Spread = first.Spread+spread, second.Spread-spread
	}
	if p.Bye != "" {
		b := &s.players[index[p.Bye]]
		b.HadBye = true
		b.MatchPoints += 3
		b.Spread += 50
		s.byes[p.Bye]++
	}
}
