package tournoiclassique

import (
	"testing"

	"arbitre/domain/aggregate"
	"arbitre/domain/aggregate/aggregatetest"
	"arbitre/domain/erreur"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAtomicite_LotRefuseLaisseTournoiIntact: a command's events are
// recorded all or nothing. A batch whose second event is refused leaves the
// tournament exactly as it was, its new events included; Nouveaux only
// reads them and Sauves forgets them.
func TestAtomicite_LotRefuseLaisseTournoiIntact(t *testing.T) {
	tests := []struct {
		name string
		lot  []any
	}{
		{"inscription puis retrait d'un inconnu", []any{JoueurInscrit{Joueur: "p9", Cote: 1000}, JoueurRetire{Joueur: "x"}}},
		{"inscription puis seconde ouverture", []any{JoueurInscrit{Joueur: "p9", Cote: 1000}, TournoiOuvert{Tournoi: "autre"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := Nouveau()
			err := tr.Ouvrir("open", "Open de test", 3, ConfigParDefaut())
			require.NoError(t, err)
			require.NoError(t, tr.Inscrire("p1", "", 1000))
			temoin := tr.Copie()
			assert.Equal(t, CodeCorruptHistory, erreur.CodeOf(aggregate.Record(tr, tt.lot...)))
			assert.Equal(t, temoin, tr)
			require.Len(t, tr.Pending(), 2)
			assert.Len(t, tr.Pending(), 2, "Nouveaux ne vide pas")
			tr.MarkSaved()
			assert.Empty(t, tr.Pending())
		})
	}
}

// TestAtomicite_SecondeInscriptionDuMemeJoueurRefusee (issue 33, item 1):
// a second JoueurInscrit for a registered player does not fit the
// tournament (Inscrire refuses it): the transition refuses it as a corrupt
// history and the tournament stays identical, compared with a print made
// by reflection (aggregatetest.Empreinte). Today it was accepted, the
// player listed twice.
func TestAtomicite_SecondeInscriptionDuMemeJoueurRefusee(t *testing.T) {
	tr := Nouveau()
	err := tr.Ouvrir("open", "Open de test", 3, ConfigParDefaut())
	require.NoError(t, err)
	require.NoError(t, tr.Inscrire("p1", "Ana", 1000))
	avant := aggregatetest.Empreinte(tr)
	assert.Equal(t, CodeCorruptHistory, erreur.CodeOf(tr.Apply(JoueurInscrit{Joueur: "p1", Nom: "Ana bis", Cote: 1200})))
	aggregatetest.Identique(t, avant, tr)
}
