package ronde

import (
	"testing"

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
			tr, err := Ouvrir("open", "Open de test", 3, ConfigParDefaut())
			require.NoError(t, err)
			require.NoError(t, tr.Inscrire("p1", "", 1000))
			temoin := tr.clone()
			assert.Equal(t, CodeCorruptHistory, CodeOf(tr.record(tt.lot...)))
			assert.Equal(t, temoin, tr)
			require.Len(t, tr.Nouveaux(), 2)
			assert.Len(t, tr.Nouveaux(), 2, "Nouveaux ne vide pas")
			tr.Sauves()
			assert.Empty(t, tr.Nouveaux())
		})
	}
}
