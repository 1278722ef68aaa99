package query

import (
	"context"
	"slices"
	"testing"

	"arbitre/domain/appel"
	"arbitre/domain/catalogue"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/eventstoretest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Issue 34 (the hall's bulletin phase): the appeals' index says what it
// reads (projection.Selectif), so that its runner passes a batch of
// bulletins without a transaction; it must then fold no event of a type it
// does not list, whatever its stream, or a live batch and a catch-up would
// leave it in two states. Each registered type, its zero payload in a
// stream of each kind, goes through Apply on a fresh index: one that
// changes the index or fails must be read (Lit); and Lit lists the appeal's
// types exactly.
func TestIssue34_IndexDesAppelsLitCeQuIlPlie(t *testing.T) {
	reg, err := catalogue.Registre()
	require.NoError(t, err)
	streams := [][2]string{{"partie", "p1"}, {"tournoi", "t1"}, {"appel", "t1-a1"}, {"acces", "j1"}}
	for _, e := range eventstoretest.EachType(t, reg, streams...) {
		x, vide := NewIndex(reg), NewIndex(reg)
		err := x.Apply(context.Background(), e)
		plie := err != nil || !assert.ObjectsAreEqual(vide.appels, x.appels) || !slices.Equal(vide.ordre, x.ordre)
		if plie {
			assert.True(t, x.Lit(e.Type), "%s in %s: Apply folds it (err %v), Lit does not list it", e.Type, e.Stream, err)
		}
	}
	seul := eventstore.NewRegistry()
	require.NoError(t, appel.RegisterEvents(seul))
	assert.Equal(t, seul.Types(), slices.Sorted(func(yield func(string) bool) {
		for _, typ := range reg.Types() {
			if x := NewIndex(reg); x.Lit(typ) && !yield(typ) {
				return
			}
		}
	}), "Lit lists the appeal's types, and them alone")
}
