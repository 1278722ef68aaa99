package standings

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/duplicate"
	"arbitre/domain/tournoi"
	"arbitre/engine/correction"
)

// jouer folds game id of the given mode, one coup of the given top, every
// player paid his score; the game ends.
func jouer(t *testing.T, c *Classement, id string, mode duplicate.Mode, top int, scores map[string]int, ordre ...string) {
	t.Helper()
	cfg := normale
	cfg.Mode = mode
	cfg, err := cfg.Valider()
	require.NoError(t, err)
	flux := "partie-" + id
	require.NoError(t, c.Appliquer(flux, duplicate.PartieCreee{Partie: id, Tournoi: "t1", Config: cfg, Joueurs: ordre}))
	require.NoError(t, c.Appliquer(flux, duplicate.TopRetenu{Coup: 1, Score: top}))
	for _, l := range ordre {
		d := correction.Decision{Paid: scores[l], Sanction: correction.None}
		require.NoError(t, c.Appliquer(flux, duplicate.BulletinCorrige{Coup: 1, Licence: l, Arbitre: "A", Moteur: &d}))
	}
	require.NoError(t, c.Appliquer(flux, duplicate.PartieTerminee{Motif: duplicate.FinToutesLettresPlacees, DernierCoup: 1}))
}

// TestGuide2_14_BarrageDepartageSansCumul: a barrage or a sudden death
// between players tied on the cumul ranks them and adds nothing to the cumul
// (guide §2.14, 2020 §3.8.3): A, B tied at 50 and C at 40 after the normal
// games, a départage won by A 30–20 gives A 50 rank 1, B 50 rank 2, C 40
// rank 3, top and percentages from the normal games only.
func TestGuide2_14_BarrageDepartageSansCumul(t *testing.T) {
	for _, mode := range []duplicate.Mode{duplicate.ModeBarrage, duplicate.ModeMortSubite} {
		t.Run(string(mode), func(t *testing.T) {
			c := New()
			for _, l := range []string{"A", "B", "C"} {
				require.NoError(t, c.Appliquer("tournoi-t1", tournoi.JoueurInscrit{Joueur: tournoi.Joueur{Licence: l, Nom: l, Serie: "1", Arbitre: "A"}}))
			}
			jouer(t, c, "p1", duplicate.ModeNormal, 60, map[string]int{"A": 50, "B": 50, "C": 40}, "A", "B", "C")
			// B is listed first so that the licence order cannot explain the ranks.
			jouer(t, c, "p2", mode, 35, map[string]int{"B": 20, "A": 30}, "B", "A")

			cumul, err := c.Cumul()
			require.NoError(t, err)
			type attendu struct {
				licence     string
				score, rang int
			}
			var got []attendu
			for _, l := range cumul {
				got = append(got, attendu{l.Licence, l.Score, l.Rang})
				assert.Equal(t, 60, l.Top, l.Licence)
			}
			assert.Equal(t, []attendu{{"A", 50, 1}, {"B", 50, 2}, {"C", 40, 3}}, got)
			assert.InDelta(t, 83.33, cumul[0].Pourcentage, 0.001)
			assert.Equal(t, []attendu{{"A", 50, 1}, {"B", 50, 2}, {"C", 40, 3}}, func() []attendu {
				var out []attendu
				for _, l := range ParSerie(cumul, "1") {
					out = append(out, attendu{l.Licence, l.Score, l.Rang})
				}
				return out
			}())
		})
	}
}
