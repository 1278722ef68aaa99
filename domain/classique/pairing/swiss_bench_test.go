package pairing

import (
	"math/rand"
	"testing"
)

// BenchmarkSwissRound1000Players pairs round 5 of a 1,000-player Swiss
// tournament whose first four rounds were paired by Propose with random
// results (realistic score groups, history and start balances).
func BenchmarkSwissRound1000Players(b *testing.B) {
	s := newSimulation(rand.New(rand.NewSource(2026)), 1000)
	for round := 1; round <= 4; round++ {
		p, err := Propose(s.request(round, Swiss))
		if err != nil {
			b.Fatal(err)
		}
		s.record(round, p)
	}
	req := s.request(5, Swiss)
	for b.Loop() {
		if _, err := Propose(req); err != nil {
			b.Fatal(err)
		}
	}
}
