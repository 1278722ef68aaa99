package blossom

import (
	"math/rand"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bruteForce returns the best (cardinality, weight) over all matchings.
func bruteForce(n int, edges []Edge) (int, int64) {
	weight := map[[2]int]int64{}
	for _, e := range edges {
		weight[[2]int{min(e.U, e.V), max(e.U, e.V)}] = e.Weight
	}
	used := make([]bool, n)
	bestCard, bestWeight := 0, int64(0)
	var walk func(v, card int, total int64)
	walk = func(v, card int, total int64) {
		for v < n && used[v] {
			v++
		}
		if v == n {
			if card > bestCard || (card == bestCard && total > bestWeight) {
				bestCard, bestWeight = card, total
			}
			return
		}
		used[v] = true
		walk(v+1, card, total)
		for w := v + 1; w < n; w++ {
			if wt, ok := weight[[2]int{v, w}]; ok && !used[w] {
				used[w] = true
				walk(v+1, card+1, total+wt)
				used[w] = false
			}
		}
		used[v] = false
	}
	walk(0, 0, 0)
	return bestCard, bestWeight
}

func randomGraph(rng *rand.Rand, n int, density float64, maxWeight int64, allowNegative bool) []Edge {
	var edges []Edge
	for u := 0; u < n; u++ {
		for v := u + 1; v < n; v++ {
			if rng.Float64() < density {
				w := rng.Int63n(maxWeight + 1)
				if allowNegative {
					w -= maxWeight / 2
				}
				if rng.Intn(2) == 0 {
					u, v := v, u
					edges = append(edges, Edge{U: u, V: v, Weight: w})
					continue
				}
				edges = append(edges, Edge{U: u, V: v, Weight: w})
			}
		}
	}
	return edges
}

func checkMatching(t *testing.T, n int, edges []Edge, m *Matching) (int, int64) {
	t.Helper()
	weight := map[[2]int]int64{}
	for _, e := range edges {
		weight[[2]int{min(e.U, e.V), max(e.U, e.V)}] = e.Weight
	}
	card, total := 0, int64(0)
	for v, w := range m.Mate {
		if w == -1 {
			continue
		}
		require.Equal(t, v, m.Mate[w], "mate symmetry")
		wt, ok := weight[[2]int{min(v, w), max(v, w)}]
		require.True(t, ok, "matched pair must be an edge")
		if v < w {
			card++
			total += wt
		}
	}
	return card, total
}

func TestSolveFindsMaximumCardinalityAndOptimalPerfectMatchings(t *testing.T) {
	rng := rand.New(rand.NewSource(6))
	for trial := range 3000 {
		n := 1 + rng.Intn(12)
		density := []float64{0.2, 0.5, 0.9, 1}[rng.Intn(4)]
		maxWeight := []int64{1, 3, 20, 1000}[rng.Intn(4)]
		edges := randomGraph(rng, n, density, maxWeight, rng.Intn(2) == 0)
		m := Solve(n, edges)
		card, total := checkMatching(t, n, edges, m)
		wantCard, wantTotal := bruteForce(n, edges)
		require.Equal(t, wantCard, card, "trial %d cardinality", trial)
		if m.Perfect() {
			require.Equal(t, wantTotal, total, "trial %d weight (n=%d edges=%v)", trial, n, edges)
		}
	}
}

func TestReducedCostCertifiesOptimalityOverOmittedEdges(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for range 500 {
		n := 2 * (1 + rng.Intn(5))
		full := randomGraph(rng, n, 1, 50, false)
		var sparse []Edge
		for _, e := range full {
			if rng.Intn(3) > 0 {
				sparse = append(sparse, e)
			}
		}
		m := Solve(n, sparse)
		if !m.Perfect() {
			continue
		}
		certified := true
		for _, e := range full {
			if reducedCost(m, e) < 0 {
				certified = false
			}
		}
		_, total := checkMatching(t, n, full, m)
		_, best := bruteForce(n, full)
		if certified {
			assert.Equal(t, best, total, "a certified matching is optimal on the full graph")
		}
		for _, e := range sparse {
			assert.GreaterOrEqual(t, reducedCost(m, e), int64(0), "dual feasibility on solved edges")
		}
		for _, e := range full {
			assert.GreaterOrEqual(t, reducedCost(m, e), m.Dual(e.U)+m.Dual(e.V)-4*e.Weight, "vertex duals bound the reduced cost")
		}
	}
}

func TestSolveHandlesEmptyAndIsolatedVertices(t *testing.T) {
	m := Solve(3, nil)
	assert.Equal(t, []int{-1, -1, -1}, m.Mate)
	m = Solve(4, []Edge{{U: 2, V: 3, Weight: 5}})
	assert.Equal(t, []int{-1, -1, 3, 2}, m.Mate)
}

func reducedCost(m *Matching, e Edge) int64 {
	c := m.Certifier()
	c.From(e.U)
	forward := c.ReducedCost(e.V, e.Weight)
	c.From(e.V)
	if backward := c.ReducedCost(e.U, e.Weight); backward != forward {
		panic("reduced cost must be symmetric")
	}
	return forward
}
