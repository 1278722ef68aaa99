package pairing

import (
	"fmt"
	"math/rand"
	"testing"
)

// BenchmarkSwissRound1000Players pairs rounds of a 1,000-player Swiss
// tournament whose earlier rounds were paired by Propose with random results
// (realistic score groups, history and start balances). Round 5 is the
// issue's reference; round 2 was the slowest seen; round 9 has the most
// history.
func BenchmarkSwissRound1000Players(b *testing.B) {
	s := newSimulation(rand.New(rand.NewSource(2026)), 1000)
	requests := map[int]Request{}
	for round := 1; round <= 9; round++ {
		req := s.request(round, Swiss)
		requests[round] = req
		p, err := Propose(req)
		if err != nil {
			b.Fatal(err)
		}
		s.record(round, p)
	}
	for _, round := range []int{5, 2, 9} {
		b.Run(fmt.Sprintf("round%d", round), func(b *testing.B) {
			for b.Loop() {
				if _, err := Propose(requests[round]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
