package main

// The classique match sheet on A4 (issue 31 item 14; classique §2.1.5).

import (
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
)

// TestE2ETD_FeuilleDeMatch_Paragraphe2_1_5: the printed match sheet had no
// place for the letters the jokers stand for nor for the points de match,
// which §2.1.5 asks for (« les lettres représentées par les jokers, les
// points de match (PM) et les scores »). It now has both, and on paper (A4
// less its margins: 186 mm, 703 px) no table is wider than the page (the
// issue saw the right border cut on A4; this layout does not cut it).
func TestE2ETD_FeuilleDeMatch_Paragraphe2_1_5(t *testing.T) {
	c := ouvrirConsoleTD(t)
	ouvrirClassique(t, c.directeur)
	ctx := navigateur(t, 703, 1000)
	executer(t, ctx, emulation.SetEmulatedMedia().WithMedia("print"), chromedp.Navigate(c.directeur.url+"/impression/classique/CL/feuilles?ronde=1"))
	attendre(t, ctx, `document.body.dataset.pret === "1" && document.querySelectorAll(".feuille").length > 0`, e2eAttente, "the match sheets")
	var lignes []string
	evaluer(t, ctx, `[...document.querySelector(".feuille").querySelectorAll("td:first-child")].map((td) => td.textContent)`, &lignes)
	assert.Contains(t, lignes, "Lettres représentées par les jokers (§2.1.5)")
	assert.Contains(t, lignes, "Points de match (PM)")
	var largeur struct{ Contenu, Page float64 }
	evaluer(t, ctx, `({ contenu: Math.max(...[...document.querySelectorAll(".feuille table")].map((t) => t.getBoundingClientRect().right)),
		page: document.documentElement.clientWidth })`, &largeur)
	assert.LessOrEqual(t, largeur.Contenu, largeur.Page, "every table within the A4 width, its right border included")
}
