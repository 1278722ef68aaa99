package pairing

import "arbitre/domain/classique/pairing/internal/blossom"

// hasPerfectMatching decides by plain backtracking whether the vertices can
// all be paired using allowed pairs. It is the simple exact method the
// property tests use to check that a repeat or a float was unavoidable.
func hasPerfectMatching(vertices []int, allowed func(a, b int) bool) bool {
	if len(vertices) == 0 {
		return true
	}
	if len(vertices)%2 == 1 {
		return false
	}
	first := vertices[0]
	for i := 1; i < len(vertices); i++ {
		if !allowed(first, vertices[i]) {
			continue
		}
		rest := make([]int, 0, len(vertices)-2)
		rest = append(rest, vertices[1:i]...)
		rest = append(rest, vertices[i+1:]...)
		if hasPerfectMatching(rest, allowed) {
			return true
		}
	}
	return false
}

// allPerfectMatchings calls visit with every perfect matching of vertices
// (as pairs), for brute-force optimality checks on small fields.
func allPerfectMatchings(vertices []int, visit func(pairs [][2]int)) {
	var walk func(rest []int, pairs [][2]int)
	walk = func(rest []int, pairs [][2]int) {
		if len(rest) == 0 {
			visit(pairs)
			return
		}
		for i := 1; i < len(rest); i++ {
			next := make([]int, 0, len(rest)-2)
			next = append(next, rest[1:i]...)
			next = append(next, rest[i+1:]...)
			walk(next, append(pairs, [2]int{rest[0], rest[i]}))
		}
	}
	walk(vertices, nil)
}

// perfectMatchingExists uses backtracking on small vertex sets and the
// blossom solver (checked against brute force in its own package) on larger
// ones.
func perfectMatchingExists(vertices []int, allowed func(a, b int) bool) bool {
	if len(vertices) <= 16 {
		return hasPerfectMatching(vertices, allowed)
	}
	position := map[int]int{}
	for i, v := range vertices {
		position[v] = i
	}
	var edges []blossom.Edge
	for i, a := range vertices {
		for _, b := range vertices[i+1:] {
			if allowed(a, b) {
				edges = append(edges, blossom.Edge{U: i, V: position[b], Weight: 1})
			}
		}
	}
	return blossom.Solve(len(vertices), edges).Perfect()
}
