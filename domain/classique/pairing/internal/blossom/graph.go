package blossom

// Edge is an undirected edge between vertices U and V (0-based) with an
// integer Weight. Parallel edges and self-loops are not allowed.
type Edge struct {
	U, V   int
	Weight int64
}
