package main

// ISSUE 29, ITEM 1: a whole game played through the API in the order a hall
// works — tirage, chrono, ramassage, top, THEN the arbiters type and correct
// the bulletins — the last coup included, whose top ends the game.

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// dcGenre is the bulletin player i writes on coup n: the top mostly, a
// blank (§5.7) or a wrong score (§5.5) now and then.
func dcGenre(i, n int) string {
	switch {
	case (i+n)%6 == 0:
		return "blanc"
	case (3*i+n)%11 == 0:
		return "faux"
	}
	return ""
}

// TestE2EIntroduction_Guide3_2_LeDernierCoupCompte: « à l'issue de chaque
// coup, les joueurs marquent les points que leur rapporte la solution
// qu'ils ont eux-mêmes trouvée » (introduction); they stay seated « en
// attendant le passage de leur arbitre » (guide §3.2). Every coup's
// bulletins are typed and corrected after its top; the last top ends the
// game (§3.7) and its bulletins, and one held back from coup 1, are typed
// after the end. The standings are provisional until the director closes
// the results (refused while bulletins are missing), and then equal the
// hand computation: every coup counted, the §5.9 penalties withdrawn.
func TestE2EIntroduction_Guide3_2_LeDernierCoupCompte(t *testing.T) {
	s, directeur, arbitres := sallePC(t)
	defer s.stop()
	exiger := func(jeton, q string, vars map[string]any) apiResult {
		t.Helper()
		res := s.gql(jeton, q, vars)
		require.Empty(t, res.Errors, "%s: %+v", q, res.Errors)
		return res
	}
	exiger(directeur, `mutation { creerTournoi(id:"`+pcTournoi+`", nom:"Open de Vichy", homologue: false) { id } }`, nil)
	exiger(directeur, `mutation($j: [JoueurInput!]!) { inscrireJoueurs(tournoi:"`+pcTournoi+`", joueurs:$j) { version } }`, map[string]any{"j": pcJoueurs})
	var creee struct {
		Config struct{ AvertissementsGratuits int }
	}
	exiger(directeur, `mutation($g: Int!) { creerPartie(tournoi:"`+pcTournoi+`", partie:"`+pcPartie+`", config:{source: logiciel, graine:$g, tempsParCoupSecondes:120}) {
		config { avertissementsGratuits } } }`, map[string]any{"g": e2eGraine}).into(t, "creerPartie", &creee)

	p := map[string]any{"p": pcPartie}
	const deposerQ = `mutation($p: ID!, $c: Int!, $l: ID!, $b: BulletinInput!) { deposerBulletin(partie:$p, coup:$c, licence:$l, bulletin:$b) { licence } }`
	const corrigerQ = `mutation($p: ID!, $c: Int!, $l: ID!) { corrigerBulletin(partie:$p, coup:$c, licence:$l) { licence } }`
	const cloreQ = `mutation($p: ID!, $m: Boolean) { cloreResultats(partie:$p, confirmerManquants:$m) { fin { resultatsClos } } }`
	// The hand computation: points paid and avertissements per player, the
	// sum of the tops.
	paye, avertissements, tops := map[string]int{}, map[string]int{}, 0
	saisir := func(top e2eTop, i int, l string) {
		t.Helper()
		genre := dcGenre(i, top.Coup)
		b := bulletinPrevu(l, genre, top)
		exiger(arbitres[l], deposerQ, map[string]any{"p": pcPartie, "c": top.Coup, "l": l, "b": b.api})
		exiger(arbitres[l], corrigerQ, map[string]any{"p": pcPartie, "c": top.Coup, "l": l})
		switch genre {
		case "blanc":
		case "faux":
			paye[l] += top.Score
			avertissements[l]++
		default:
			paye[l] += top.Score
		}
	}
	const retenu = "L8" // his bulletin of coup 1 is typed after the end
	var premier, dernier e2eTop
	for n := 1; ; n++ {
		require.Less(t, n, 60, "the game ends")
		var tire struct{ Statut string }
		exiger(directeur, `mutation($p: ID!) { tirer(partie:$p) { statut } }`, p).into(t, "tirer", &tire)
		require.Equal(t, "tirage", tire.Statut, "the game ends with a top, not with a tirage")
		var sols struct {
			Solutions []struct {
				Mot, Reference string
				Score          int
				Admissible     bool
			}
		}
		exiger(directeur, `query($p: ID!) { partie(id:$p) { solutions { mot reference score admissible } } }`, p).into(t, "partie", &sols)
		if len(sols.Solutions) == 0 || !sols.Solutions[0].Admissible {
			exiger(directeur, `mutation($p: ID!) { annulerCoup(partie:$p, motif:aucune_solution) { version } }`, p)
			continue
		}
		exiger(directeur, `mutation($p: ID!) { demarrerChrono(partie:$p) { version } }`, p)
		exiger(directeur, `mutation($p: ID!) { ramasser(partie:$p) { version } }`, p)
		sol := sols.Solutions[0]
		var apres struct {
			Statut string
			Tops   []e2eTop
		}
		exiger(directeur, `mutation($p: ID!, $r: String!, $m: String!) { retenirTop(partie:$p, reference:$r, mot:$m) { statut tops { coup mot reference score } } }`,
			map[string]any{"p": pcPartie, "r": sol.Reference, "m": sol.Mot}).into(t, "retenirTop", &apres)
		top := apres.Tops[len(apres.Tops)-1]
		tops += top.Score
		if top.Coup == 1 {
			premier = top
		}
		if apres.Statut == "terminee" {
			dernier = top
			break
		}
		for i, j := range pcJoueurs {
			if l := j["licence"].(string); top.Coup != 1 || l != retenu {
				saisir(top, i, l)
			}
		}
	}
	require.NotZero(t, dernier.Coup)
	t.Logf("the top of coup %d ended the game", dernier.Coup)

	res := s.gql(directeur, cloreQ, map[string]any{"p": pcPartie})
	assert.Equal(t, "BULLETINS_PENDING", res.code(), "the last coup's bulletins and the one held back are missing")

	// The arbiters type the last coup's bulletins, and the one held back.
	for i, j := range pcJoueurs {
		saisir(dernier, i, j["licence"].(string))
	}
	saisir(premier, len(pcJoueurs)-1, retenu)

	type ligne struct {
		Licence               string
		Score, Top, EnAttente int
		Provisoire            bool
	}
	lire := func() map[string]ligne {
		t.Helper()
		var c []ligne
		exiger("", `query($p: ID!) { classement(partie:$p) { licence score top enAttente provisoire } }`, p).into(t, "classement", &c)
		require.Len(t, c, len(pcJoueurs))
		out := map[string]ligne{}
		for _, l := range c {
			out[l.Licence] = l
		}
		return out
	}
	attendu := map[string]ligne{}
	for _, j := range pcJoueurs {
		l := j["licence"].(string)
		penalites := 5 * max(0, avertissements[l]-creee.Config.AvertissementsGratuits) // §5.9
		attendu[l] = ligne{Licence: l, Score: paye[l] - penalites, Top: tops}
	}
	provisoire := lire()
	for l, a := range attendu {
		a.Provisoire = true
		assert.Equal(t, a, provisoire[l], "%s before the results are closed", l)
	}

	var clos struct {
		Fin struct{ ResultatsClos bool }
	}
	exiger(directeur, cloreQ, map[string]any{"p": pcPartie}).into(t, "cloreResultats", &clos)
	assert.True(t, clos.Fin.ResultatsClos)
	assert.Equal(t, attendu, lire(), "the final standings: every coup counted, the last included")

	b := bulletinPrevu("L1", "", dernier)
	res = s.gql(arbitres["L1"], deposerQ, map[string]any{"p": pcPartie, "c": dernier.Coup, "l": "L1", "b": b.api})
	assert.Equal(t, "RESULTS_CLOSED", res.code(), fmt.Sprint(res.Errors))
	res = s.gql(arbitres["L1"], corrigerQ, map[string]any{"p": pcPartie, "c": dernier.Coup, "l": "L1"})
	assert.Equal(t, "RESULTS_CLOSED", res.code(), fmt.Sprint(res.Errors))
}
