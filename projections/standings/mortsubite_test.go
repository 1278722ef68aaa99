package standings

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/duplicate"
	"arbitre/domain/tournoi"
	"arbitre/engine/correction"
)

// TestArt3_8_3_PenalitesSurLeCoupEnDepartage: in sudden death, and in the
// départage that follows it (2020 §3.8.3), every penalty is applied on the
// coup (§5.9): the live standings of a game not over yet already take the
// 5 points of the sixth avertissement; a normal game takes them at its end.
func TestArt3_8_3_PenalitesSurLeCoupEnDepartage(t *testing.T) {
	tests := []struct {
		mode  duplicate.Mode
		score int
	}{
		{duplicate.ModeNormal, 14},
		{duplicate.ModeMortSubite, 9},
		{duplicate.ModeBarrage, 9},
	}
	for _, tt := range tests {
		t.Run(string(tt.mode), func(t *testing.T) {
			c := New()
			require.NoError(t, c.Appliquer("tournoi-t1", tournoi.JoueurInscrit{Joueur: tournoi.Joueur{Licence: "A", Nom: "A", Serie: "1", Arbitre: "A"}}))
			cfg := normale
			gratuits := 5
			cfg.Mode, cfg.AvertissementsGratuits = tt.mode, &gratuits
			cfg, err := cfg.Valider()
			require.NoError(t, err)
			require.NoError(t, c.Appliquer("partie-p1", duplicate.PartieCreee{Partie: "p1", Tournoi: "t1", Config: cfg, Joueurs: []string{"A"}}))
			require.NoError(t, c.Appliquer("partie-p1", duplicate.TopRetenu{Coup: 1, Score: 14}))
			d := correction.Decision{Paid: 14, Sanction: correction.Warning, DisciplineWarnings: 5}
			require.NoError(t, c.Appliquer("partie-p1", duplicate.BulletinCorrige{Coup: 1, Licence: "A", Arbitre: "A", Moteur: &d}))
			lignes, err := c.Partie("p1")
			require.NoError(t, err)
			assert.Equal(t, tt.score, lignes[0].Score)
		})
	}
}
