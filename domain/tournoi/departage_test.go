package tournoi

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/duplicate"
	"arbitre/domain/erreur"
)

// TestGuide2_14_BarrageJoueursDepartages: a barrage (or a sudden death
// that names its players) is created for the players it separates only,
// not for every player of the tournament (guide §2.14, 2020 §3.8.3).
func TestGuide2_14_BarrageJoueursDepartages(t *testing.T) {
	tr := Nouveau()
	require.NoError(t, tr.Creer("t1", "Festival"))
	for _, l := range []string{"A", "B", "C", "D"} {
		require.NoError(t, tr.Inscrire(Joueur{Licence: l, Nom: l}))
	}
	require.NoError(t, tr.Exclure("D", "t1-1", "fraude avérée", false))
	tests := []struct {
		name     string
		mode     duplicate.Mode
		licences []string
		joueurs  []string
		code     erreur.Code
	}{
		{"partie normale : tous sauf l'exclu", duplicate.ModeNormal, nil, []string{"A", "B", "C"}, ""},
		{"barrage : les seuls ex aequo", duplicate.ModeBarrage, []string{"B", "A"}, []string{"B", "A"}, ""},
		{"mort subite nommée", duplicate.ModeMortSubite, []string{"A", "C"}, []string{"A", "C"}, ""},
		{"compétition mort subite", duplicate.ModeMortSubite, nil, []string{"A", "B", "C"}, ""},
		{"barrage sans joueurs", duplicate.ModeBarrage, nil, nil, CodeInvalidDepartage},
		{"partie normale nommée", duplicate.ModeNormal, []string{"A", "B"}, nil, CodeInvalidDepartage},
		{"un seul joueur", duplicate.ModeBarrage, []string{"A"}, nil, CodeInvalidDepartage},
		{"deux fois le même", duplicate.ModeBarrage, []string{"A", "A"}, nil, CodeInvalidDepartage},
		{"non inscrit", duplicate.ModeBarrage, []string{"A", "Z"}, nil, CodeUnknownPlayer},
		{"exclu", duplicate.ModeBarrage, []string{"A", "D"}, nil, CodeExcluded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			joueurs, err := tr.JoueursDePartie(tt.mode, tt.licences)
			if tt.code == "" {
				require.NoError(t, err)
				assert.Equal(t, tt.joueurs, joueurs)
				return
			}
			var e *Erreur
			require.ErrorAs(t, err, &e)
			assert.Equal(t, tt.code, e.Code)
		})
	}
}
