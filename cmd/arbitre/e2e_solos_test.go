package main

// ISSUE 29, ITEM 2: the solos are the juge-arbitre's to announce at the end
// of the game (§3.5), not the public's to see while it is played.

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestE2EArt3_5_SolosAnnoncesEnFinDePartie: « le ou les solos sont annoncés
// par le juge-arbitre en fin de partie » (§3.5). In a game of 16 players a
// solo earns 10 points; while the game is played, the public standings
// (query and subscription) show no solo, no bonus and no score including
// one; the director's (classementDirecteur, refused to the public) show
// them; once the game is over, everyone's do.
func TestE2EArt3_5_SolosAnnoncesEnFinDePartie(t *testing.T) {
	data := t.TempDir()
	directeur := apiToken(t, data, "--role", "director")
	s := startAPIServer(t, data)
	defer s.stop()
	attendreJetons(t, s, directeur)
	exiger := func(q string, vars map[string]any) apiResult {
		t.Helper()
		res := s.gql(directeur, q, vars)
		require.Empty(t, res.Errors, "%s: %+v", q, res.Errors)
		return res
	}
	exiger(`mutation { creerTournoi(id:"T1", nom:"Open de Vichy", homologue: false) { id } }`, nil)
	var joueurs []map[string]any
	for i := 1; i <= 16; i++ {
		joueurs = append(joueurs, map[string]any{"licence": fmt.Sprintf("L%02d", i), "nom": fmt.Sprintf("Joueur %d", i), "club": "Vichy", "table": 1 + (i-1)/4})
	}
	exiger(`mutation($j: [JoueurInput!]!) { inscrireJoueurs(tournoi:"T1", joueurs:$j) { version } }`, map[string]any{"j": joueurs})
	exiger(`mutation($g: Int!) { creerPartie(tournoi:"T1", partie:"T1-1", config:{source: logiciel, graine:$g}) { id } }`, map[string]any{"g": e2eGraine})

	type ligne struct {
		Licence      string
		Score, Solos int
	}
	const classementQ = `{ classement(partie:"T1-1") { licence score solos } }`
	const cumulQ = `{ classement(tournoi:"T1") { licence score solos } }`
	const directeurQ = `{ classementDirecteur(partie:"T1-1") { licence score solos } }`
	const cumulDirecteurQ = `{ classementDirecteur(tournoi:"T1") { licence score solos } }`
	lire := func(jeton, q string) ligne {
		t.Helper()
		res := s.gql(jeton, q, nil)
		var ls []ligne
		champ := "classement"
		if q == directeurQ || q == cumulDirecteurQ {
			champ = "classementDirecteur"
		}
		res.into(t, champ, &ls)
		for _, l := range ls {
			if l.Licence == "L01" {
				return l
			}
		}
		t.Fatalf("L01 absent: %+v", ls)
		return ligne{}
	}
	type solution struct {
		Mot, Reference string
		Score          int
		Admissible     bool
	}
	solutions := func() []solution {
		t.Helper()
		var p struct{ Solutions []solution }
		exiger(`{ partie(id:"T1-1") { solutions { mot reference score admissible } } }`, nil).into(t, "partie", &p)
		return p.Solutions
	}
	retenir := func(sol solution) string {
		t.Helper()
		var p struct{ Statut string }
		exiger(`mutation($r: String!, $m: String!) { retenirTop(partie:"T1-1", reference:$r, mot:$m) { statut } }`,
			map[string]any{"r": sol.Reference, "m": sol.Mot}).into(t, "retenirTop", &p)
		return p.Statut
	}

	// Coup 1: L01 alone finds the top, every other bulletin is blank.
	exiger(`mutation { tirer(partie:"T1-1") { version } }`, nil)
	sols := solutions()
	require.NotEmpty(t, sols)
	top := sols[0]
	require.True(t, top.Admissible)
	require.Equal(t, "top", retenir(top))
	for _, j := range joueurs {
		b := map[string]any{"blank": true}
		if j["licence"] == "L01" {
			b = map[string]any{"solutions": []any{map[string]any{"word": top.Mot, "ref": top.Reference, "score": top.Score}}}
		}
		exiger(`mutation($l: ID!, $b: BulletinInput!) { deposerBulletin(partie:"T1-1", coup:1, licence:$l, bulletin:$b) { licence } }`,
			map[string]any{"l": j["licence"], "b": b})
		exiger(`mutation($l: ID!) { corrigerBulletin(partie:"T1-1", coup:1, licence:$l) { licence } }`, map[string]any{"l": j["licence"]})
	}

	public := ligne{Licence: "L01", Score: top.Score}
	annonce := ligne{Licence: "L01", Score: top.Score + 10, Solos: 1}
	assert.Equal(t, public, lire("", classementQ), "§3.5 the public sees no solo during the game")
	assert.Equal(t, public, lire("", cumulQ), "nor in the cumul")
	abonnement := s.subscribe("", `subscription { classementChange(partie:"T1-1") { licence score solos } }`, nil)
	var suivies []ligne
	abonnement.next(t, "classementChange", &suivies)
	assert.Contains(t, suivies, public, "nor on the display's subscription")
	assert.Equal(t, public, lire(directeur, classementQ), "the public standings are the same for every caller")
	assert.Equal(t, annonce, lire(directeur, directeurQ), "the director sees the solo")
	assert.Equal(t, annonce, lire(directeur, cumulDirecteurQ))
	assert.Equal(t, "UNAUTHENTICATED", s.gql("", directeurQ, nil).code())

	// The game played to its end (§3.7).
	for n := 2; ; n++ {
		require.Less(t, n, 60, "the game ends")
		var tire struct{ Statut string }
		exiger(`mutation { tirer(partie:"T1-1") { statut } }`, nil).into(t, "tirer", &tire)
		if tire.Statut == "terminee" {
			break
		}
		if sols := solutions(); len(sols) > 0 && sols[0].Admissible {
			if retenir(sols[0]) == "terminee" {
				break
			}
			continue
		}
		var annule struct{ Statut string }
		exiger(`mutation { annulerCoup(partie:"T1-1", motif:aucune_solution) { statut } }`, nil).into(t, "annulerCoup", &annule)
		if annule.Statut == "terminee" {
			break
		}
	}
	assert.Equal(t, annonce, lire("", classementQ), "§3.5 announced at the end of the game")
	assert.Equal(t, annonce, lire("", cumulQ))
}
