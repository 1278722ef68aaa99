package pairing

import (
	"fmt"
	"math/rand"
	"testing"

	"arbitre/domain/classique/pairing/internal/blossom"

	"github.com/stretchr/testify/require"
)

// roundQuality sums the Swiss cost of a whole round tier by tier (see
// swissCost): the number of repeats, the squared score gaps, the start
// excesses, the low tier; plus the blossom weight that orders them.
type roundQuality struct {
	Repeats, ScoreGap, StartExcess, Low int
	Weight                              int64
}

// swissRound is one Swiss round seen as a weighted complete graph: every
// pair of active players (repeats included) and every allowed bye.
type swissRound struct {
	r       *roster
	f       *swissField
	weights tierWeights
	vertex  []int
	met     func(v, w int) int
}

func newSwissRound(t *testing.T, req Request) *swissRound {
	t.Helper()
	r, err := newRoster(req)
	require.NoError(t, err)
	ranked := r.active()
	r.byStanding(ranked)
	f := newSwissField(r, ranked)
	g := newSwissGraph(f)
	weights, err := f.tierWeights(g.maxRepeats())
	require.NoError(t, err)
	return &swissRound{r: r, f: f, weights: weights, vertex: f.vertexOf(), met: newTierOracle(r, ranked).met}
}

func (s *swissRound) cost(v, w int) swissCost {
	v, w = min(v, w), max(v, w)
	if s.f.hasBye && w == s.f.byeVertex() {
		return s.f.byeCost(v)
	}
	return s.f.pairCost(v, w, s.met(v, w))
}

func (q *roundQuality) add(c swissCost, weight int64) {
	q.Repeats += c.repeats
	q.ScoreGap += c.scoreGap
	q.StartExcess += c.startExcess
	q.Low += c.startPenalty*startPenaltyFactor + c.rankGap
	q.Weight += weight
}

// exact is the quality of a maximum-weight perfect matching of the complete
// graph, solved by the blossom without any candidate restriction.
func (s *swissRound) exact() roundQuality {
	var edges []blossom.Edge
	for v := range s.f.players() {
		for w := v + 1; w < s.f.vertices(); w++ {
			if w == s.f.byeVertex() && (!s.f.hasBye || !s.f.canHaveBye(v)) {
				continue
			}
			edges = append(edges, blossom.Edge{U: v, V: w, Weight: s.weights.weight(s.cost(v, w))})
		}
	}
	m := blossom.Solve(s.f.vertices(), edges)
	var q roundQuality
	for v, w := range m.Mate {
		if v < w {
			c := s.cost(v, w)
			q.add(c, s.weights.weight(c))
		}
	}
	return q
}

// of is the quality of a proposal.
func (s *swissRound) of(p Proposal) roundQuality {
	var q roundQuality
	add := func(a, b int) {
		c := s.cost(a, b)
		q.add(c, s.weights.weight(c))
	}
	for _, table := range p.Tables {
		add(s.vertex[s.r.index[table.First]], s.vertex[s.r.index[table.Second]])
	}
	if p.Bye != "" {
		add(s.vertex[s.r.index[p.Bye]], s.f.byeVertex())
	}
	return q
}

// TestSwissOptimise_MemeQualiteQueLExact guards the speed-ups of the Swiss
// pairing (sparse candidate graph, certified by the blossom's duals): on
// seeded tournaments of 20 to 120 players, and two of 240, over several
// rounds, with withdrawals, odd fields (bye) and a first round by cote or
// Swiss, every Swiss round proposed has exactly the repeats, score gaps,
// start excesses (§3.1) and low-tier cost of the optimum of the complete
// graph.
func TestSwissOptimise_MemeQualiteQueLExact(t *testing.T) {
	rng := rand.New(rand.NewSource(17))
	sizes := []int{240, 241}
	for range 40 {
		sizes = append(sizes, 20+rng.Intn(101))
	}
	rounds := 0
	for tournament, size := range sizes {
		s := newSimulation(rng, size)
		byCote := rng.Intn(2) == 0
		for round := 1; round <= 3+rng.Intn(6); round++ {
			if rng.Intn(4) == 0 {
				s.players[rng.Intn(size)].Withdrawn = true
			}
			method := Swiss
			if round == 1 && byCote {
				method = InitialByCote
			}
			req := s.request(round, method)
			p, err := Propose(req)
			require.NoError(t, err)
			if method == Swiss {
				sr := newSwissRound(t, req)
				require.Equal(t, sr.exact(), sr.of(p), fmt.Sprintf("tournament %d (%d players) round %d", tournament, size, round))
				rounds++
			}
			s.record(round, p)
		}
	}
	require.Greater(t, rounds, 100)
}
