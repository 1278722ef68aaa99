package blossom

// Matching is the result of Solve: the mate of each vertex and the final
// dual solution that certifies its optimality.
type Matching struct {
	// Mate[v] is the vertex matched to v, or -1.
	Mate          []int
	n             int
	dual          []int64
	blossomParent []int
}

func (s *solver) result() *Matching {
	mate := make([]int, s.n)
	for v, p := range s.mate {
		mate[v] = -1
		if p >= 0 {
			mate[v] = s.endpoint[p]
		}
	}
	return &Matching{Mate: mate, n: s.n, dual: s.dual, blossomParent: s.blossomParent}
}

// Perfect reports whether every vertex is matched.
func (m *Matching) Perfect() bool {
	for _, w := range m.Mate {
		if w == -1 {
			return false
		}
	}
	return true
}

// ReducedCost returns twice the reduced cost of a (possibly absent) edge
// {u, v} of the given weight under the final duals. When the matching is
// perfect and every edge of a larger graph has a non-negative reduced cost,
// the matching is a maximum-weight perfect matching of that larger graph
// (LP duality for the perfect matching polytope).
func (m *Matching) ReducedCost(u, v int, weight int64) int64 {
	r := m.dual[u] + m.dual[v] - 4*weight
	for bu := m.blossomParent[u]; bu != -1; bu = m.blossomParent[bu] {
		for bv := m.blossomParent[v]; bv != -1; bv = m.blossomParent[bv] {
			if bu == bv {
				return r + m.sharedBlossomDuals(bu)
			}
		}
	}
	return r
}

// sharedBlossomDuals sums (doubled) the duals of b and all blossoms above it.
func (m *Matching) sharedBlossomDuals(b int) int64 {
	var sum int64
	for ; b != -1; b = m.blossomParent[b] {
		sum += 2 * m.dual[b]
	}
	return sum
}
