package standings

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/duplicate"
	"arbitre/domain/tournoi"
)

// TestArt3_8_4_ToppingClasseAuTemps: a topping (§3.8.4) ranks its players
// by their total time, the 20 s of a top given included: every player ends
// with the optimal game, so the score is the tops' and no solo is given. A
// coup not timed yet is pending. A topping is a competition of its own: it
// adds nothing to the tournament's cumul (ruling).
func TestArt3_8_4_ToppingClasseAuTemps(t *testing.T) {
	c := New()
	for _, l := range []string{"A", "B", "C"} {
		require.NoError(t, c.Appliquer("tournoi-t1", tournoi.JoueurInscrit{Joueur: tournoi.Joueur{Licence: l, Nom: l, Serie: "1", Arbitre: "A"}}))
	}
	jouer(t, c, "p1", duplicate.ModeNormal, 60, map[string]int{"A": 50, "B": 40, "C": 30}, "A", "B", "C")
	cfg, err := duplicate.Config{TempsParCoup: time.Minute, Mode: duplicate.ModeTopping}.Valider()
	require.NoError(t, err)
	flux := "partie-p2"
	require.NoError(t, c.Appliquer(flux, duplicate.PartieCreee{Partie: "p2", Tournoi: "t1", Config: cfg, Joueurs: []string{"A", "B", "C"}}))
	for coup, top := range []int{30, 20} {
		require.NoError(t, c.Appliquer(flux, duplicate.TopRetenu{Coup: coup + 1, Score: top}))
	}
	for _, e := range []duplicate.TopTrouve{
		{Coup: 1, Licence: "A", Secondes: 80}, {Coup: 2, Licence: "A", Secondes: 10, Trouve: true},
		{Coup: 1, Licence: "B", Secondes: 30, Trouve: true}, {Coup: 2, Licence: "B", Secondes: 40, Trouve: true},
		{Coup: 1, Licence: "C", Secondes: 5, Trouve: true},
	} {
		require.NoError(t, c.Appliquer(flux, e))
	}
	lignes, err := c.Partie("p2")
	require.NoError(t, err)
	type attendu struct {
		licence                              string
		temps, score, rang, enAttente, solos int
	}
	var got []attendu
	for _, l := range lignes {
		got = append(got, attendu{l.Licence, l.Temps, l.Score, l.Rang, l.EnAttente, l.Solos})
	}
	assert.Equal(t, []attendu{{"B", 70, 50, 1, 0, 0}, {"A", 90, 50, 2, 0, 0}, {"C", 5, 30, 3, 1, 0}}, got)

	cumul, err := c.Cumul()
	require.NoError(t, err)
	for _, l := range cumul {
		assert.Equal(t, 60, l.Top, "the topping adds nothing to the cumul")
		assert.Zero(t, l.Temps)
	}
}
