package movegen

import (
	"sort"
	"testing"
	"time"

	"arbitre/engine/enginetest"
)

// benchmarkStage generates every oracle position of a stage once per
// iteration and reports the median time per position and allocations.
func benchmarkStage(b *testing.B, stage string, mode Mode) {
	lex := enginetest.ODS8(b)
	positions := enginetest.OraclePositions(b, stage)
	g := New(lex, Options{Variant: Standard})
	for i := range positions { // warm the buffers
		g.Generate(&positions[i].Board, positions[i].Rack, mode)
	}
	times := make([]time.Duration, 0, b.N*len(positions))
	b.ReportAllocs()
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		for i := range positions {
			start := time.Now()
			g.Generate(&positions[i].Board, positions[i].Rack, mode)
			times = append(times, time.Since(start))
		}
	}
	b.StopTimer()
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	b.ReportMetric(float64(times[len(times)/2].Microseconds()), "µs/median-position")
	b.ReportMetric(float64(len(positions)), "positions")
}

func BenchmarkTopMid(b *testing.B)       { benchmarkStage(b, "mid", TopOnly) }
func BenchmarkAllMovesMid(b *testing.B)  { benchmarkStage(b, "mid", AllMoves) }
func BenchmarkTopAll(b *testing.B)       { benchmarkStage(b, "", TopOnly) }
func BenchmarkAllMovesAll(b *testing.B)  { benchmarkStage(b, "", AllMoves) }
func BenchmarkTopPrunedMid(b *testing.B) { benchmarkStage(b, "mid", TopPruned) }
func BenchmarkTopPrunedAll(b *testing.B) { benchmarkStage(b, "", TopPruned) }
