package projection_test

import (
	"context"
	"testing"

	"arbitre/domain/eventstore"
	"arbitre/projections/projection"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type modeleLit struct{ n int }

func (*modeleLit) Name() string                                    { return "modele" }
func (m *modeleLit) Apply(context.Context, eventstore.Event) error { m.n++; return nil }
func (*modeleLit) Lit(typ string) bool                             { return typ == "test.lu" }

type modeleMuet struct{ modeleLit }

func (*modeleMuet) Lit() {}

func TestIssue34_IndexSansBulletinPasseLeLot(t *testing.T) {
	for _, c := range []struct {
		nom      string
		m        projection.EnMemoire
		parBatch int
	}{{"dit ce qu'il lit", &modeleLit{}, 0}, {"ne le dit pas", &modeleMuet{}, 1}} {
		t.Run(c.nom, func(t *testing.T) {
			s := nouvelleSalle(t, 0)
			r, err := projection.NewRunnerEnMemoire(context.Background(), c.m, s.store)
			require.NoError(t, err)
			r.Avance = projection.NewAvance(s.store, nil)
			s.runners = []*projection.Runner{r}
			s.suivreUnParUn(t, 1, "test.coup")
			transactions, restore := projection.CompterTransactions()
			defer restore()
			s.suivreUnParUn(t, 2, repeter("test.coup", 8)...)
			assert.EqualValues(t, 8*c.parBatch, transactions.Load())
			assert.EqualValues(t, 9, r.Position())
			assert.True(t, r.EnMemoire())
		})
	}
}
