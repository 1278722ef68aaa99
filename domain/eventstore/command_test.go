package eventstore

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCommandeVerifier(t *testing.T) {
	events := []Event{{Revision: 0}, {Revision: 1, Metadata: Metadata{CausationID: "m-1"}},
		{Revision: 2, Metadata: Metadata{Actor: "jeton:a", CausationID: "m-4", Requete: "tirer:1"}}}
	three, one := 3, 1
	cases := []struct {
		name string
		c    Commande
		want error
	}{
		{"no envelope", Commande{}, nil},
		{"new command at the right version", Commande{ID: "m-2", Version: &three}, nil},
		{"retry of a fingerprinted request", Commande{ID: "m-4", Auteur: "jeton:a", Requete: "tirer:1"}, ErrDejaTraitee},
		{"another request under a used key", Commande{ID: "m-4", Auteur: "jeton:a", Requete: "rejeter:1"}, ErrCleReutilisee},
		{"the same id of another author", Commande{ID: "m-4", Auteur: "jeton:b", Requete: "rejeter:1", Version: &three}, nil},
		{"retry of an applied command", Commande{ID: "m-1", Version: &one}, ErrDejaTraitee},
		{"stale version", Commande{ID: "m-3", Version: &one}, ErrConflict},
	}
	for _, c := range cases {
		err := c.c.Verifier("partie-1", events)
		if c.want == nil {
			assert.NoError(t, err, c.name)
			continue
		}
		assert.ErrorIs(t, err, c.want, c.name)
	}
	err := Commande{Version: &one}.Verifier("partie-1", events)
	v, ok := VersionOf(err)
	assert.True(t, ok)
	assert.Equal(t, 3, v, "the conflict tells the current version")
	ctx := AvecCommande(context.Background(), Commande{ID: "x", Requete: "tirer:1"})
	assert.Equal(t, "x", CommandeDe(ctx).ID)
	assert.Equal(t, Metadata{CausationID: "x", Requete: "tirer:1"}, CommandeDe(ctx).Metadata(Metadata{}))
	assert.False(t, errors.Is(nil, ErrDejaTraitee))
}
