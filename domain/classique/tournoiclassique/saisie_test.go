package tournoiclassique_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/classique/matchclassique"
	"arbitre/domain/classique/pairing"
	"arbitre/domain/classique/tournoiclassique"
)

// The console registers a whole list at once: every line is checked, the
// refusal names each bad one, and nothing is written unless all are good.
func TestInscrireLot_ToutOuRien(t *testing.T) {
	tr := ouvert(t, 2)
	lot := []tournoiclassique.Inscription{{Joueur: "a", Nom: "Ana", Cote: 1200}, {Joueur: "p1", Nom: "Déjà"}, {Joueur: "", Nom: "Sans"},
		{Joueur: "b", Nom: "Bea", Cote: -3}, {Joueur: "a", Nom: "Ana bis"}}
	refused(t, tr, tournoiclassique.CodeInvalidPlayer, func() error { return tr.InscrireLot(lot) })
	err := tr.InscrireLot(lot)
	for _, faute := range []string{"n° 2 (p1) : déjà inscrit", "n° 3 : joueur sans identifiant", "n° 4 (b) : la cote -3 est impossible", "n° 5 (a) : déjà inscrit"} {
		assert.Contains(t, err.Error(), faute)
	}
	assert.NotContains(t, err.Error(), "n° 1 ")
	assert.Len(t, tr.Inscrits(), 2, "nothing written")

	require.NoError(t, tr.InscrireLot([]tournoiclassique.Inscription{{Joueur: "a", Nom: "Ana", Cote: 1200}, {Joueur: "b", Nom: "Bea"}}))
	assert.Equal(t, []string{"p0", "p1", "a", "b"}, []string{tr.Inscrits()[0].Joueur, tr.Inscrits()[1].Joueur, tr.Inscrits()[2].Joueur, tr.Inscrits()[3].Joueur})
	refused(t, tr, tournoiclassique.CodeInvalidPlayer, func() error { return tr.InscrireLot(nil) })
	require.NoError(t, tr.EtablirTetesDeSerie())
	refused(t, tr, tournoiclassique.CodeWrongState, func() error { return tr.InscrireLot([]tournoiclassique.Inscription{{Joueur: "c"}}) })
	assertReplay(t, tr)
}

// publie opens 4 players and publishes round 1 (initial by cote: p3-p1,
// p2-p0 in some orientation).
func publie(t *testing.T) *tournoiclassique.TournoiClassique {
	t.Helper()
	tr := ouvert(t, 4)
	require.NoError(t, tr.EtablirTetesDeSerie())
	require.NoError(t, tr.Proposer(pairing.InitialByCote, false))
	require.NoError(t, tr.Publier())
	return tr
}

// The director enters the result of a table from the paper feuille de
// match: scores in the table's order (first player, second player), the
// ending, and for a forfeit or an abandon the player concerned; points de
// match follow §7 and §9.
func TestSaisirResultat_DepuisLaFeuilleDeMatch(t *testing.T) {
	cases := []struct {
		nom     string
		saisie  func(tb tournoiclassique.Table) tournoiclassique.Saisie
		scores  [2]int
		perdant int
		pm      [2]int
	}{
		{"victoire du premier (§7)", func(tournoiclassique.Table) tournoiclassique.Saisie {
			return tournoiclassique.Saisie{Scores: [2]int{420, 380}}
		},
			[2]int{420, 380}, 1, [2]int{3, 1}},
		{"ex æquo (§7)", func(tournoiclassique.Table) tournoiclassique.Saisie {
			return tournoiclassique.Saisie{Scores: [2]int{400, 400}, Fin: matchclassique.FinBlocage}
		},
			[2]int{400, 400}, -1, [2]int{2, 2}},
		{"forfait du second (§9)", func(tb tournoiclassique.Table) tournoiclassique.Saisie {
			return tournoiclassique.Saisie{Fin: matchclassique.FinForfait, Joueur: tb.Second}
		},
			[2]int{0, 0}, 1, [2]int{3, 0}},
		{"abandon accepté du premier, table du §9", func(tb tournoiclassique.Table) tournoiclassique.Saisie {
			return tournoiclassique.Saisie{Scores: [2]int{300, 250}, Fin: matchclassique.FinAbandon, Joueur: tb.Premier}
		}, [2]int{350, 450}, 0, [2]int{1, 3}},
		{"abandon unilatéral du second (§9)", func(tb tournoiclassique.Table) tournoiclassique.Saisie {
			return tournoiclassique.Saisie{Scores: [2]int{500, 380}, Fin: matchclassique.FinAbandonUnilateral, Joueur: tb.Second}
		}, [2]int{500, 380}, 1, [2]int{3, 0}},
	}
	for _, c := range cases {
		t.Run(c.nom, func(t *testing.T) {
			tr := publie(t)
			tb := tr.Publiees()[0].Tables[0]
			require.NoError(t, tr.SaisirResultat(tb.Match, c.saisie(tb)))
			r, ok := tr.Resultat(tb.Match)
			require.True(t, ok)
			assert.Equal(t, [2]string{tb.Premier, tb.Second}, r.Joueurs)
			assert.Equal(t, 0, r.Premier)
			assert.Equal(t, c.scores, r.Scores)
			assert.Equal(t, c.perdant, r.Perdant)
			assert.Equal(t, c.pm, r.PointsDeMatch)
			assertReplay(t, tr)
		})
	}
}

