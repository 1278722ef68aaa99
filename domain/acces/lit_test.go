package acces_test

import (
	"context"
	"testing"

	"arbitre/domain/acces"
	"arbitre/domain/catalogue"
	"arbitre/domain/eventstore/eventstoretest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Issue 34 (the hall's bulletin phase): the tokens' registry says what it
// reads (projection.Selectif), so that its runner passes a batch of
// bulletins without a transaction; it must then fold no event of a type it
// does not list, or a live batch and a catch-up would leave it in two
// states. Each registered type, its zero payload in a stream of each kind,
// goes through Apply on a fresh registry: one that changes it (its
// position included) or fails must be read (Lit), and every type Lit
// lists changes it.
func TestIssue34_RegistreDesJetonsLitCeQuIlPlie(t *testing.T) {
	reg, err := catalogue.Registre()
	require.NoError(t, err)
	streams := [][2]string{{"partie", "p1"}, {"tournoi", "t1"}, {"acces", "j1"}}
	lus := 0
	for _, e := range eventstoretest.EachType(t, reg, streams...) {
		r, vide := acces.NewRegistre(), acces.NewRegistre()
		acces.Brancher(reg, nil, r)
		err := r.Apply(context.Background(), e)
		plie := err != nil || !assert.ObjectsAreEqual(vide.Etat(), r.Etat())
		assert.Equal(t, r.Lit(e.Type), plie, "%s in %s: folded %v (err %v), Lit %v", e.Type, e.Stream, plie, err, r.Lit(e.Type))
		if plie {
			lus++
		}
	}
	assert.Equal(t, 2*len(streams), lus, "a token's issue and its revocation, in every stream")
}
