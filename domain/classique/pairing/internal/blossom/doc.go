// Package blossom computes maximum-weight perfect matchings (and
// maximum-cardinality matchings when no perfect matching exists) on general
// graphs with Edmonds' blossom algorithm in its primal-dual form (Galil's O(n^3) scheme,
// following the structure of Joris van Rantwijk's reference implementation).
//
// The solver works in integers only: every internal dual is a whole number
// because the search starts from even vertex duals (see warmStart) and only
// ever moves all forest roots together.
//
// Besides the matching it exposes the final dual solution, so that a caller
// who solved a sparse subgraph can prove (ReducedCost >= 0 for every edge left
// out) that the matching is also optimal for the complete graph.
package blossom
