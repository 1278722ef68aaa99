package pairing

import (
	"maps"
	"slices"
)

// swissField is the Swiss view of the active players: ranked by standing,
// split into score groups (equal points de match), plus the bye vertex when
// the count is odd. Vertex v < n is the player ranked v; vertex n is the bye.
type swissField struct {
	r      *roster
	ranked []int // roster index of each vertex
	// group, groupPos and groupSize locate each vertex in its score group.
	group, groupPos, groupSize []int
	groups                     int
	groupStart                 []int // first vertex of each score group
	balance                    []int // start balance of each vertex
	minPoints, maxPoints       int
	hasBye                     bool
}

func newSwissField(r *roster, ranked []int) *swissField {
	n := len(ranked)
	f := &swissField{
		r:         r,
		ranked:    ranked,
		group:     make([]int, n),
		groupPos:  make([]int, n),
		groupSize: make([]int, n),
		balance:   make([]int, n),
		hasBye:    n%2 == 1,
	}
	for v := range n {
		f.balance[v] = r.startBalance(ranked[v])
		if v == 0 || f.points(v) != f.points(v-1) {
			f.groups++
			f.groupStart = append(f.groupStart, v)
		}
		f.group[v], f.groupPos[v] = f.groups-1, v-f.groupStart[f.groups-1]
	}
	for v := range n {
		f.groupSize[v] = f.sizeOfGroupAt(v)
	}
	f.maxPoints, f.minPoints = f.points(0), f.points(n-1)
	return f
}

func (f *swissField) sizeOfGroupAt(v int) int {
	end := v
	for end < len(f.ranked) && f.group[end] == f.group[v] {
		end++
	}
	return end - v + f.groupPos[v]
}

func (f *swissField) points(v int) int { return f.r.players[f.ranked[v]].MatchPoints }

func (f *swissField) players() int { return len(f.ranked) }

// vertices counts the matching graph's vertices (players plus the bye).
func (f *swissField) vertices() int {
	if f.hasBye {
		return len(f.ranked) + 1
	}
	return len(f.ranked)
}

func (f *swissField) byeVertex() int { return len(f.ranked) }

func (f *swissField) canHaveBye(v int) bool { return !f.r.players[f.ranked[v]].HadBye }

// meetingCounts fills counts[w] with how often vertex v met vertex w, and
// returns the vertices touched so the caller can reset them.
func (f *swissField) meetingCounts(v int, vertexOf []int, counts []int) []int {
	var touched []int
	for _, o := range f.r.opponents[f.ranked[v]] {
		w := vertexOf[o]
		if w < 0 {
			continue
		}
		if counts[w] == 0 {
			touched = append(touched, w)
		}
		counts[w]++
	}
	return touched
}

// vertexOf maps roster indexes to vertices (-1 for players not in the field).
func (f *swissField) vertexOf() []int {
	out := make([]int, len(f.r.players))
	for i := range out {
		out[i] = -1
	}
	for v, i := range f.ranked {
		out[i] = v
	}
	return out
}

// balanceClasses lists, for each score group, its vertices by start balance
// (ascending vertices in each list; balances in increasing order).
func (f *swissField) balanceClasses() [][][]int {
	byBalance := make([]map[int][]int, f.groups)
	for v := range f.players() {
		if byBalance[f.group[v]] == nil {
			byBalance[f.group[v]] = map[int][]int{}
		}
		byBalance[f.group[v]][f.balance[v]] = append(byBalance[f.group[v]][f.balance[v]], v)
	}
	classes := make([][][]int, f.groups)
	for group, lists := range byBalance {
		for _, b := range slices.Sorted(maps.Keys(lists)) {
			classes[group] = append(classes[group], lists[b])
		}
	}
	return classes
}
