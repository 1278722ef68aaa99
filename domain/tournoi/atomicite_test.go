package tournoi

import (
	"arbitre/domain/aggregate"
	"arbitre/domain/erreur"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAtomicite_EvenementRefuseLaisseTournoiIntact: an event that does not
// fit the tournament is refused as a corrupt history and leaves it exactly
// as it was, its new events included; Nouveaux only reads them and Sauves
// forgets them.
func TestAtomicite_EvenementRefuseLaisseTournoiIntact(t *testing.T) {
	inscrit := func(t *testing.T) *Tournoi {
		tr := Nouveau()
		require.NoError(t, tr.Creer("t1", "Open", true))
		require.NoError(t, tr.Inscrire(Joueur{Licence: "1", Nom: "A", Table: 1}))
		return tr
	}
	tests := []struct {
		name string
		evt  any
	}{
		{"licence inscrite deux fois", JoueurInscrit{Joueur: Joueur{Licence: "1", Nom: "B"}}},
		{"exclusion d'une licence pas inscrite", JoueurExclu{Licence: "9", Motif: "fraude"}},
		{"seconde création", TournoiCree{Tournoi: "t2"}},
		{"type inconnu", struct{}{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, temoin := inscrit(t), inscrit(t)
			err := aggregate.Record(tr, tt.evt)
			var e *erreur.Erreur
			require.ErrorAs(t, err, &e)
			assert.Equal(t, erreur.CodeCorruptHistory, e.Code)
			assert.Equal(t, temoin, tr)
			require.Len(t, tr.Pending(), 2)
			assert.Len(t, tr.Pending(), 2, "Nouveaux ne vide pas")
			tr.MarkSaved()
			assert.Empty(t, tr.Pending())
		})
	}
}
