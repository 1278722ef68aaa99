package blossom

type deltaKind int

const (
	deltaNone deltaKind = iota
	deltaSToFree
	deltaSToS
	deltaTBlossom
)

// adjustDuals performs the primal-dual step: it finds the largest change of
// the duals that keeps every slack non-negative, applies it and acts on the
// constraint that became tight. It returns false when the optimum is reached.
func (s *solver) adjustDuals() bool {
	kind, delta, edge, blossom := deltaNone, int64(0), -1, -1
	for v := 0; v < s.n; v++ {
		if s.label[s.inBlossom[v]] == labelFree && s.bestEdge[v] != -1 {
			if d := s.slack(s.bestEdge[v]); kind == deltaNone || d < delta {
				kind, delta, edge = deltaSToFree, d, s.bestEdge[v]
			}
		}
	}
	for b := 0; b < 2*s.n; b++ {
		if s.blossomParent[b] == -1 && s.label[b] == labelS && s.bestEdge[b] != -1 {
			if d := s.slack(s.bestEdge[b]) / 2; kind == deltaNone || d < delta {
				kind, delta, edge = deltaSToS, d, s.bestEdge[b]
			}
		}
	}
	for b := s.n; b < 2*s.n; b++ {
		if s.blossomBase[b] >= 0 && s.blossomParent[b] == -1 && s.label[b] == labelT {
			if kind == deltaNone || s.dual[b] < delta {
				kind, delta, blossom = deltaTBlossom, s.dual[b], b
			}
		}
	}
	if kind == deltaNone {
		return false
	}
	s.shiftDuals(delta)
	switch kind {
	case deltaSToFree:
		s.allowEdge[edge] = true
		i := s.edges[edge].U
		if s.label[s.inBlossom[i]] == labelFree {
			i = s.edges[edge].V
		}
		s.queue = append(s.queue, i)
	case deltaSToS:
		s.allowEdge[edge] = true
		s.queue = append(s.queue, s.edges[edge].U)
	case deltaTBlossom:
		s.expandBlossom(blossom, false)
	}
	return true
}

func (s *solver) shiftDuals(delta int64) {
	for v := 0; v < s.n; v++ {
		switch s.label[s.inBlossom[v]] {
		case labelS:
			s.dual[v] -= delta
		case labelT:
			s.dual[v] += delta
		}
	}
	for b := s.n; b < 2*s.n; b++ {
		if s.blossomBase[b] >= 0 && s.blossomParent[b] == -1 {
			switch s.label[b] {
			case labelS:
				s.dual[b] += delta
			case labelT:
				s.dual[b] -= delta
			}
		}
	}
}
