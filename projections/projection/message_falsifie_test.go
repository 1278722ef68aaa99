package projection_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/integrity"
	"arbitre/projections/projection"
)

// Review of s12-avance (a gap that predates it): a message whose event
// differs from the stored one but carries a hash computed over its own
// content after the previous stored hash (a Pub/Sub other than the
// in-process gochannel, pipeline.Config, that forged it) passed the chain
// check of every runner, which held only the message's word for the
// stored hash: the forged event entered every live view and the runners
// stopped only at the next event. The runners now apply the stored events
// from the message's position on, read once for all of them, and refuse
// a message that is not the stored event at its position as tampered:
// every runner, sharing the read-ahead or reading alone, stops right
// before it, and a message that is the stored event still goes through.
func TestRevue12_MessageFalsifieAvecSonHashNEntrePasDansLaVue(t *testing.T) {
	for _, c := range []struct {
		nom      string
		partagee bool
	}{
		{"lecture en avance partagée", true},
		{"chacun lit seul", false},
	} {
		t.Run(c.nom, func(t *testing.T) {
			s := nouvelleSalle(t, 2)
			if !c.partagee {
				for _, r := range s.runners {
					r.Avance = nil
				}
			}
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
				require.ErrorIs(t, err, eventstore.ErrTampered, "projection %s", r.Name())
				var applyErr *projection.ApplyError
				require.ErrorAs(t, err, &applyErr)
				assert.EqualValues(t, 4, applyErr.Position)
				rows, cp := s.compter(t, r)
				assert.Equal(t, 3, rows, "projection %s stops right before", r.Name())
				assert.EqualValues(t, 3, cp, "projection %s stops right before", r.Name())
			}
			for _, r := range s.runners {
				var n int
				require.NoError(t, s.db.QueryRow(`SELECT COUNT(*) FROM `+r.Name()+` WHERE data = '"forgé"'`).Scan(&n))
				assert.Zero(t, n, "projection %s folded the forged event", r.Name())
			}
			for _, err := range s.livrer(t, 4) {
				require.NoError(t, err, "the stored event's own message")
			}
			for _, r := range s.runners {
				rows, cp := s.compter(t, r)
				assert.Equal(t, 6, rows)
				assert.EqualValues(t, 6, cp)
			}
		})
	}
}
