//go:build unix

package pairing

import (
	"fmt"
	"math/rand"
	"syscall"
	"testing"
	"time"
)

// BenchmarkProposerRonde1000 proposes one Swiss round of a 1,000-player
// tournament after seeded results: round 1 by cote (as a director and
// `arbitre simulate classique` do), then Swiss rounds paired by Propose,
// with random wins, draws and losses. Round 2 has the largest score groups
// (about 500 players each, the hardest matching), round 5 is typical and
// round 11 has the most history (repeats to avoid, start balances).
// cpu-ms/op is the process's CPU time per proposal: on a machine shared with
// other work it is what a proposal costs on an idle core, whatever the wait.
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
			start := cpuTime(b)
			for b.Loop() {
				if _, err := Propose(requests[round]); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((cpuTime(b)-start).Microseconds())/1000/float64(b.N), "cpu-ms/op")
		})
	}
}

// cpuTime is the CPU time (user and system) the process used so far.
func cpuTime(b *testing.B) time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		b.Fatal(err)
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