// Bad entries are refused in French and change nothing.
func TestSaisirResultat_Refus(t *testing.T) {
	tr := publie(t)
	tb := tr.Publiees()[0].Tables[0]
	autre := tr.Publiees()[0].Tables[1]
	for nom, s := range map[string]struct {
		match  string
		saisie tournoiclassique.Saisie
	}{
		"match inconnu":              {"open-r9-t1", tournoiclassique.Saisie{Scores: [2]int{1, 0}}},
		"forfait sans joueur":        {tb.Match, tournoiclassique.Saisie{Fin: matchclassique.FinForfait}},
		"forfait d'un autre joueur":  {tb.Match, tournoiclassique.Saisie{Fin: matchclassique.FinForfait, Joueur: autre.Premier}},
		"forfait avec des scores":    {tb.Match, tournoiclassique.Saisie{Fin: matchclassique.FinForfait, Joueur: tb.Premier, Scores: [2]int{300, 0}}},
		"joueur sur une fin normale": {tb.Match, tournoiclassique.Saisie{Scores: [2]int{300, 200}, Joueur: tb.Premier}},
		"score négatif":              {tb.Match, tournoiclassique.Saisie{Scores: [2]int{-5, 200}}},
		"fin inconnue":               {tb.Match, tournoiclassique.Saisie{Scores: [2]int{300, 200}, Fin: "nulle"}},
	} {
		t.Run(nom, func(t *testing.T) {
			refused(t, tr, tournoiclassique.CodeInvalidResult, func() error { return tr.SaisirResultat(s.match, s.saisie) })
		})
	}
	require.NoError(t, tr.SaisirResultat(tb.Match, tournoiclassique.Saisie{Scores: [2]int{410, 390}}))
	refused(t, tr, tournoiclassique.CodeInvalidResult, func() error { return tr.SaisirResultat(tb.Match, tournoiclassique.Saisie{Scores: [2]int{400, 390}}) })
}

// A result entered wrongly is corrected with a reason; the correction
// replaces it in the standings, and a correction needs a result to correct.
func TestCorrigerResultat_RemplaceLeResultat(t *testing.T) {
	tr := publie(t)
	tables := tr.Publiees()[0].Tables
	tb := tables[0]
	refused(t, tr, tournoiclassique.CodeInvalidResult, func() error {
		return tr.CorrigerResultat(tb.Match, tournoiclassique.Saisie{Scores: [2]int{300, 400}}, "inversé")
	})
	require.NoError(t, tr.SaisirResultat(tb.Match, tournoiclassique.Saisie{Scores: [2]int{400, 300}}))
	refused(t, tr, tournoiclassique.CodeInvalidResult, func() error {
		return tr.CorrigerResultat(tb.Match, tournoiclassique.Saisie{Scores: [2]int{300, 400}}, "  ")
	})
	require.NoError(t, tr.CorrigerResultat(tb.Match, tournoiclassique.Saisie{Scores: [2]int{300, 400}}, "scores inversés"))
	r, _ := tr.Resultat(tb.Match)
	assert.Equal(t, [2]int{300, 400}, r.Scores)
	assert.Equal(t, "scores inversés", r.Correction)
	for _, l := range tr.Classement() {
		if l.Joueur == tb.Second {
			assert.Equal(t, 3, l.PointsDeMatch, "the corrected winner")
		}
	}
	require.NoError(t, tr.SaisirResultat(tables[1].Match, tournoiclassique.Saisie{Scores: [2]int{400, 300}}))
	assertReplay(t, tr)
}

// The amendment's refusals are French, like every message for people.
func TestAmender_JoueurEnDoubleEnFrancais(t *testing.T) {
	tr := ouvert(t, 4)
	require.NoError(t, tr.EtablirTetesDeSerie())
	require.NoError(t, tr.Proposer(pairing.InitialByCote, false))
	err := tr.Amender([]tournoiclassique.TableAmendee{{Premier: "p0", Second: "p1"}, {Premier: "p1", Second: "p2"}}, "", "")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "p1 apparaît deux fois")
}

// The reasons of the pending proposal and of the amendment, from the
// stored results (pairing.Explain).
func TestRaisons_PropositionEtAmendement(t *testing.T) {
	tr := publie(t)
	jouer(t, tr)
	r1 := tr.Publiees()[0].Tables
	require.NoError(t, tr.Proposer(pairing.Swiss, false))
	prop, _ := tr.Proposition()
	ex, err := tr.Raisons(prop.Tables, prop.Exempt)
	require.NoError(t, err)
	assert.Equal(t, 0, ex.Repeats, "the Swiss proposal avoids rematches")
	assert.Len(t, ex.Tables, 2)

	ex, err = tr.Raisons([]tournoiclassique.Table{{Numero: 1, Premier: r1[0].Premier, Second: r1[0].Second}, {Numero: 2, Premier: r1[1].Premier, Second: r1[1].Second}}, "")
	require.NoError(t, err)
	assert.Equal(t, 2, ex.Repeats)
	assert.Equal(t, []int{1, 1}, []int{ex.Tables[0].RepeatOf, ex.Tables[1].RepeatOf})
	assert.Equal(t, pairing.DebutPlusSouvent, ex.Tables[0].Start, "the first player of round 1 starts again")
}
