package main

// The commission's page speaks French to people (issue 31 item 6).

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestE2ECommission_PhrasesEtNoms: the commission's replay spoke in codes
// and token ids — « zéro (BLANK) », journal lines without accents (« tirage
// effectue »), « jeton:2153d759-… (director) », players by licence only,
// the bag overflowing the page. It now says each decision as the billet
// does (sanction, boxes, article), each act as a sentence naming who acted
// by his token's label, each player by name and licence, and the bag wraps.
func TestE2ECommission_PhrasesEtNoms(t *testing.T) {
	chromium(t)
	data := t.TempDir()
	directeur := apiToken(t, data, "--role", "director", "--label", "Claire Martin")
	arbitre := apiToken(t, data, "--role", "arbiter", "--tournoi", "T1", "--tables", "1-4", "--label", "Paul Durand")
	commission := apiToken(t, data, "--role", "commission", "--tournoi", "T1")
	s := startAPIServer(t, data)
	t.Cleanup(s.stop)
	attendreJetons(t, s, directeur, arbitre, commission)
	inscrireJoueursT1(t, s, directeur, 3)
	api := e2eAPI{url: s.url, jeton: directeur}
	api.exiger(t, `mutation { creerPartie(tournoi:"T1", partie:"T1-1", config:{source: logiciel, graine: 7}) { id } }`, nil, nil)
	api.jouerCoup(t, "T1-1")
	arb := e2eAPI{url: s.url, jeton: arbitre}
	for _, l := range []string{"L2", "L3"} {
		arb.exiger(t, `mutation($l: ID!) { deposerBulletin(partie:"T1-1", coup:1, licence:$l, bulletin:{blank:true}) { licence } }`, map[string]any{"l": l}, nil)
	}
	arb.exiger(t, `mutation { corrigerBulletin(partie:"T1-1", coup:1, licence:"L3") { licence } }`, nil, nil)

	ctx := navigateur(t, 1400, 1000)
	executer(t, ctx, chromedp.Navigate(s.url+"/commission/T1-1?coup=1"))
	entrerJeton(t, ctx, commission)
	attendre(t, ctx, `document.querySelectorAll("#bulletins tr").length === 2 && document.querySelectorAll("#journal tr").length > 0`, e2eAttente, "the replayed coup")

	var lignes [][]string
	evaluer(t, ctx, `[...document.querySelectorAll("#bulletins tr")].map(tr => [...tr.cells].slice(0, 5).map(td => td.textContent))`, &lignes)
	require.Len(t, lignes, 2)
	assert.Equal(t, "Joueur 2 (L2)", lignes[0][0], "the player by name and licence")
	assert.Equal(t, "en attente de correction", lignes[0][3])
	assert.Equal(t, "Joueur 3 (L3)", lignes[1][0])
	assert.Equal(t, "nullité : bulletin vierge (§5.7) — 0 pt", lignes[1][3], "the decision as the billet says it")
	assert.Equal(t, "nullité : bulletin vierge (§5.7) — 0 pt", lignes[1][4])

	var journal []string
	evaluer(t, ctx, `[...document.querySelectorAll("#journal tr")].map(tr => tr.cells[1].textContent)`, &journal)
	assert.Contains(t, journal, "Claire Martin (directeur) a effectué le tirage.")
	assert.Contains(t, journal, "Claire Martin (directeur) a annoncé le top.")
	assert.Contains(t, journal, "Paul Durand (arbitre des tables 1-4) a saisi 2 bulletins.")
	assert.Contains(t, journal, "Paul Durand (arbitre des tables 1-4) a corrigé un bulletin.")
	page := textePage(ctx)
	for _, code := range []string{"BLANK", "jeton:", "(director)", "(arbiter)", "effectue", "zero"} {
		assert.False(t, strings.Contains(page, code), "no %q on the page", code)
	}

	var largeur struct{ Page, Fenetre float64 }
	evaluer(t, ctx, `({ page: document.documentElement.scrollWidth, fenetre: document.documentElement.clientWidth })`, &largeur)
	assert.LessOrEqual(t, largeur.Page, largeur.Fenetre, "the bag wraps: nothing wider than the window")
}
