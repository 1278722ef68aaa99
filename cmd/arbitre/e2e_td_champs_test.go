package main

// Smaller items of the classique pages (issue 31 item 14).

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
)

// TestE2ETD_ChampsNommesEtScoresSurUneLigne: the results row of the TD
// console had a drop-down of the player concerned (forfeit, abandon) with
// no label, and score fields whose placeholder (« score de … ») was cut;
// the hall display wrapped « 412 – 388 » over two lines beside long names.
// Every field of the row now has a name (the player's drop-down a visible
// label), each placeholder fits its field, and a score holds on one line.
func TestE2ETD_ChampsNommesEtScoresSurUneLigne(t *testing.T) {
	c := ouvrirConsoleTD(t)
	d := c.directeur
	d.exiger(t, `mutation { ouvrirTournoiClassique(id:"TD", nom:"Open de Vichy", rondes: 1) { id } }`, nil, nil)
	d.exiger(t, `mutation { inscrireClassiqueLot(tournoi:"TD", joueurs:[
		{joueur:"L1", nom:"Marie-Christine de La Rochefoucauld-Montbazon", cote:1500},
		{joueur:"L2", nom:"Jean-Baptiste Poquelin de Villeneuve-Saint-Georges", cote:1400},
		{joueur:"L3", nom:"Ana", cote:1300}, {joueur:"L4", nom:"Bea", cote:1200}]) { id } }`, nil, nil)
	d.exiger(t, `mutation { etablirTetesDeSerie(tournoi:"TD") { id } }`, nil, nil)
	d.exiger(t, `mutation { proposerRonde(tournoi:"TD", methode: initial_by_cote) { id } }`, nil, nil)
	d.exiger(t, `mutation { publierRonde(tournoi:"TD") { id } }`, nil, nil)

	ctx := navigateur(t, 1400, 1000)
	ouvrirConsole(t, ctx, d, "TD")
	ligne := `#tables-publiees tr[data-table="1"] `
	attendre(t, ctx, `document.querySelector('`+ligne+`select.fin') !== null`, e2eAttente, "the results row")
	executer(t, ctx, choisirOption(ligne+"select.fin", "forfait"))
	var champs []struct {
		Nom         string
		Visible     bool
		Placeholder float64
		Largeur     float64
	}
	evaluer(t, ctx, `(() => {
		const mesure = document.createElement("canvas").getContext("2d");
		return [...document.querySelectorAll('`+ligne+`td.saisie select, `+ligne+`td.saisie input')].map((el) => {
			const s = getComputedStyle(el);
			mesure.font = s.font;
			const nom = [...(el.labels || [])].map((l) => l.textContent).join(" ").trim() || el.getAttribute("aria-label") || "";
			return { nom, visible: el.getClientRects().length > 0,
				placeholder: el.placeholder ? mesure.measureText(el.placeholder).width : 0,
				largeur: el.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight) };
		}); })()`, &champs)
	for i, f := range champs {
		assert.NotEmpty(t, f.Nom, "field %d of the row has a name", i)
		if f.Visible {
			assert.LessOrEqual(t, f.Placeholder, f.Largeur, "field %d (%s): its placeholder fits", i, f.Nom)
		}
	}
	var libelle string
	evaluer(t, ctx, `document.querySelector('`+ligne+`select.joueur').closest("label").textContent`, &libelle)
	assert.Contains(t, libelle, "joueur concerné", "the forfeit's player, labelled on screen")

	var tables struct {
		Tournoi struct {
			Publiees []struct {
				Tables []struct{ Match, Premier string }
			}
		} `json:"tournoiClassique"`
	}
	d.exiger(t, `{ tournoiClassique(id:"TD") { publiees { tables { match premier } } } }`, nil, &tables)
	for _, tb := range tables.Tournoi.Publiees[0].Tables {
		d.exiger(t, `mutation($m: ID!) { saisirResultatClassique(tournoi:"TD", match:$m, scores:[412, 388]) { id } }`, map[string]any{"m": tb.Match}, nil)
	}
	aff := navigateur(t, 1280, 720)
	executer(t, aff, chromedp.Navigate(d.url+"/affichage/classique/TD"))
	attendre(t, aff, `[...document.querySelectorAll("#tables tr")].filter((tr) => tr.cells[3].textContent === "412 – 388").length === 2`, e2eAttente, "the scores on the display")
	var lignes []int
	evaluer(t, aff, `[...document.querySelectorAll("#tables tr")].map((tr) => { const r = document.createRange(); r.selectNodeContents(tr.cells[3]);
		return new Set([...r.getClientRects()].map((q) => Math.round(q.top))).size; })`, &lignes)
	assert.Equal(t, []int{1, 1}, lignes, "each score on one line")
}
