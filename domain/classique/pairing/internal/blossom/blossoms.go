package blossom

// addBlossom shrinks the odd cycle closed by edge k into a new S-blossom with
// the given base.
func (s *solver) addBlossom(base, k int) {
	v, w := s.edges[k].U, s.edges[k].V
	bb, bv, bw := s.inBlossom[base], s.inBlossom[v], s.inBlossom[w]
	b := s.unusedBlossoms[len(s.unusedBlossoms)-1]
	s.unusedBlossoms = s.unusedBlossoms[:len(s.unusedBlossoms)-1]
	s.blossomBase[b] = base
	s.blossomParent[b] = -1
	s.blossomParent[bb] = b
	var path, endps []int
	for bv != bb {
		s.blossomParent[bv] = b
		path = append(path, bv)
		endps = append(endps, s.labelEnd[bv])
		v = s.endpoint[s.labelEnd[bv]]
		bv = s.inBlossom[v]
	}
	path = append(path, bb)
	reverse(path)
	reverse(endps)
	endps = append(endps, 2*k)
	for bw != bb {
		s.blossomParent[bw] = b
		path = append(path, bw)
		endps = append(endps, s.labelEnd[bw]^1)
		w = s.endpoint[s.labelEnd[bw]]
		bw = s.inBlossom[w]
	}
	s.blossomChilds[b] = path
	s.blossomEndps[b] = endps
	s.label[b] = labelS
	s.labelEnd[b] = s.labelEnd[bb]
	s.dual[b] = 0
	for _, leaf := range s.leaves(b, nil) {
		if s.label[s.inBlossom[leaf]] == labelT {
			s.queue = append(s.queue, leaf)
		}
		s.inBlossom[leaf] = b
	}
	s.collectBestEdges(b, path)
}

// collectBestEdges computes, for the new blossom b, the least-slack edge to
// every neighbouring S-blossom. s.bestTo is scratch space kept all -1.
func (s *solver) collectBestEdges(b int, path []int) {
	var touched []int
	consider := func(k int) {
		j := s.edges[k].V
		if s.inBlossom[j] == b {
			j = s.edges[k].U
		}
		bj := s.inBlossom[j]
		if bj == b || s.label[bj] != labelS {
			return
		}
		if s.bestTo[bj] == -1 {
			touched = append(touched, bj)
			s.bestTo[bj] = k
		} else if s.slack(k) < s.slack(s.bestTo[bj]) {
			s.bestTo[bj] = k
		}
	}
	for _, sub := range path {
		if s.blossomBestEdges[sub] == nil {
			for _, leaf := range s.leaves(sub, nil) {
				for _, p := range s.neighbend[leaf] {
					consider(p / 2)
				}
			}
		} else {
			for _, k := range s.blossomBestEdges[sub] {
				consider(k)
			}
		}
		s.blossomBestEdges[sub] = nil
		s.bestEdge[sub] = -1
	}
	best := make([]int, 0, len(touched))
	s.bestEdge[b] = -1
	for _, bj := range touched {
		k := s.bestTo[bj]
		s.bestTo[bj] = -1
		best = append(best, k)
		if s.bestEdge[b] == -1 || s.slack(k) < s.slack(s.bestEdge[b]) {
			s.bestEdge[b] = k
		}
	}
	s.blossomBestEdges[b] = best
}

func reverse(list []int) {
	for i, j := 0, len(list)-1; i < j; i, j = i+1, j-1 {
		list[i], list[j] = list[j], list[i]
	}
}

func indexOf(list []int, value int) int {
	for i, x := range list {
		if x == value {
			return i
		}
	}
	return -1
}

// child returns the entry of a blossom's child list at a possibly negative
// index (negative indices wrap around, as the traversal walks both ways).
func child(list []int, j int) int {
	if j < 0 {
		j += len(list)
	}
	return list[j]
}
