package blossom

// Solve returns a maximum-cardinality matching of the graph with n vertices.
// When that matching is perfect it is a maximum-weight perfect matching;
// otherwise its weight carries no guarantee (see warmStart). Edges must join
// distinct vertices in [0, n), at most once per pair, with
// |Weight| <= MaxAbsWeight.
func Solve(n int, edges []Edge) *Matching {
	s := newSolver(n, edges)
	s.warmStart()
	for range n {
		if !s.stage() {
			break
		}
	}
	return s.result()
}

// MaxAbsWeight bounds edge weights so that doubled duals never overflow.
const MaxAbsWeight = int64(1) << 59

// stage grows alternating trees from every free vertex until it augments the
// matching (true) or proves no improvement is possible (false).
func (s *solver) stage() bool {
	s.resetStage()
	for {
		if s.scanQueue() {
			s.expandZeroDualBlossoms()
			return true
		}
		if !s.adjustDuals() {
			return false
		}
	}
}

func (s *solver) resetStage() {
	clear(s.label)
	for i := range s.bestEdge {
		s.bestEdge[i] = -1
	}
	for b := s.n; b < 2*s.n; b++ {
		s.blossomBestEdges[b] = nil
	}
	clear(s.allowEdge)
	s.queue = s.queue[:0]
	for v := 0; v < s.n; v++ {
		if s.mate[v] == -1 && s.label[s.inBlossom[v]] == labelFree {
			s.assignLabel(v, labelS, -1)
		}
	}
}

// scanQueue labels everything reachable through tight edges from the queued
// S-vertices; it returns true once it has augmented the matching.
func (s *solver) scanQueue() bool {
	for len(s.queue) > 0 {
		v := s.queue[len(s.queue)-1]
		s.queue = s.queue[:len(s.queue)-1]
		for _, p := range s.neighbend[v] {
			k, w := p/2, s.endpoint[p]
			bv, bw := s.inBlossom[v], s.inBlossom[w]
			if bv == bw {
				continue
			}
			var kslack int64
			if !s.allowEdge[k] {
				kslack = s.slack(k)
				if kslack <= 0 {
					s.allowEdge[k] = true
				}
			}
			switch {
			case s.allowEdge[k] && s.label[bw] == labelFree:
				s.assignLabel(w, labelT, p^1)
			case s.allowEdge[k] && s.label[bw] == labelS:
				if base := s.scanBlossom(v, w); base >= 0 {
					s.addBlossom(base, k)
				} else {
					s.augmentMatching(k)
					return true
				}
			case s.allowEdge[k] && s.label[w] == labelFree:
				s.label[w] = labelT
				s.labelEnd[w] = p ^ 1
			case s.allowEdge[k]:
			case s.label[bw] == labelS:
				if s.bestEdge[bv] == -1 || kslack < s.slack(s.bestEdge[bv]) {
					s.bestEdge[bv] = k
				}
			case s.label[w] == labelFree:
				if s.bestEdge[w] == -1 || kslack < s.slack(s.bestEdge[w]) {
					s.bestEdge[w] = k
				}
			}
		}
	}
	return false
}

// expandZeroDualBlossoms ends a stage by dissolving S-blossoms whose dual
// reached zero.
func (s *solver) expandZeroDualBlossoms() {
	for b := s.n; b < 2*s.n; b++ {
		if s.blossomParent[b] == -1 && s.blossomBase[b] >= 0 && s.label[b] == labelS && s.dual[b] == 0 {
			s.expandBlossom(b, true)
		}
	}
}
