package graphql

import (
	"maps"
	"slices"
)

// parCle lists a map of the federation's rankings (per série, per site) as
// the API's list, in the order of its keys.
func parCle[V, T any](m map[string]V, element func(cle string, v V) T) []T {
	out := make([]T, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, element(k, m[k]))
	}
	return out
}
