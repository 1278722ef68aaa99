package blossom

// augmentBlossom swaps matched and unmatched edges inside blossom b along the
// even path from vertex v to the base, making v the new base.
func (s *solver) augmentBlossom(b, v int) {
	t := v
	for s.blossomParent[t] != b {
		t = s.blossomParent[t]
	}
	if t >= s.n {
		s.augmentBlossom(t, v)
	}
	childs, endps := s.blossomChilds[b], s.blossomEndps[b]
	i := indexOf(childs, t)
	j := i
	jStep, endpTrick := -1, 1
	if i&1 != 0 {
		j -= len(childs)
		jStep, endpTrick = 1, 0
	}
	for j != 0 {
		j += jStep
		t = child(childs, j)
		p := child(endps, j-endpTrick) ^ endpTrick
		if t >= s.n {
			s.augmentBlossom(t, s.endpoint[p])
		}
		j += jStep
		t = child(childs, j)
		if t >= s.n {
			s.augmentBlossom(t, s.endpoint[p^1])
		}
		s.mate[s.endpoint[p]] = p ^ 1
		s.mate[s.endpoint[p^1]] = p
	}
	s.blossomChilds[b] = rotate(childs, i)
	s.blossomEndps[b] = rotate(endps, i)
	s.blossomBase[b] = s.blossomBase[s.blossomChilds[b][0]]
}

func rotate(list []int, i int) []int {
	out := make([]int, 0, len(list))
	out = append(out, list[i:]...)
	return append(out, list[:i]...)
}

// augmentMatching flips the augmenting path that runs through edge k between
// two distinct alternating trees.
func (s *solver) augmentMatching(k int) {
	ends := [2][2]int{{s.edges[k].U, 2*k + 1}, {s.edges[k].V, 2 * k}}
	for _, end := range ends {
		v, p := end[0], end[1]
		for {
			bs := s.inBlossom[v]
			if bs >= s.n {
				s.augmentBlossom(bs, v)
			}
			s.mate[v] = p
			if s.labelEnd[bs] == -1 {
				break
			}
			t := s.endpoint[s.labelEnd[bs]]
			bt := s.inBlossom[t]
			v = s.endpoint[s.labelEnd[bt]]
			j := s.endpoint[s.labelEnd[bt]^1]
			if bt >= s.n {
				s.augmentBlossom(bt, j)
			}
			s.mate[j] = s.labelEnd[bt]
			p = s.labelEnd[bt] ^ 1
		}
	}
}
