package projection_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/integrity"
)

// Review of s12-avance (a gap that predates it): a message whose event
// differs from the stored one but carries a hash computed over its own
// content after the previous stored hash (a Pub/Sub other than the
// in-process gochannel, pipeline.Config, that forged it) passes the chain
// check of every runner, which hold only the message's word for the
// stored hash: the forged event enters every live view and the runners
// stop only at the next event. Nothing compares the message with the
// store, though the read-ahead reads the store right after it.
func TestRevue12_MessageFalsifieAvecSonHashNEntrePasDansLaVue(t *testing.T) {
	s := nouvelleSalle(t, 2)
	for p := 1; p <= 3; p++ {
		s.ajouter(t, 1)
		for _, err := range s.livrer(t, p) {
			require.NoError(t, err)
		}
	}
	s.ajouter(t, 3)
	precedent, err := s.store.ReadAllAfter(context.Background(), 2, 1)
	require.NoError(t, err)
	l := s.livraison(t, 4, func(e *eventstore.Event) {
		e.Data = json.RawMessage(`"forgé"`)
		e.Hash = integrity.ChainHash(precedent[0].Hash, *e)
	})
	for _, r := range s.runners {
		err := r.Recevoir(context.Background(), l)
		rows, cp := s.compter(t, r)
		t.Logf("projection %s: %v; %d rows, checkpoint %d", r.Name(), err, rows, cp)
	}
	for _, r := range s.runners {
		var n int
		require.NoError(t, s.db.QueryRow(`SELECT COUNT(*) FROM `+r.Name()+` WHERE data = '"forgé"'`).Scan(&n))
		assert.Zero(t, n, "projection %s folded the forged event", r.Name())
	}
}
