package blossom

// solver holds the state of one run. Vertices are 0..n-1, blossoms n..2n-1.
// Edge endpoints are numbered 2k (edges[k].U) and 2k+1 (edges[k].V); p^1 is the
// opposite endpoint of p. Vertex duals are stored doubled (slack = u+v-2w).
type solver struct {
	n         int
	edges     []Edge
	endpoint  []int
	neighbend [][]int

	mate             []int
	label            []int
	labelEnd         []int
	inBlossom        []int
	blossomParent    []int
	blossomChilds    [][]int
	blossomBase      []int
	blossomEndps     [][]int
	bestEdge         []int
	blossomBestEdges [][]int
	unusedBlossoms   []int
	dual             []int64
	allowEdge        []bool
	bestTo           []int
	queue            []int
}

const (
	labelFree = 0
	labelS    = 1
	labelT    = 2
	labelMark = 4 // breadcrumb bit used by scanBlossom
)

func newSolver(n int, edges []Edge) *solver {
	s := &solver{n: n, edges: edges}
	s.endpoint = make([]int, 2*len(edges))
	s.neighbend = make([][]int, n)
	degree := make([]int, n)
	for _, e := range edges {
		degree[e.U]++
		degree[e.V]++
	}
	for v := range s.neighbend {
		s.neighbend[v] = make([]int, 0, degree[v])
	}
	for k, e := range edges {
		s.endpoint[2*k], s.endpoint[2*k+1] = e.U, e.V
		s.neighbend[e.U] = append(s.neighbend[e.U], 2*k+1)
		s.neighbend[e.V] = append(s.neighbend[e.V], 2*k)
	}
	s.mate = filled(n, -1)
	s.label = make([]int, 2*n)
	s.labelEnd = filled(2*n, -1)
	s.inBlossom = make([]int, n)
	for v := range s.inBlossom {
		s.inBlossom[v] = v
	}
	s.blossomParent = filled(2*n, -1)
	s.blossomChilds = make([][]int, 2*n)
	s.blossomBase = filled(2*n, -1)
	for v := 0; v < n; v++ {
		s.blossomBase[v] = v
	}
	s.blossomEndps = make([][]int, 2*n)
	s.bestEdge = filled(2*n, -1)
	s.blossomBestEdges = make([][]int, 2*n)
	s.unusedBlossoms = make([]int, 0, n)
	for b := 2*n - 1; b >= n; b-- {
		s.unusedBlossoms = append(s.unusedBlossoms, b)
	}
	s.dual = make([]int64, 2*n)
	s.allowEdge = make([]bool, len(edges))
	s.bestTo = filled(2*n, -1)
	return s
}

func filled(size, value int) []int {
	out := make([]int, size)
	for i := range out {
		out[i] = value
	}
	return out
}

// slack is twice the reduced cost of edge k (zero for tight edges).
func (s *solver) slack(k int) int64 {
	e := s.edges[k]
	return s.dual[e.U] + s.dual[e.V] - 4*e.Weight
}

// leaves appends the vertices contained in blossom b to out.
func (s *solver) leaves(b int, out []int) []int {
	if b < s.n {
		return append(out, b)
	}
	for _, t := range s.blossomChilds[b] {
		out = s.leaves(t, out)
	}
	return out
}

// warmStart sets every vertex dual to twice its heaviest incident edge weight
// (so all slacks are non-negative and all duals even) and greedily matches
// edges that are tight for both endpoints. Starting from per-vertex duals is
// what makes large sparse Swiss rounds fast; its price is that the weight is
// only guaranteed optimal when the final matching is perfect (a non-perfect
// maximum-weight optimum would need equal duals on all free vertices).
func (s *solver) warmStart() {
	for v := 0; v < s.n; v++ {
		for i, p := range s.neighbend[v] {
			if w := 2 * s.edges[p/2].Weight; i == 0 || w > s.dual[v] {
				s.dual[v] = w
			}
		}
	}
	for v := 0; v < s.n; v++ {
		if s.mate[v] != -1 {
			continue
		}
		for _, p := range s.neighbend[v] {
			w := s.endpoint[p]
			if s.mate[w] == -1 && s.slack(p/2) == 0 {
				s.mate[v] = p
				s.mate[w] = p ^ 1
				break
			}
		}
	}
}
