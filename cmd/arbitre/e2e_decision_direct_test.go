package main

// A commission's decision reaches the pages that show the bulletin's
// decision, as it is taken (issue 31 item 7).

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestE2ESaisie_Paragraphe6_3_DecisionDeLaCommissionEnDirect: after an
// appeal about a bulletin was upheld (§6.3), the arbiters' page still showed
// the first arbiter's decision (a nullité for a blank bulletin) as the
// bulletin's. The page open on the coup shows, without a reload, the
// decision the commission took and that it is now the one in force; and
// `arbitre replay` counts the decisions in force that differ from today's
// engine as it lists them.
func TestE2ESaisie_Paragraphe6_3_DecisionDeLaCommissionEnDirect(t *testing.T) {
	chromium(t)
	data := t.TempDir()
	directeur := apiToken(t, data, "--role", "director")
	arbitre := apiToken(t, data, "--role", "arbiter", "--tournoi", "T1", "--tables", "1-4")
	commission := apiToken(t, data, "--role", "commission", "--tournoi", "T1")
	s := startAPIServer(t, data)
	t.Cleanup(s.stop)
	attendreJetons(t, s, directeur, arbitre, commission)
	inscrireJoueursT1(t, s, directeur, 3)
	api := e2eAPI{url: s.url, jeton: directeur}
	api.exiger(t, `mutation { creerPartie(tournoi:"T1", partie:"T1-1", config:{source: logiciel, graine: 7}) { id } }`, nil, nil)
	top := api.jouerCoup(t, "T1-1")
	arb := e2eAPI{url: s.url, jeton: arbitre}
	arb.exiger(t, `mutation { deposerBulletin(partie:"T1-1", coup:1, licence:"L3", bulletin:{blank:true}) { licence } }`, nil, nil)
	arb.exiger(t, `mutation { corrigerBulletin(partie:"T1-1", coup:1, licence:"L3") { licence } }`, nil, nil)

	ctx := navigateur(t, 1400, 1000)
	executer(t, ctx, chromedp.Navigate(s.url+"/arbitre/partie/T1-1"))
	entrerJeton(t, ctx, arbitre)
	ligne := `document.querySelector('#bulletins tr[data-licence="L3"]')`
	attendre(t, ctx, ligne+` && `+ligne+`.dataset.etat === "corrige" && `+ligne+`.textContent.includes("nullité")`, e2eAttente, "L3's blank bulletin, a nullité")

	// The appeal, upheld: L3 is paid the top (his bulletin was found).
	cmn := e2eAPI{url: s.url, jeton: commission}
	appel := map[string]any{"id": "A1", "tournoi": "T1", "partie": "T1-1", "coup": 1, "licence": "L3", "table": 3,
		"requerant": "Joueur 3", "qualite": "joueur", "motif": "bulletin égaré par le ramasseur",
		"demandee": map[string]any{"paye": top.Score, "sanction": "none"}}
	arb.exiger(t, `mutation($a: DepotAppelInput!) { deposerAppel(appel:$a) { id } }`, map[string]any{"a": appel}, nil)
	cmn.exiger(t, `mutation { composerCommission(tournoi:"T1", appel:"A1", president:"M1", membres:["M1","M2","M3"]) { statut } }`, nil, nil)
	for _, m := range []string{"M1", "M2", "M3"} {
		cmn.exiger(t, `mutation($m: String!) { voter(tournoi:"T1", appel:"A1", membre:$m, issue:accueilli) { statut } }`, map[string]any{"m": m}, nil)
	}
	cmn.exiger(t, `mutation { deciderAppel(tournoi:"T1", appel:"A1", issue:accueilli, motivation:"bulletin retrouvé, écrit dans les temps") { statut } }`, nil, nil)

	attendre(t, ctx, ligne+`.dataset.etat === "commission" && `+
		jsTexte(`#bulletins tr[data-licence="L3"]`, fmt.Sprintf("décision de la commission, en vigueur : bon — %d pts", top.Score)),
		e2eAttente, "the commission's decision in force on L3's row")
	var etat string
	evaluer(t, ctx, ligne+`.cells[5].textContent`, &etat)
	require.Equal(t, "décidé en commission", etat)

	// The replay, server stopped, lists L3's decision in force (the
	// commission's) beside the engine's (a nullité) and counts it: it said
	// « décisions différentes du moteur actuel : 0 » below such a line.
	s.stop()
	out, err := runArbitre(t, "replay", "T1-1", "1", "--data", data)
	require.NoError(t, err)
	assert.Regexp(t, fmt.Sprintf(`(?m)^  ≠  L3 +t3 +\S+ +%d none \[\] +→ 0 zero \[BLANK\]$`, top.Score), out)
	assert.Contains(t, out, "décisions en vigueur différentes du moteur actuel : 1\n")
	assert.Contains(t, out, "décisions du moteur changées depuis la correction : 0\n")
}
