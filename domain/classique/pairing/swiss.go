package pairing

import (
	"cmp"
	"slices"

	"arbitre/domain/classique/pairing/internal/blossom"
	"arbitre/domain/erreur"
)

// swiss pairs a Swiss round as an exact minimum-cost perfect matching over
// the active players (plus the bye vertex when their count is odd), with the
// cost of swissCost. A bye is only offered to players who never had one.
//
// To stay fast on large fields (1,000 players) the matching is first solved
// on a sparse candidate graph (see nearest), then repaired until the
// blossom's duals certify it over all pairs (see optimalMatching). The
// result is therefore always the optimum of the complete graph, which
// TestSwissOptimise_MemeQualiteQueLExact checks.
func (r *roster) swiss() (Proposal, error) {
	ranked := r.active()
	r.byStanding(ranked)
	if len(ranked) == 0 {
		return Proposal{}, erreur.Refus(CodeNobodyToPair, "Appariement impossible : aucun joueur actif")
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

func (g *swissGraph) byeEdge(v int) blossom.Edge {
	return blossom.Edge{U: v, V: g.f.byeVertex(), Weight: g.weights.weight(g.f.byeCost(v))}
}

// optimalMatching returns the mate of every vertex in a minimum-cost perfect
// matching of the complete graph. It solves the sparse nearest candidates
// first, then repairs: while the matching is not perfect, every pair of an
// unmatched vertex joins the graph; once it is perfect, the blossom's duals
// check every pair of the complete graph, and the most violated pairs
// (negative reduced cost) join it until none is left. A perfect matching
// with no violated pair is optimal for the complete graph (LP duality), so
// the result is the exact optimum whatever the candidates were.
func (g *swissGraph) optimalMatching() []int {
	edges := g.nearest()
	for {
		m := blossom.Solve(g.f.vertices(), edges)
		var more []blossom.Edge
		if m.Perfect() {
			more = mostViolated(g.uncertifiedPairs(m), g.f.vertices())
			if len(more) == 0 {
				return m.Mate
			}
		} else {
			more = g.rowsOfUnmatched(m.Mate, edges)
		}
		edges = append(edges, more...)
	}
}

// rowsOfUnmatched lists the pairs of each unmatched vertex that edges lacks:
// all its pairs with players (repeats included) and its bye edge if allowed
// (the bye vertex: every player allowed a bye). With all of them the
// matching is perfect, since some player may have the bye (checked before).
func (g *swissGraph) rowsOfUnmatched(mate []int, edges []blossom.Edge) []blossom.Edge {
	f := g.f
	present := map[[2]int]bool{}
	for _, e := range edges {
		if mate[e.U] == -1 || mate[e.V] == -1 {
			present[[2]int{e.U, e.V}] = true
		}
	}
	var out []blossom.Edge
	add := func(e blossom.Edge) {
		if !present[[2]int{e.U, e.V}] {
			present[[2]int{e.U, e.V}] = true
			out = append(out, e)
		}
	}
	for v := range f.players() {
		if mate[v] != -1 && (!f.hasBye || mate[f.byeVertex()] != -1) {
			continue
		}
		if f.hasBye && f.canHaveBye(v) {
			add(g.byeEdge(v))
		}
		if mate[v] != -1 {
			continue
		}
		touched := f.meetingCounts(v, g.vertexOf, g.counts)
		for w := range f.players() {
			if w != v {
				add(g.edge(min(v, w), max(v, w), g.counts[w]))
			}
		}
		for _, w := range touched {
			g.counts[w] = 0
		}
	}
	return out
}

// violation is a pair left out of a solved graph and its reduced cost.
type violation struct {
	edge    blossom.Edge
	reduced int64
}

// mostViolated keeps, for every vertex, the violatedPerVertex pairs with the
// most negative reduced cost among the violations it touches (adding all of
// them at once makes a denser graph that takes longer to solve).
func mostViolated(violations []violation, vertices int) []blossom.Edge {
	slices.SortFunc(violations, func(a, b violation) int {
		return cmp.Or(cmp.Compare(a.reduced, b.reduced), cmp.Compare(a.edge.U, b.edge.U), cmp.Compare(a.edge.V, b.edge.V))
	})
	count := make([]int, vertices)
	var out []blossom.Edge
	for _, v := range violations {
		if count[v.edge.U] < violatedPerVertex || count[v.edge.V] < violatedPerVertex {
			count[v.edge.U]++
			count[v.edge.V]++
			out = append(out, v.edge)
		}
	}
	return out
}

// uncertifiedPairs returns the pairs whose reduced cost under m's duals is
// negative: the only edges that could still improve the matching. A score
// group, or a pair, is skipped when even the heaviest pair the vertex could
// form there (no repeat, only the score gap) has a non-negative reduced cost
// by the vertex duals' bound (blossom.Matching.Dual).
func (g *swissGraph) uncertifiedPairs(m *blossom.Matching) []violation {
	f := g.f
	lowestDual := make([]int64, f.groups)
	for v := range f.players() {
		if v == f.groupStart[f.group[v]] || m.Dual(v) < lowestDual[f.group[v]] {
			lowestDual[f.group[v]] = m.Dual(v)
		}
	}
	c := m.Certifier()
	var out []violation
	for v := range f.players() {
		c.From(v)
		touched := f.meetingCounts(v, g.vertexOf, g.counts)
		for group := f.group[v]; group < f.groups; group++ {
			gap := f.points(v) - f.points(f.groupStart[group])
			bound := m.Dual(v) - 4*g.weights.weight(swissCost{scoreGap: gap * gap})
			if bound+lowestDual[group] >= 0 {
				continue
			}
			for w := max(v+1, f.groupStart[group]); w < f.players() && f.group[w] == group; w++ {
				if bound+m.Dual(w) >= 0 {
					continue
				}
				e := g.edge(v, w, g.counts[w])
				if r := c.ReducedCost(w, e.Weight); r < 0 {
					out = append(out, violation{e, r})
				}
			}
		}
		for _, w := range touched {
			g.counts[w] = 0
		}
	}
	return out
}

// nearestPerClass is how many of its cheapest opponents each player keeps
// per class (a score group, own or neighbouring, and a start balance) in the
// first, sparse candidate graph; violatedPerVertex how many violated pairs
// each vertex may bring per repair. The duals certify the result over all
// pairs whatever they are: they only trade the size of the graphs solved
// against the number of repairs (measured on BenchmarkProposerRonde1000).
const (
	nearestPerClass   = 4
	violatedPerVertex = 12
)

// nearest lists every bye edge and, for each player, its nearestPerClass
// cheapest non-repeat pairs per start balance in its score group and in the
// groups just above and below. Classes by balance matter: an opponent of
// the same balance costs a start penalty (§3.1), which outweighs any rank
// gap, so without them a group whose balances do not split evenly could have
// no perfect matching among the cheapest pairs. Inside a class the cost only
// grows with the rank gap, so the cheapest are the closest to the ideal
// ranks: half the group away in the player's own group (the Dutch top half
// against bottom half), the border in a neighbouring group.
func (g *swissGraph) nearest() []blossom.Edge {
	f := g.f
	classes := f.balanceClasses()
	var edges, kept []blossom.Edge
	for v := range f.players() {
		touched := f.meetingCounts(v, g.vertexOf, g.counts)
		accept := func(w int) bool {
			if w == v || g.counts[w] > 0 {
				return false
			}
			kept = keepHeaviest(kept, g.edge(min(v, w), max(v, w), 0), nearestPerClass)
			return true
		}
		own, half := f.group[v], f.groupSize[v]/2
		for _, side := range [3]struct {
			group   int
			targets [2]int
			n       int
		}{
			{own - 1, [2]int{f.groupStart[own] - 1}, 1},
			{own, [2]int{v - half, v + half}, 2},
			{own + 1, [2]int{f.groupStart[own] + f.groupSize[v]}, 1},
		} {
			if side.group < 0 || side.group >= f.groups {
				continue
			}
			for _, members := range classes[side.group] {
				kept = kept[:0]
				for _, t := range side.targets[:side.n] {
					closestTo(members, t, nearestPerClass, accept)
				}
				edges = append(edges, kept...)
			}
		}
		for _, w := range touched {
			g.counts[w] = 0
		}
		if f.hasBye && f.canHaveBye(v) {
			edges = append(edges, g.byeEdge(v))
		}
	}
	slices.SortFunc(edges, func(a, b blossom.Edge) int { return cmp.Or(cmp.Compare(a.U, b.U), cmp.Compare(a.V, b.V)) })
	return slices.CompactFunc(edges, func(a, b blossom.Edge) bool { return a.U == b.U && a.V == b.V })
}

// closestTo offers accept the members (ascending vertices) by distance to
// vertex t, the lower first on a tie, until k were accepted or none is left.
func closestTo(members []int, t, k int, accept func(w int) bool) {
	hi, _ := slices.BinarySearch(members, t)
	lo := hi - 1
	for taken := 0; taken < k && (lo >= 0 || hi < len(members)); {
		var w int
		if hi == len(members) || (lo >= 0 && t-members[lo] <= members[hi]-t) {
			w, lo = members[lo], lo-1
		} else {
			w, hi = members[hi], hi+1
		}
		if accept(w) {
			taken++
		}
	}
}

// keepHeaviest inserts e into kept, which holds at most k edges by
// decreasing weight (the earlier of equal weights first).
func keepHeaviest(kept []blossom.Edge, e blossom.Edge, k int) []blossom.Edge {
	if len(kept) == k {
		if kept[k-1].Weight >= e.Weight {
			return kept
		}
		kept = kept[:k-1]
	}
	i := len(kept)
	kept = append(kept, e)
	for ; i > 0 && kept[i-1].Weight < e.Weight; i-- {
		kept[i] = kept[i-1]
	}
	kept[i] = e
	return kept
}
