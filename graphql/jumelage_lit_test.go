package graphql

import (
	"context"
	"testing"

	"arbitre/domain/catalogue"
	"arbitre/domain/eventstore/eventstoretest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Issue 34 (the hall's bulletin phase): the twinnings' index says what it
// reads (projection.Selectif), so that its runner passes a batch of
// bulletins without a transaction; it must then fold no event of a type it
// does not list, or a live batch and a catch-up would leave it in two
// states. Each registered type, its payload a twinning of tournament t1
// where it has the fields, in a stream of each kind, goes through Apply on
// a fresh index: one that changes it or fails must be read (Lit), and a
// twinning's creation is.
func TestIssue34_IndexDesJumelagesLitCeQuIlPlie(t *testing.T) {
	reg, err := catalogue.Registre()
	require.NoError(t, err)
	streams := [][2]string{{"partie", "p1"}, {"tournoi", "t1"}, {"federation", "jumelage-j1"}}
	lus := 0
	for _, e := range eventstoretest.EachType(t, reg, streams...) {
		e.Data = []byte(`{"tournoi":"t1","jumelage":"j1"}`)
		x := &indexJumelages{registre: reg, parTournoi: map[string][]string{}}
		err := x.Apply(context.Background(), e)
		plie := err != nil || len(x.parTournoi) > 0
		assert.Equal(t, x.Lit(e.Type), plie, "%s in %s: folded %v (err %v)", e.Type, e.Stream, plie, err)
		if plie {
			lus++
		}
	}
	assert.Equal(t, len(streams), lus, "a twinning's creation, in every stream")
}
