package blossom

// expandBlossom dissolves blossom b into its sub-blossoms. During a stage a
// T-blossom's children must be relabeled; at the end of a stage zero-dual
// children are expanded recursively.
func (s *solver) expandBlossom(b int, endStage bool) {
	for _, sub := range s.blossomChilds[b] {
		s.blossomParent[sub] = -1
		switch {
		case sub < s.n:
			s.inBlossom[sub] = sub
		case endStage && s.dual[sub] == 0:
			s.expandBlossom(sub, endStage)
		default:
			for _, leaf := range s.leaves(sub, nil) {
				s.inBlossom[leaf] = sub
			}
		}
	}
	if !endStage && s.label[b] == labelT {
		s.relabelExpandedT(b)
	}
	s.label[b], s.labelEnd[b] = -1, -1
	s.blossomChilds[b], s.blossomEndps[b] = nil, nil
	s.blossomBase[b] = -1
	s.blossomBestEdges[b] = nil
	s.bestEdge[b] = -1
	s.unusedBlossoms = append(s.unusedBlossoms, b)
}

// relabelExpandedT walks the children of an expanding T-blossom from the
// child through which it was reached to its base, relabeling the even path
// with alternating T/S labels and re-examining the remaining children.
func (s *solver) relabelExpandedT(b int) {
	childs, endps := s.blossomChilds[b], s.blossomEndps[b]
	entryChild := s.inBlossom[s.endpoint[s.labelEnd[b]^1]]
	j := indexOf(childs, entryChild)
	jStep, endpTrick := -1, 1
	if j&1 != 0 {
		j -= len(childs)
		jStep, endpTrick = 1, 0
	}
	p := s.labelEnd[b]
	for j != 0 {
		s.label[s.endpoint[p^1]] = labelFree
		s.label[s.endpoint[child(endps, j-endpTrick)^endpTrick^1]] = labelFree
		s.assignLabel(s.endpoint[p^1], labelT, p)
		s.allowEdge[child(endps, j-endpTrick)/2] = true
		j += jStep
		p = child(endps, j-endpTrick) ^ endpTrick
		s.allowEdge[p/2] = true
		j += jStep
	}
	bv := child(childs, j)
	s.label[s.endpoint[p^1]], s.label[bv] = labelT, labelT
	s.labelEnd[s.endpoint[p^1]], s.labelEnd[bv] = p, p
	s.bestEdge[bv] = -1
	j += jStep
	for child(childs, j) != entryChild {
		bv = child(childs, j)
		if s.label[bv] == labelS {
			j += jStep
			continue
		}
		reached := -1
		for _, leaf := range s.leaves(bv, nil) {
			if s.label[leaf] != labelFree {
				reached = leaf
				break
			}
		}
		if reached != -1 {
			s.label[reached] = labelFree
			s.label[s.endpoint[s.mate[s.blossomBase[bv]]]] = labelFree
			s.assignLabel(reached, labelT, s.labelEnd[reached])
		}
		j += jStep
	}
}
