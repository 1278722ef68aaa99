package pairing

import "arbitre/domain/classique/pairing/internal/blossom"

// swiss pairs a Swiss round as an exact minimum-cost perfect matching over
// the active players (plus the bye vertex when their count is odd), with the
// cost of swissCost. A bye is only offered to players who never had one.
//
// To stay fast on large fields the matching is first solved on a sparse
// candidate graph (non-repeat pairs within `window` score groups, and every
// bye edge). The blossom duals then certify optimality over all pairs; any
// pair with a negative reduced cost is added and the graph solved again.
// When the candidate graph has no perfect matching the window doubles, and
// finally repeat pairs are admitted. The result is therefore always the
// optimum of the complete graph.
func (r *roster) swiss() (Proposal, error) {
	ranked := r.active()
	r.byStanding(ranked)
	if len(ranked) == 0 {
		return Proposal{}, fail(CodeNobodyToPair, "Appariement impossible : aucun joueur actif")
	}
	f := newSwissField(r, ranked)
	if f.hasBye {
		if _, err := r.lowestEligibleForBye(ranked); err != nil {
			return Proposal{}, err
		}
	}
	g := newSwissGraph(f)
	weights, err := f.tierWeights(g.maxRepeats())
	if err != nil {
		return Proposal{}, err
	}
	g.weights = weights
	return f.proposal(g.optimalMatching()), nil
}

func (f *swissField) proposal(mate []int) Proposal {
	var p Proposal
	for v := range f.players() {
		w := mate[v]
		switch {
		case f.hasBye && w == f.byeVertex():
			p.Bye = f.r.players[f.ranked[v]].ID
		case v < w:
			p.Tables = append(p.Tables, f.r.orient(f.ranked[v], f.ranked[w], len(p.Tables)+1))
		}
	}
	return p
}

// swissGraph builds candidate edge sets for a swissField.
type swissGraph struct {
	f        *swissField
	weights  tierWeights
	vertexOf []int
	counts   []int
}

func newSwissGraph(f *swissField) *swissGraph {
	return &swissGraph{f: f, vertexOf: f.vertexOf(), counts: make([]int, f.players())}
}

func (g *swissGraph) maxRepeats() int {
	most := 0
	for v := range g.f.players() {
		touched := g.f.meetingCounts(v, g.vertexOf, g.counts)
		for _, w := range touched {
			most = max(most, g.counts[w])
			g.counts[w] = 0
		}
	}
	return most
}

func (g *swissGraph) edge(v, w, repeats int) blossom.Edge {
	return blossom.Edge{U: v, V: w, Weight: g.weights.weight(g.f.pairCost(v, w, repeats))}
}

// candidates lists bye edges and pairs within window score groups; repeat
// pairs only when withRepeats.
func (g *swissGraph) candidates(window int, withRepeats bool) []blossom.Edge {
	f := g.f
	var edges []blossom.Edge
	for v := range f.players() {
		touched := f.meetingCounts(v, g.vertexOf, g.counts)
		for w := v + 1; w < f.players() && f.group[w]-f.group[v] <= window; w++ {
			if withRepeats || g.counts[w] == 0 {
				edges = append(edges, g.edge(v, w, g.counts[w]))
			}
		}
		for _, w := range touched {
			g.counts[w] = 0
		}
		if f.hasBye && f.canHaveBye(v) {
			edges = append(edges, blossom.Edge{U: v, V: f.byeVertex(), Weight: g.weights.weight(f.byeCost(v))})
		}
	}
	return edges
}

// optimalMatching returns the mate of every vertex in a minimum-cost perfect
// matching of the complete graph.
func (g *swissGraph) optimalMatching() []int {
	window, withRepeats := 1, false
	var extra []blossom.Edge
	for {
		edges := append(g.candidates(window, withRepeats), extra...)
		m := blossom.Solve(g.f.vertices(), edges)
		if !m.Perfect() {
			if window >= g.f.groups-1 {
				withRepeats = true
			}
			window *= 2
			extra = nil
			continue
		}
		violations := g.uncertifiedPairs(m)
		if len(violations) == 0 {
			return m.Mate
		}
		extra = append(extra, violations...)
	}
}

// uncertifiedPairs returns the pairs whose reduced cost under m's duals is
// negative: the only edges that could still improve the matching.
func (g *swissGraph) uncertifiedPairs(m *blossom.Matching) []blossom.Edge {
	f := g.f
	c := m.Certifier()
	var out []blossom.Edge
	for v := range f.players() {
		c.From(v)
		touched := f.meetingCounts(v, g.vertexOf, g.counts)
		for w := v + 1; w < f.players(); w++ {
			if e := g.edge(v, w, g.counts[w]); c.ReducedCost(w, e.Weight) < 0 {
				out = append(out, e)
			}
		}
		for _, w := range touched {
			g.counts[w] = 0
		}
	}
	return out
}
