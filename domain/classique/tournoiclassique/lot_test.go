package tournoiclassique_test

import (
	"testing"

	"arbitre/domain/classique/matchclassique"
	"arbitre/domain/classique/tournoiclassique"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEnregistrerResultats_LotToutOuRien: the results of a whole round are
// copied in one command (the simulator records 500 tables a round this way,
// with one copy of the tournament instead of one per result). A batch with
// one bad feuille records nothing; a good batch records exactly what the
// results one by one record.
func TestEnregistrerResultats_LotToutOuRien(t *testing.T) {
	publie := func(t *testing.T) *tournoiclassique.TournoiClassique {
		tr := ouvert(t, 6)
		require.NoError(t, tr.EtablirTetesDeSerie())
		require.NoError(t, tr.Proposer("initial_by_cote", false))
		require.NoError(t, tr.Publier())
		return tr
	}
	feuilles := func(tr *tournoiclassique.TournoiClassique) []tournoiclassique.FeuilleDeMatch {
		var lot []tournoiclassique.FeuilleDeMatch
		for _, tb := range tr.Publiees()[0].Tables {
			lot = append(lot, tournoiclassique.FeuilleDeMatch{Match: tb.Match, Feuille: matchclassique.FeuilleValidee{Joueurs: [2]string{tb.Premier, tb.Second},
				Fin: matchclassique.FinReliquatEpuise, Scores: [2]int{400, 350}, Perdant: 1, PointsDeMatch: [2]int{3, 1}}})
		}
		return lot
	}
	mauvais := []struct {
		name     string
		modifier func(lot []tournoiclassique.FeuilleDeMatch) []tournoiclassique.FeuilleDeMatch
	}{
		{"dernière feuille d'autres joueurs", func(lot []tournoiclassique.FeuilleDeMatch) []tournoiclassique.FeuilleDeMatch {
			lot[len(lot)-1].Feuille.Joueurs = [2]string{"p0", "p9"}
			return lot
		}},
		{"un match deux fois", func(lot []tournoiclassique.FeuilleDeMatch) []tournoiclassique.FeuilleDeMatch {
			return append(lot, lot[0])
		}},
		{"un match inconnu", func(lot []tournoiclassique.FeuilleDeMatch) []tournoiclassique.FeuilleDeMatch {
			return append(lot, tournoiclassique.FeuilleDeMatch{Match: "open-r9-t1", Feuille: lot[0].Feuille})
		}},
	}
	for _, tt := range mauvais {
		t.Run(tt.name, func(t *testing.T) {
			tr := publie(t)
			refused(t, tr, tournoiclassique.CodeInvalidResult, func() error { return tr.EnregistrerResultats(tt.modifier(feuilles(tr))) })
			for _, f := range feuilles(tr) {
				_, ok := tr.Resultat(f.Match)
				assert.False(t, ok, "rien n'est enregistré")
			}
		})
	}

	lot, unParUn := publie(t), publie(t)
	require.NoError(t, lot.EnregistrerResultats(feuilles(lot)))
	for _, f := range feuilles(unParUn) {
		require.NoError(t, unParUn.EnregistrerResultat(f.Match, f.Feuille))
	}
	assert.Equal(t, unParUn.Pending(), lot.Pending())
	assert.Equal(t, unParUn.Classement(), lot.Classement())
	assertReplay(t, lot)
}
