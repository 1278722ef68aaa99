package movegen_test

import (
	"sync"
	"syscall"
	"testing"
	"time"

	"arbitre/engine/enginetest"
	"arbitre/engine/enginetest/selfplay"
	"arbitre/engine/movegen"
)

var (
	grandJeuOnce      sync.Once
	grandJeuPositions []selfplay.Position
)

// benchmarkGrandJeu generates, at each iteration, every position of the
// large self-play set on ODS8 (the normal formula's 2,931 positions of
// TestTopPruned_MemesTopsQueLaGenerationComplete -grandjeu, the file of the
// CLI's whole-file figures in docs/engine.md) in one goroutine: the
// in-process figure of `engine solve --workers 1`, without JSON.
func benchmarkGrandJeu(b *testing.B, mode movegen.Mode) {
	lex := enginetest.ODS8(b)
	opts := movegen.Options{Variant: movegen.Standard}
	grandJeuOnce.Do(func() { grandJeuPositions = selfplay.Games(lex, opts, 17, partiesGrandJeu) })
	g := movegen.New(lex, opts)
	b.ReportAllocs()
	before := cpuTime()
	for b.Loop() {
		for i := range grandJeuPositions {
			p := &grandJeuPositions[i]
			g.Generate(&p.Board, p.Rack, mode)
		}
	}
	b.ReportMetric((cpuTime()-before).Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(len(grandJeuPositions)), "positions")
}

// cpuTime is the process's user and system CPU time so far: the machine is
// shared, so elapsed time says little.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

func BenchmarkGrandJeuTop(b *testing.B)       { benchmarkGrandJeu(b, movegen.TopOnly) }
func BenchmarkGrandJeuTopPruned(b *testing.B) { benchmarkGrandJeu(b, movegen.TopPruned) }
