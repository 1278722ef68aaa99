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
	require.NoError(t, tr.Creer("t1", "Festival", true))
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
			joueurs, err := tr.JoueursDePartie(tt.mode, tt.licences, nil)
			if tt.code == "" {
				require.NoError(t, err)
				assert.Equal(t, tt.joueurs, joueurs)
				return
			}
			var e *erreur.Erreur
			require.ErrorAs(t, err, &e)
			assert.Equal(t, tt.code, e.Code)
		})
	}
}

// TestGuide2_14_BarrageEntreExAequo: a barrage separates players level on
// the cumul (guide §2.14 « plusieurs joueurs ex aequo »): one whose players
// are not level is refused with INVALID_TIEBREAK; a sudden death, which
// is also a competition of its own (§3.8.3), is not bound to it.
func TestGuide2_14_BarrageEntreExAequo(t *testing.T) {
	tr := Nouveau()
	require.NoError(t, tr.Creer("t1", "Festival", true))
	for _, l := range []string{"A", "B", "C"} {
		require.NoError(t, tr.Inscrire(Joueur{Licence: l, Nom: l}))
	}
	cumul := map[string]int{"A": 50, "B": 50, "C": 40}
	tests := []struct {
		name     string
		mode     duplicate.Mode
		licences []string
		code     erreur.Code
	}{
		{"guide §2.14 barrage des ex aequo", duplicate.ModeBarrage, []string{"A", "B"}, ""},
		{"guide §2.14 barrage de joueurs non ex aequo", duplicate.ModeBarrage, []string{"A", "C"}, CodeInvalidDepartage},
		{"guide §2.14 un des trois n'est pas ex aequo", duplicate.ModeBarrage, []string{"A", "B", "C"}, CodeInvalidDepartage},
		{"§3.8.3 mort subite nommée", duplicate.ModeMortSubite, []string{"A", "C"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tr.JoueursDePartie(tt.mode, tt.licences, cumul)
			if tt.code == "" {
				require.NoError(t, err)
				return
			}
			var e *erreur.Erreur
			require.ErrorAs(t, err, &e)
			assert.Equal(t, tt.code, e.Code)
		})
	}
}
