//go:build !linux

package lexicon

// tableArcs returns a table of n arcs for the walk (see pages_linux.go).
func tableArcs(n int, _ *Lexicon) []Arc { return make([]Arc, n) }
