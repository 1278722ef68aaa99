package standings

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/duplicate"
	"arbitre/domain/tournoi"
	"arbitre/engine/correction"
)

const flux = "partie-p1"

// decide is a correction of coup 1 by the engine.
func decide(licence string, d correction.Decision) duplicate.BulletinCorrige {
	return duplicate.BulletinCorrige{Coup: 1, Licence: licence, Arbitre: "A", Moteur: &d}
}

func paye(licence string, score int) duplicate.BulletinCorrige {
	return decide(licence, correction.Decision{Paid: score, Sanction: correction.None})
}

// avert is a warning on the coup and n-1 disciplinary ones (§5.5, §5.8).
func avert(licence string, score, n int) duplicate.BulletinCorrige {
	return decide(licence, correction.Decision{Paid: score, Sanction: correction.Warning, DisciplineWarnings: n - 1})
}

// pen is the 5-point penalty of §5.6 on a claimed score.
func pen(licence string, score int) duplicate.BulletinCorrige {
	return decide(licence, correction.Decision{Paid: score - 5, Sanction: correction.Penalty})
}

// moy is an average capped by the claimed score (guide §2.10, §5.9).
func moy(licence string, plafond int) duplicate.BulletinCorrige {
	return decide(licence, correction.Decision{Sanction: correction.Average, AverageCap: plafond})
}

// unePartie folds a game of n players (licences J00..) with one coup of top
// 20 and the given corrections.
func unePartie(t *testing.T, n int, cfg duplicate.Config, corrections []duplicate.BulletinCorrige, fin bool) *Classement {
	t.Helper()
	c := New()
	var js []string
	for i := range n {
		l := fmt.Sprintf("J%02d", i)
		js = append(js, l)
		require.NoError(t, c.Appliquer("tournoi-t1", tournoi.JoueurInscrit{Joueur: tournoi.Joueur{Licence: l, Nom: l, Serie: []string{"1", "2"}[i%2], Arbitre: "A"}}))
	}
	cfg, err := cfg.Valider()
	require.NoError(t, err)
	require.NoError(t, c.Appliquer(flux, duplicate.PartieCreee{Partie: "p1", Config: cfg, Joueurs: js}))
	require.NoError(t, c.Appliquer(flux, duplicate.TopRetenu{Coup: 1, Score: 20}))
	for _, b := range corrections {
		require.NoError(t, c.Appliquer(flux, b))
	}
	if fin {
		require.NoError(t, c.Appliquer(flux, duplicate.PartieTerminee{Motif: duplicate.FinToutesLettresPlacees, DernierCoup: 1}))
	}
	return c
}

// ligne is a player's line of the public standings of p1.
func ligne(t *testing.T, c *Classement, licence string) Ligne {
	t.Helper()
	return lignePour(t, c, licence, Public)
}

// lignePour is a player's line of the standings of p1 as r sees them.
func lignePour(t *testing.T, c *Classement, licence string, r Regard) Ligne {
	t.Helper()
	ls, err := c.PartiePour("p1", r)
	require.NoError(t, err)
	for _, l := range ls {
		if l.Licence == licence {
			return l
		}
	}
	t.Fatalf("%s absent", licence)
	return Ligne{}
}

var normale = duplicate.Config{TempsParCoup: 3 * time.Minute}

func TestStandings_Regles(t *testing.T) {
	tests := []struct {
		name        string
		n           int
		cfg         duplicate.Config
		corrections []duplicate.BulletinCorrige
		licence     string
		score       int
		solos       int
		penalites   int
	}{
		{"§3.5 solo avec 16 joueurs : +10", 16, normale, []duplicate.BulletinCorrige{paye("J00", 20), paye("J01", 18)}, "J00", 30, 1, 0},
		{"§3.5 solo avec 15 joueurs : pas de bonification", 15, normale, []duplicate.BulletinCorrige{paye("J00", 20)}, "J00", 20, 1, 0},
		{"§3.5 solo comparé avant la pénalité de 5 points", 16, normale, []duplicate.BulletinCorrige{pen("J00", 20), paye("J01", 18)}, "J00", 25, 1, 5},
		{"§3.5 égalité : pas de solo", 16, normale, []duplicate.BulletinCorrige{paye("J00", 20), paye("J01", 20)}, "J00", 20, 0, 0},
		{"§5.9 quatrième avertissement : 5 points", 2, normale, []duplicate.BulletinCorrige{avert("J00", 20, 4)}, "J00", 15, 1, 5},
		{"§5.9 blitz : cinq avertissements gratuits", 2, duplicate.Config{TempsParCoup: time.Minute}, []duplicate.BulletinCorrige{avert("J00", 20, 5)}, "J00", 20, 1, 0},
		{"guide §2.10 moyenne inférieure au score revendiqué", 3, normale, []duplicate.BulletinCorrige{moy("J00", 15), paye("J01", 20), paye("J02", 9)}, "J00", 15, 0, 0},
		{"guide §2.10 moyenne supérieure : plafonnée au score revendiqué", 3, normale, []duplicate.BulletinCorrige{moy("J00", 10), paye("J01", 20), paye("J02", 9)}, "J00", 10, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := ligne(t, unePartie(t, tt.n, tt.cfg, tt.corrections, true), tt.licence)
			assert.Equal(t, tt.score, l.Score)
			assert.Equal(t, tt.solos, l.Solos)
			assert.Equal(t, tt.penalites, l.Penalites)
			assert.Equal(t, 20, l.Top)
			assert.Equal(t, tt.score-20, l.Negatif)
		})
	}
}

func TestStandings_Paragraphe5_9_PenalitesEnFinDePartie(t *testing.T) {
	c := unePartie(t, 2, normale, []duplicate.BulletinCorrige{avert("J00", 20, 4)}, false)
	assert.Equal(t, 20, ligne(t, c, "J00").Score, "§5.9 retirées en fin de partie")
	assert.Equal(t, 1, ligne(t, c, "J01").EnAttente, "bulletin non corrigé")
}

func TestStandings_Paragraphe6_2_RangsEtSeries(t *testing.T) {
	c := unePartie(t, 4, normale, []duplicate.BulletinCorrige{
		paye("J00", 20), paye("J01", 20), paye("J02", 10),
	}, false)
	require.NoError(t, c.Appliquer(flux, duplicate.JoueurArrive{Licence: "J09", PremierCoup: 2}))
	ls, err := c.Partie("p1")
	require.NoError(t, err)
	rangs := map[string]int{}
	for _, l := range ls {
		rangs[l.Licence] = l.Rang
	}
	assert.Equal(t, map[string]int{"J00": 1, "J01": 1, "J02": 3, "J03": 4, "J09": 4}, rangs, "ex aequo au même rang ; §6.2 coup 1 nul pour le retardataire")
	s2 := ParSerie(ls, "2")
	require.Len(t, s2, 2)
	assert.Equal(t, []int{1, 2}, []int{s2[0].Rang, s2[1].Rang})
	assert.Equal(t, 100.0, ls[0].Pourcentage)
}

func TestStandings_Paragraphe3_7_InterruptionAnnulee(t *testing.T) {
	c := unePartie(t, 2, normale, []duplicate.BulletinCorrige{paye("J00", 20)}, false)
	require.NoError(t, c.Appliquer(flux, duplicate.PartieTerminee{Motif: duplicate.FinInterruption, Annulee: true}))
	l := ligne(t, c, "J00")
	assert.Zero(t, l.Score)
	assert.Zero(t, l.Top)
}
