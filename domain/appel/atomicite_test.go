package appel

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/aggregate"
	"arbitre/domain/erreur"
)

// TestAtomicite_EvenementRefuseLaisseRecoursIntact: a refused event leaves
// the appeal exactly as it was, its new events included; Pending only
// reads them and MarkSaved forgets them.
func TestAtomicite_EvenementRefuseLaisseRecoursIntact(t *testing.T) {
	tests := []struct {
		name string
		evt  any
	}{
		{"vote d'un non-membre", VoteEmis{Niveau: NiveauCommissionArbitrage, Membre: "X", Issue: IssueRejete}},
		{"seconde composition", CommissionComposee{Niveau: NiveauCommissionArbitrage, President: "M2", Membres: []string{"M2"}}},
		{"décision à un autre niveau", DecisionRendue{Niveau: NiveauRecoursFISF, Issue: IssueRejete}},
		{"dossier complété sans pièce demandée", DossierComplete{Niveau: NiveauCommissionArbitrage}},
		{"second dépôt", AppelDepose{Appel: "a2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, temoin := compose(t), compose(t)
			assert.Equal(t, CodeCorruptHistory, erreur.CodeOf(aggregate.Record(a, tt.evt)))
			assert.Equal(t, temoin, a)
			require.Len(t, a.Pending(), 2)
			assert.Len(t, a.Pending(), 2, "Pending forgets nothing")
			a.MarkSaved()
			assert.Empty(t, a.Pending())
		})
	}
}
