package blossom

// Matching is the result of Solve: the mate of each vertex and the final
// dual solution that certifies its optimality.
type Matching struct {
	// Mate[v] is the vertex matched to v, or -1.
	Mate          []int
	n             int
	dual          []int64
	blossomParent []int
	blossomBase   []int
}

func (s *solver) result() *Matching {
	mate := make([]int, s.n)
	for v, p := range s.mate {
		mate[v] = -1
		if p >= 0 {
			mate[v] = s.endpoint[p]
		}
	}
	return &Matching{Mate: mate, n: s.n, dual: s.dual, blossomParent: s.blossomParent, blossomBase: s.blossomBase}
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

// Dual is vertex v's final dual on the scale of Certifier.ReducedCost: the
// reduced cost of any pair (v, w) of weight x is at least
// Dual(v) + Dual(w) - 4x, since blossom duals are non-negative. A caller
// certifying many pairs uses it to skip those that cannot be negative.
func (m *Matching) Dual(v int) int64 { return m.dual[v] }

// Certifier evaluates reduced costs under the final duals of a Matching.
// When the matching is perfect and every edge of a larger graph has a
// non-negative reduced cost, the matching is a maximum-weight perfect
// matching of that larger graph (LP duality for the perfect matching
// polytope: vertex duals are free, blossom duals non-negative).
type Certifier struct {
	m *Matching
	// blossoms in use, parents before children.
	order []int
	// prefix[b] sums the doubled duals of b and all blossoms above it.
	prefix []int64
	// lowest[b] is the lowest blossom containing both b and the current
	// endpoint u, or -1.
	lowest []int
	marked []bool
	u      int
}

// Certifier prepares reduced-cost queries; call From before ReducedCost.
func (m *Matching) Certifier() *Certifier {
	c := &Certifier{
		m:      m,
		prefix: make([]int64, len(m.blossomParent)),
		lowest: filled(len(m.blossomParent), -1),
		marked: make([]bool, len(m.blossomParent)),
	}
	depth := make(map[int]int)
	var depthOf func(b int) int
	depthOf = func(b int) int {
		if d, ok := depth[b]; ok {
			return d
		}
		d := 0
		if p := m.blossomParent[b]; p != -1 {
			d = depthOf(p) + 1
		}
		depth[b] = d
		return d
	}
	byDepth := make([][]int, 0)
	for b := m.n; b < len(m.blossomParent); b++ {
		if !c.inUse(b) {
			continue
		}
		d := depthOf(b)
		for len(byDepth) <= d {
			byDepth = append(byDepth, nil)
		}
		byDepth[d] = append(byDepth[d], b)
	}
	for _, level := range byDepth {
		for _, b := range level {
			c.prefix[b] = 2 * m.dual[b]
			if p := m.blossomParent[b]; p != -1 {
				c.prefix[b] += c.prefix[p]
			}
			c.order = append(c.order, b)
		}
	}
	return c
}

// inUse reports whether blossom b still contains a vertex.
func (c *Certifier) inUse(b int) bool {
	return c.m.blossomBase[b] >= 0
}

// From sets the first endpoint of the next ReducedCost queries.
func (c *Certifier) From(u int) {
	clear(c.marked)
	for b := c.m.blossomParent[u]; b != -1; b = c.m.blossomParent[b] {
		c.marked[b] = true
	}
	c.u = u
	for _, b := range c.order {
		switch p := c.m.blossomParent[b]; {
		case c.marked[b]:
			c.lowest[b] = b
		case p != -1:
			c.lowest[b] = c.lowest[p]
		default:
			c.lowest[b] = -1
		}
	}
}

// ReducedCost returns twice the reduced cost of a (possibly absent) edge
// between the From vertex and v with the given weight.
func (c *Certifier) ReducedCost(v int, weight int64) int64 {
	r := c.m.dual[c.u] + c.m.dual[v] - 4*weight
	if p := c.m.blossomParent[v]; p != -1 {
		if shared := c.lowest[p]; shared != -1 {
			r += c.prefix[shared]
		}
	}
	return r
}
