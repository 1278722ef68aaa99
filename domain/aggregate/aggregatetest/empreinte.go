// Package aggregatetest helps the aggregates' tests check that a refused
// event changes nothing.
package aggregatetest

import (
	"strings"
	"testing"

	"github.com/davecgh/go-spew/spew"
)

var config = spew.ConfigState{Indent: " ", SortKeys: true, DisablePointerAddresses: true, DisableCapacities: true, DisableMethods: true}

// Empreinte is a deep print of v, every field exported or not, every
// pointer followed: two aggregates with the same print hold the same state.
// It is made by reflection, independently of the aggregates' own copies, so
// a copy that shares what a transition changes cannot hide the change.
func Empreinte(v any) string { return config.Sdump(v) }

// Identique fails the test when v's print is not avant, showing the lines
// that differ.
func Identique(t testing.TB, avant string, v any) {
	t.Helper()
	apres := Empreinte(v)
	if apres == avant {
		return
	}
	a, b := strings.Split(avant, "\n"), strings.Split(apres, "\n")
	debut := 0
	for debut < len(a) && debut < len(b) && a[debut] == b[debut] {
		debut++
	}
	fa, fb := len(a), len(b)
	for fa > debut && fb > debut && a[fa-1] == b[fb-1] {
		fa, fb = fa-1, fb-1
	}
	t.Errorf("l'agrégat a changé (lignes %d à %d)\navant :\n%s\naprès :\n%s", debut+1, fa,
		strings.Join(a[debut:fa], "\n"), strings.Join(b[debut:fb], "\n"))
}
