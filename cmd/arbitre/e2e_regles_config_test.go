package main

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestE2EArt1_3_Guide2_5_ConfigurationPartie: over HTTP, the director sets
// the free warnings of a game (guide §2.5, §6.1.1; zero included, §5.9's
// default when absent) and the option of guide §2.3 (the top must have been
// played), and a thinking time §1.3 does not list is refused with
// INVALID_CONFIG, nothing created.
func TestE2EArt1_3_Guide2_5_ConfigurationPartie(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	s := startAPIServer(t, data)
	defer s.stop()
	require.Empty(t, s.gql(director, `mutation { creerTournoi(id:"T1", nom:"Open de Vichy") { id } }`, nil).Errors)
	require.Empty(t, s.gql(director, `mutation($j: JoueurInput!) { inscrireJoueur(tournoi:"T1", joueur:$j) { version } }`,
		map[string]any{"j": map[string]any{"licence": "L1", "nom": "Joueur 1", "table": 1}}).Errors)

	type config struct {
		TempsParCoupSecondes   int  `json:"tempsParCoupSecondes"`
		AvertissementsGratuits int  `json:"avertissementsGratuits"`
		TopJoue                bool `json:"topJoue"`
	}
	tests := []struct {
		name, partie, config string
		code                 string
		want                 config
	}{
		{"guide §2.5 quatre avertissements gratuits", "P1", `{avertissementsGratuits: 4}`, "", config{180, 4, false}},
		{"§5.9 blitz sans paramètre : cinq", "P2", `{tempsParCoupSecondes: 60}`, "", config{60, 5, false}},
		{"§1.3 deux minutes trente", "P3", `{tempsParCoupSecondes: 150, avertissementsGratuits: 2}`, "", config{150, 2, false}},
		{"§1.3 quatre-vingt-dix secondes refusées", "P4", `{tempsParCoupSecondes: 90}`, "INVALID_CONFIG", config{}},
		{"guide §2.5 aucun avertissement gratuit", "P6", `{avertissementsGratuits: 0}`, "", config{180, 0, false}},
		{"guide §2.3 le top doit avoir été joué", "P7", `{topJoue: true}`, "", config{180, 3, true}},
		{"guide §2.5 un nombre négatif refusé", "P5", `{avertissementsGratuits: -1}`, "INVALID_INPUT", config{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := s.gql(director, fmt.Sprintf(`mutation { creerPartie(tournoi:"T1", partie:%q, config:%s) { config { tempsParCoupSecondes avertissementsGratuits topJoue } } }`, tt.partie, tt.config), nil)
			if tt.code != "" {
				assert.Equal(t, tt.code, res.code())
				var absente *struct{ Statut string }
				s.gql(director, fmt.Sprintf(`{ partie(id:%q) { statut } }`, tt.partie), nil).into(t, "partie", &absente)
				assert.Nil(t, absente, "nothing created")
				return
			}
			var got struct {
				Config config `json:"config"`
			}
			res.into(t, "creerPartie", &got)
			assert.Equal(t, tt.want, got.Config)
		})
	}
}
