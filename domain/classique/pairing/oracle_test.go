package pairing

import "arbitre/domain/classique/pairing/internal/blossom"

// tierOracle answers exact questions about a Swiss field with the blossom
// solver (itself checked against brute force) for fields too large for
// backtracking. Vertices are the swissField's (ranked players, then bye).
type tierOracle struct {
	f       *swissField
	met     func(v, w int) int
	unit    int64
	ceiling int64
}

func newTierOracle(r *roster, ranked []int) *tierOracle {
	f := newSwissField(r, ranked)
	gap := int64(f.maxPoints - f.minPoints)
	unit := int64(f.vertices()/2)*gap*gap + 1
	o := &tierOracle{f: f, unit: unit}
	o.met = func(v, w int) int {
		count := 0
		for _, x := range r.opponents[ranked[v]] {
			if x == ranked[w] {
				count++
			}
		}
		return count
	}
	o.ceiling = unit*int64(len(ranked)) + unit
	return o
}

// highTiers is the (repeats, scoreGap) part of the Swiss cost of a pairing,
// folded into one number (repeats dominate).
func (o *tierOracle) highTiers(c swissCost) int64 {
	return int64(c.repeats)*o.unit + int64(c.scoreGap)
}

// cheapestHighTiers returns the least highTiers total over perfect matchings
// using only pairs accepted by keep, and whether any such matching exists.
func (o *tierOracle) cheapestHighTiers(keep func(c swissCost) bool) (int64, bool) {
	f := o.f
	var edges []blossom.Edge
	for v := range f.players() {
		for w := v + 1; w < f.players(); w++ {
			if c := f.pairCost(v, w, o.met(v, w)); keep(c) {
				edges = append(edges, blossom.Edge{U: v, V: w, Weight: o.ceiling - o.highTiers(c)})
			}
		}
		if f.hasBye && f.canHaveBye(v) {
			edges = append(edges, blossom.Edge{U: v, V: f.byeVertex(), Weight: o.ceiling - o.highTiers(f.byeCost(v))})
		}
	}
	m := blossom.Solve(f.vertices(), edges)
	if !m.Perfect() {
		return 0, false
	}
	var total int64
	for _, e := range edges {
		if m.Mate[e.U] == e.V {
			total += o.ceiling - e.Weight
		}
	}
	return total, true
}

// proposalHighTiers is the highTiers total of a proposal.
func (o *tierOracle) proposalHighTiers(r *roster, p Proposal) int64 {
	vertex := o.f.vertexOf()
	var total int64
	for _, t := range p.Tables {
		v, w := vertex[r.index[t.First]], vertex[r.index[t.Second]]
		v, w = min(v, w), max(v, w)
		total += o.highTiers(o.f.pairCost(v, w, o.met(v, w)))
	}
	if p.Bye != "" {
		total += o.highTiers(o.f.byeCost(vertex[r.index[p.Bye]]))
	}
	return total
}
