package main

// A player added late by mistake is withdrawn (issue 31 item 4).

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
)

// TestE2EDirecteur_Paragraphe6_2_JoueurAjouteParErreurRetire: a player
// added late by mistake (§6.2: the wrong licence, the wrong player) stayed
// in the game for good — a row of the standings and a bulletin missing at
// every coup. The director withdraws him from the console, named before
// the confirmation, with the reason, recorded as an event: he leaves the
// game, its standings and its bulletins awaited. Only a late arrival with
// nothing of his recorded is withdrawn; the refusals change nothing.
func TestE2EDirecteur_Paragraphe6_2_JoueurAjouteParErreurRetire(t *testing.T) {
	chromium(t)
	data := t.TempDir()
	directeur := apiToken(t, data, "--role", "director")
	directeurT2 := apiToken(t, data, "--role", "director", "--tournoi", "T2")
	arbitre := apiToken(t, data, "--role", "arbiter", "--tables", "1-9", "--tournoi", "T1")
	s := startAPIServer(t, data)
	t.Cleanup(s.stop)
	attendreJetons(t, s, directeur, directeurT2, arbitre)
	inscrireJoueursT1(t, s, directeur, 2)
	api := e2eAPI{url: s.url, jeton: directeur}
	api.exiger(t, `mutation { creerPartie(tournoi:"T1", partie:"T1-1", config:{source: logiciel, graine: 7}) { id } }`, nil, nil)
	api.exiger(t, `mutation { inscrireJoueur(tournoi:"T1", joueur:{licence:"L9", nom:"Joueur 9", table:9}) { version } }`, nil, nil)
	api.exiger(t, `mutation { tirer(partie:"T1-1") { statut } }`, nil, nil)
	retard := `mutation { arriveeEnRetard(partie:"T1-1", licence:"L9") { joueurs } }`
	api.exiger(t, retard, nil, nil)

	ctx := navigateur(t, 1400, 1100)
	executer(t, ctx, chromedp.Navigate(s.url+"/directeur/partie/T1-1"))
	entrerJeton(t, ctx, directeur)
	statutConsole(t, ctx, "tirage")
	executer(t, ctx, chromedp.SetValue("#retrait-licence", "L9", chromedp.ByID), chromedp.SetValue("#retrait-motif", "licence mal tapée, L19 attendu", chromedp.ByID),
		chromedp.Click("#retirer", chromedp.ByID))
	confirmerAction(t, ctx, "Retirer Joueur 9 (L9, table 9) de la partie (licence mal tapée, L19 attendu) ?")
	attendre(t, ctx, jsTexte("#message", "Joueur 9 (L9, table 9) retiré de la partie."), e2eAttente, "the withdrawal")

	var vue struct {
		Partie struct {
			Joueurs []string
		} `json:"partie"`
		Classement          []struct{ Licence string } `json:"classement"`
		AvancementBulletins []struct{ Table int }      `json:"avancementBulletins"`
	}
	lire := `{ partie(id:"T1-1") { joueurs } classement(partie:"T1-1") { licence } avancementBulletins(partie:"T1-1", coup:1) { table } }`
	api.exiger(t, lire, nil, &vue)
	assert.Equal(t, []string{"L1", "L2"}, vue.Partie.Joueurs)
	for _, l := range vue.Classement {
		assert.NotEqual(t, "L9", l.Licence, "no row in the standings")
	}
	for _, a := range vue.AvancementBulletins {
		assert.NotEqual(t, 9, a.Table, "no bulletin awaited at his table")
	}

	// Added again, the right one this time: who may withdraw him, and when.
	api.exiger(t, retard, nil, nil)
	version := func() int {
		var v struct{ Partie struct{ Version int } }
		api.exiger(t, `{ partie(id:"T1-1") { version } }`, nil, &v)
		return v.Partie.Version
	}
	retirer := `mutation($l: ID!, $m: String!) { retirerJoueur(partie:"T1-1", licence:$l, motif:$m) { version joueurs } }`
	l9 := map[string]any{"l": "L9", "m": "erreur"}
	s.exigerRefus(t, retirer, l9, version, []refusAttendu{
		{"anonyme", "", "UNAUTHENTICATED"},
		{"arbitre", arbitre, "FORBIDDEN"},
		{"directeur d'un autre tournoi", directeurT2, "FORBIDDEN"},
	})
	s.exigerRefus(t, retirer, map[string]any{"l": "L9", "m": " "}, version, []refusAttendu{{"sans motif", directeur, "INVALID_CONFIG"}})
	s.exigerRefus(t, retirer, map[string]any{"l": "L1", "m": "erreur"}, version, []refusAttendu{{"de la partie dès sa création", directeur, "WRONG_STATE"}})
	s.exigerRefus(t, retirer, map[string]any{"l": "L7", "m": "erreur"}, version, []refusAttendu{{"pas de la partie", directeur, "UNKNOWN_PLAYER"}})
	var d struct {
		RetirerJoueur struct{ Joueurs []string } `json:"retirerJoueur"`
	}
	api.exiger(t, retirer, l9, &d)
	assert.Equal(t, []string{"L1", "L2"}, d.RetirerJoueur.Joueurs)

	// Once a bulletin of his is typed, he stays.
	api.exiger(t, retard, nil, nil)
	retenirPremierTop(t, api, "T1-1")
	api.exiger(t, `mutation { tirer(partie:"T1-1") { statut } }`, nil, nil)
	api.exiger(t, `mutation { deposerBulletin(partie:"T1-1", coup:2, licence:"L9", bulletin:{blank:true}) { licence } }`, nil, nil)
	s.exigerRefus(t, retirer, l9, version, []refusAttendu{{"un bulletin saisi", directeur, "WRONG_STATE"}})
}
