package blossom

// assignLabel labels the top-level blossom containing w with t (S or T),
// reached through endpoint p. A T-blossom immediately passes label S to the
// mate of its base.
func (s *solver) assignLabel(w, t, p int) {
	for {
		b := s.inBlossom[w]
		s.label[w], s.label[b] = t, t
		s.labelEnd[w], s.labelEnd[b] = p, p
		s.bestEdge[w], s.bestEdge[b] = -1, -1
		if t == labelS {
			s.queue = s.leaves(b, s.queue)
			return
		}
		base := s.blossomBase[b]
		w, t, p = s.endpoint[s.mate[base]], labelS, s.mate[base]^1
	}
}

// scanBlossom traces back from S-vertices v and w along the alternating
// trees. It returns the base of the new blossom they close, or -1 when the
// two trees are distinct (an augmenting path exists).
func (s *solver) scanBlossom(v, w int) int {
	var path []int
	base := -1
	for v != -1 || w != -1 {
		b := s.inBlossom[v]
		if s.label[b]&labelMark != 0 {
			base = s.blossomBase[b]
			break
		}
		path = append(path, b)
		s.label[b] = labelS | labelMark
		if s.labelEnd[b] == -1 {
			v = -1
		} else {
			v = s.endpoint[s.labelEnd[b]]
			b = s.inBlossom[v]
			v = s.endpoint[s.labelEnd[b]]
		}
		if w != -1 {
			v, w = w, v
		}
	}
	for _, b := range path {
		s.label[b] = labelS
	}
	return base
}
