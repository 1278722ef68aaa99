package pairing

import (
	"fmt"
	"math/rand"
	"testing"
)

// BenchmarkProposerRonde1000 proposes one Swiss round of a 1,000-player
// tournament after seeded results: round 1 by cote (as a director and
// `arbitre simulate classique` do), then Swiss rounds paired by Propose,
// with random wins, draws and losses. Round 2 has the largest score groups
// (about 500 players each, the hardest matching), round 5 is typical and
// round 11 has the most history (repeats to avoid, start balances).
func BenchmarkProposerRonde1000(b *testing.B) {
	s := newSimulation(rand.New(rand.NewSource(2026)), 1000)
	requests := map[int]Request{}
	for round := 1; round <= 11; round++ {
		method := Swiss
		if round == 1 {
			method = InitialByCote
		}
		req := s.request(round, method)
		requests[round] = req
		p, err := Propose(req)
		if err != nil {
			b.Fatal(err)
		}
		s.record(round, p)
	}
	for _, round := range []int{2, 5, 11} {
		b.Run(fmt.Sprintf("ronde%d", round), func(b *testing.B) {
			for b.Loop() {
				if _, err := Propose(requests[round]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
