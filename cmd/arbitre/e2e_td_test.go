package main

// The classique TD console (/directeur/classique/<tournoi>) and its printed
// pages (/impression/classique/<tournoi>/...) in headless Chromium, against
// the real server (issue 14): two rounds run through the console only, and
// every printed page gives a PDF whose print layout hides the navigation and
// never splits a table row.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// consoleTD is a fresh server with a director's token, nothing else.
type consoleTD struct {
	directeur e2eAPI
	logs      *e2eJournal
}

func ouvrirConsoleTD(t *testing.T) *consoleTD {
	t.Helper()
	chromium(t)
	dir := t.TempDir()
	c := &consoleTD{logs: &e2eJournal{}}
	jeton := apiToken(t, dir, "--role", "director", "--label", "e2e")
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("server log:\n%s", c.logs)
		}
	})
	c.directeur = e2eAPI{url: demarrerServeur(t, dir, ecouteLibre, c.logs).url, jeton: jeton}
	c.directeur.attendreJetonReconnu(t)
	return c
}

// ouvrirConsole opens the tournament's console in the tab and signs in
// with the director's token, typed and confirmed with Entrée.
func ouvrirConsole(t *testing.T, ctx context.Context, d e2eAPI, tournoi string) {
	t.Helper()
	executer(t, ctx, chromedp.Navigate(d.url+"/directeur/classique/"+tournoi))
	attendre(t, ctx, `!document.getElementById("connexion").hidden`, e2eAttente, "the sign-in form")
	executer(t, ctx, chromedp.SendKeys("#jeton", d.jeton, chromedp.ByID), chromedp.SendKeys("#jeton", kb.Enter, chromedp.ByID))
}

// choisirOption sets a select's value as a person would (a change event).
func choisirOption(sel, valeur string) chromedp.Action {
	s, _ := json.Marshal(sel)
	v, _ := json.Marshal(valeur)
	return chromedp.Evaluate(fmt.Sprintf(`(() => { const e = document.querySelector(%s); e.value = %s;
		e.dispatchEvent(new Event("change", { bubbles: true })); return e.value; })()`, s, v), nil)
}

func (c *consoleTD) tournoi(t *testing.T) apiTournoiTD {
	t.Helper()
	var d struct{ TournoiClassique apiTournoiTD }
	c.directeur.exiger(t, tournoiTDQ, map[string]any{"t": "TD"}, &d)
	return d.TournoiClassique
}

// saisirResultatTD enters a table's result in the console's row: scores (first
// player first) confirmed with Entrée, or an ending naming a player.
func saisirResultatTD(t *testing.T, ctx context.Context, table int, s1, s2 string, fin, joueur string) {
	t.Helper()
	ligne := fmt.Sprintf(`#tables-publiees tr[data-table="%d"] `, table)
	if fin != "" {
		executer(t, ctx, choisirOption(ligne+"select.fin", fin), choisirOption(ligne+"select.joueur", joueur))
	}
	if s1 != "" {
		executer(t, ctx, chromedp.SetValue(ligne+"input.s1", s1, chromedp.ByQuery), chromedp.SetValue(ligne+"input.s2", s2, chromedp.ByQuery))
	}
	if fin == "forfait" {
		executer(t, ctx, chromedp.Click(ligne+"button.enregistrer", chromedp.ByQuery))
	} else {
		executer(t, ctx, chromedp.SendKeys(ligne+"input.s2", kb.Enter, chromedp.ByQuery))
	}
}

// classementAffiche is the console's standings: rank, name, points de match.
func classementAffiche(t *testing.T, ctx context.Context) []string {
	t.Helper()
	var lignes []string
	evaluer(t, ctx, `[...document.querySelectorAll("#classement tr")].map((tr) => [0, 1, 3].map((i) => tr.cells[i].textContent).join(" "))`, &lignes)
	return lignes
}

func classementAPI(c apiTournoiTD) []string {
	var out []string
	for _, l := range c.Classement {
		out = append(out, fmt.Sprintf("%d %s %d", l.Rang, l.Nom, l.PointsDeMatch))
	}
	return out
}

// Two classique rounds through the console only: the list imported (a bad
// line first: refused, nothing written), the seeding, the proposal with its
// reasons, a swap, the publication, results with a forfeit, a correction,
// the standings, the next round, the closing.
func TestE2ETD_DeuxRondesParLaConsole(t *testing.T) {
	c := ouvrirConsoleTD(t)
	ctx := navigateur(t, 1400, 1000)
	ouvrirConsole(t, ctx, c.directeur, "TD")

	// Opening.
	attendre(t, ctx, `!document.getElementById("ouverture").hidden`, e2eAttente, "the opening form")
	executer(t, ctx, chromedp.SendKeys(`#form-ouverture input[name=nom]`, "Open de Vichy", chromedp.ByQuery),
		chromedp.SetValue(`#form-ouverture input[name=rondes]`, "2", chromedp.ByQuery),
		chromedp.Click(`#form-ouverture button`, chromedp.ByQuery))
	attendre(t, ctx, `!document.getElementById("inscription").hidden`, e2eAttente, "the registration")

	// The list with a bad line: every bad line named, nothing written.
	mauvaise := "licence;nom;cote\nL1;Ana;1500\nL2;Bea;15OO\nL3;;1300\nL4;Dan;1200\nL5;Eve;1100\n"
	executer(t, ctx, chromedp.SetValue("#liste", mauvaise, chromedp.ByID), chromedp.Click("#apercu", chromedp.ByID))
	attendre(t, ctx, jsTexte("#fautes", "ligne 3 : cote « 15OO » : un nombre entier attendu"), e2eAttente, "the bad cote named")
	attendre(t, ctx, jsTexte("#fautes", "ligne 4 : nom manquant"), e2eAttente, "the missing name named")
	var inactif bool
	evaluer(t, ctx, `document.getElementById("inscrire").disabled`, &inactif)
	assert.True(t, inactif, "nothing can be written while a line is bad")
	assert.Empty(t, c.tournoi(t).Inscrits)

	bonne := strings.NewReplacer("15OO", "1400", "L3;;", "L3;Cyr;").Replace(mauvaise)
	executer(t, ctx, chromedp.SetValue("#liste", bonne, chromedp.ByID), chromedp.Click("#apercu", chromedp.ByID))
	attendre(t, ctx, `!document.getElementById("inscrire").disabled`, e2eAttente, "the list accepted")
	executer(t, ctx, chromedp.Click("#inscrire", chromedp.ByID))
	attendre(t, ctx, jsTexte("#nb-inscrits", "5"), e2eAttente, "five players registered")
	require.Len(t, c.tournoi(t).Inscrits, 5)
	// Issue 31 item 9: the emptied list is not checked again after a
	// registration that succeeded: no red « ligne(s) à corriger ».
	var message struct{ Texte, Classe string }
	evaluer(t, ctx, `({texte: document.getElementById("message").textContent, classe: document.getElementById("message").className})`, &message)
	assert.Equal(t, "5 joueurs inscrits.", message.Texte)
	assert.NotContains(t, message.Classe, "erreur")
	var fautes int
	evaluer(t, ctx, `document.querySelectorAll("#fautes li").length`, &fautes)
	assert.Zero(t, fautes, "no bad line listed")

	// Seeding: cancelled with Échap (nothing done), then confirmed; the
	// proposal with its reasons.
	executer(t, ctx, chromedp.Click("#tetes", chromedp.ByID))
	attendre(t, ctx, `(document.getElementById("confirmation") || {}).open === true`, e2eAttente, "the confirmation dialog")
	executer(t, ctx, chromedp.KeyEvent(kb.Escape))
	attendre(t, ctx, `!document.getElementById("confirmation").open`, e2eAttente, "the dialog cancelled")
	assert.Equal(t, 6, c.tournoi(t).Version, "cancelled: no seeding")
	executer(t, ctx, chromedp.Click("#tetes", chromedp.ByID))
	confirmerDialogue(t, ctx, "oui")
	attendre(t, ctx, `!document.getElementById("proposer").hidden`, e2eAttente, "the proposal form")
	executer(t, ctx, chromedp.Click("#proposer-ronde", chromedp.ByID))
	attendre(t, ctx, `document.querySelectorAll("#tables-proposees tr").length === 2`, e2eAttente, "the proposed tables")
	attendre(t, ctx, jsTexte("#tables-proposees", "§3.1"), e2eAttente, "who starts and why")
	attendre(t, ctx, jsTexte("#exempt-propose", "Exempt : Eve — le moins bien classé des joueurs jamais exemptés"), e2eAttente, "the bye's reason")
	attendre(t, ctx, jsTexte("#resume-raisons", "Aucune revanche"), e2eAttente, "the rematches avoided")

	// Amendment: swap the first players of tables 1 and 2.
	prop := c.tournoi(t).Proposition
	require.NotNil(t, prop)
	a, b := prop.Tables[0].Premier, prop.Tables[1].Premier
	executer(t, ctx, choisirOption("#echange-a", a), choisirOption("#echange-b", b), chromedp.Click("#echanger", chromedp.ByID))
	attendre(t, ctx, jsTexte("#titre-appariement", "amendé par le directeur"), e2eAttente, "the amendment")
	executer(t, ctx, chromedp.Click("#publier", chromedp.ByID))
	confirmerDialogue(t, ctx, "oui")
	attendre(t, ctx, `document.querySelectorAll("#tables-publiees tr").length === 2`, e2eAttente, "the published round")
	r1 := c.tournoi(t).Publiees[0]
	assert.True(t, r1.Amendee)
	assert.Equal(t, b, r1.Tables[0].Premier, "the swap is what was published")
	assert.Equal(t, a, r1.Tables[1].Premier)

	// Results: a game played out, a forfeit (§9); then a correction.
	saisirResultatTD(t, ctx, 1, "420", "380", "", "")
	attendre(t, ctx, jsTexte("#message", "Table 1 : résultat enregistré"), e2eAttente, "table 1 entered")
	saisirResultatTD(t, ctx, 2, "", "", "forfait", r1.Tables[1].Second)
	attendre(t, ctx, jsTexte("#message", "Table 2 : résultat enregistré"), e2eAttente, "the forfeit entered")
	executer(t, ctx, chromedp.SetValue(`#tables-publiees tr[data-table="1"] input.motif`, "scores inversés", chromedp.ByQuery))
	saisirResultatTD(t, ctx, 1, "380", "420", "", "")
	attendre(t, ctx, jsTexte("#message", "Table 1 : résultat corrigé"), e2eAttente, "the correction")
	r1 = c.tournoi(t).Publiees[0]
	assert.Equal(t, []int{380, 420}, r1.Tables[0].Resultat.Scores)
	require.NotNil(t, r1.Tables[0].Resultat.Correction)
	assert.Equal(t, "forfait", r1.Tables[1].Resultat.Fin)
	assert.Equal(t, []int{3, 0}, r1.Tables[1].Resultat.PointsDeMatch)
	api := c.tournoi(t)
	attendre(t, ctx, `document.querySelectorAll("#classement tr").length === 5`, e2eAttente, "the standings")
	assert.Equal(t, classementAPI(api), classementAffiche(t, ctx), "the console's standings are the API's")

	// Round 2: Swiss, proposed, published, played.
	attendre(t, ctx, `!document.getElementById("proposer").hidden`, e2eAttente, "the next round's form")
	var methode string
	evaluer(t, ctx, `document.getElementById("methode").value`, &methode)
	assert.Equal(t, "swiss", methode)
	executer(t, ctx, chromedp.Click("#proposer-ronde", chromedp.ByID))
	attendre(t, ctx, jsTexte("#titre-appariement", "Ronde 2"), e2eAttente, "round 2's proposal")
	executer(t, ctx, chromedp.Click("#publier", chromedp.ByID))
	confirmerDialogue(t, ctx, "oui")
	attendre(t, ctx, jsTexte("#titre-resultats", "ronde 2"), e2eAttente, "round 2 published")
	saisirResultatTD(t, ctx, 1, "400", "400", "", "")
	attendre(t, ctx, jsTexte("#message", "Table 1 : résultat enregistré"), e2eAttente, "round 2, table 1")
	r2 := c.tournoi(t).Publiees[1]
	saisirResultatTD(t, ctx, 2, "300", "250", "abandon", r2.Tables[1].Premier)
	attendre(t, ctx, jsTexte("#message", "Table 2 : résultat enregistré"), e2eAttente, "round 2, table 2")
	r2 = c.tournoi(t).Publiees[1]
	assert.Equal(t, []int{2, 2}, r2.Tables[0].Resultat.PointsDeMatch, "a draw (§7)")
	assert.Equal(t, []int{350, 450}, r2.Tables[1].Resultat.Scores, "the abandon table of §9")

	api = c.tournoi(t)
	attendre(t, ctx, `!document.getElementById("cloture").hidden`, e2eAttente, "the closing")
	assert.Equal(t, classementAPI(api), classementAffiche(t, ctx))
	executer(t, ctx, chromedp.Click("#clore", chromedp.ByID))
	confirmerDialogue(t, ctx, "oui")
	attendre(t, ctx, jsTexte("#etape", "Tournoi clos"), e2eAttente, "the tournament closed")
	assert.True(t, c.tournoi(t).Clos)
}

// Bad input in the console is refused in French and changes nothing: an
// entry without scores, a correction without its reason.
func TestE2ETD_SaisieRefuseeEnFrancais(t *testing.T) {
	c := ouvrirConsoleTD(t)
	d := c.directeur
	d.exiger(t, `mutation { ouvrirTournoiClassique(id:"TD", nom:"Open", rondes: 1) { id } }`, nil, nil)
	d.exiger(t, `mutation { inscrireClassiqueLot(tournoi:"TD", joueurs:[{joueur:"L1", nom:"Ana"}, {joueur:"L2", nom:"Bea"}]) { id } }`, nil, nil)
	d.exiger(t, `mutation { etablirTetesDeSerie(tournoi:"TD") { id } }`, nil, nil)
	d.exiger(t, `mutation { proposerRonde(tournoi:"TD", methode: initial_by_cote) { id } }`, nil, nil)
	d.exiger(t, `mutation { publierRonde(tournoi:"TD") { id } }`, nil, nil)

	ctx := navigateur(t, 1400, 1000)
	ouvrirConsole(t, ctx, d, "TD")
	attendre(t, ctx, `document.querySelectorAll("#tables-publiees tr").length === 1`, e2eAttente, "the published table")
	executer(t, ctx, chromedp.SendKeys(`#tables-publiees tr[data-table="1"] input.s2`, kb.Enter, chromedp.ByQuery))
	attendre(t, ctx, jsTexte("#message", "les deux scores sont requis"), e2eAttente, "the missing scores")
	saisirResultatTD(t, ctx, 1, "400", "300", "", "")
	attendre(t, ctx, jsTexte("#message", "résultat enregistré"), e2eAttente, "the entry")
	saisirResultatTD(t, ctx, 1, "300", "400", "", "")
	attendre(t, ctx, jsTexte("#message", "Correction refusée : donnez le motif de la correction"), e2eAttente, "the server's refusal")
	assert.Equal(t, []int{400, 300}, c.tournoi(t).Publiees[0].Tables[0].Resultat.Scores, "nothing changed")
}

// The printed pages (§ issue 14, printing): each gives a PDF, and its print
// layout hides the navigation and the buttons and never splits a table row;
// each match sheet starts a page.
func TestE2ETD_ImpressionPDF(t *testing.T) {
	c := ouvrirConsoleTD(t)
	ouvrirClassique(t, c.directeur)
	ctx := navigateur(t, 1200, 900)
	for _, quoi := range []string{"appariements?ronde=1", "classement", "feuilles?ronde=1"} {
		t.Run(strings.SplitN(quoi, "?", 2)[0], func(t *testing.T) {
			executer(t, ctx, emulation.SetEmulatedMedia().WithMedia(""), chromedp.Navigate(c.directeur.url+"/impression/classique/CL/"+quoi))
			attendre(t, ctx, `document.body.dataset.pret === "1" && document.querySelectorAll("main table").length > 0`, e2eAttente, "the printed page")
			var pdf []byte
			executer(t, ctx, chromedp.ActionFunc(func(ctx context.Context) error {
				var err error
				pdf, _, err = page.PrintToPDF().WithPaperWidth(8.27).WithPaperHeight(11.69).WithPreferCSSPageSize(true).Do(ctx)
				return err
			}))
			assert.True(t, bytes.HasPrefix(pdf, []byte("%PDF-")), "a PDF")
			if strings.HasPrefix(quoi, "feuilles") {
				assert.Equal(t, 2, pagesPDF(pdf), "one page per match sheet: none overflows")
			}

			executer(t, ctx, emulation.SetEmulatedMedia().WithMedia("print"))
			var mise struct {
				Nav, Boutons, Lignes []string
				Titre                string
				Sauts                []string
			}
			evaluer(t, ctx, `(() => {
				const st = (sel) => [...document.querySelectorAll(sel)].map((e) => getComputedStyle(e));
				return { nav: st("nav").map((s) => s.display), boutons: st("button").map((s) => s.display),
					lignes: [...new Set(st("tr").map((s) => s.breakInside))], titre: getComputedStyle(document.querySelector("h1")).display,
					sauts: st(".feuille").slice(1).map((s) => s.breakBefore) };
			})()`, &mise)
			assert.Equal(t, []string{"none"}, mise.Nav, "no navigation on paper")
			for _, d := range mise.Boutons {
				assert.Equal(t, "none", d, "no button on paper")
			}
			assert.Equal(t, []string{"avoid"}, mise.Lignes, "no table row cut across pages")
			assert.Equal(t, "block", mise.Titre)
			for _, s := range mise.Sauts {
				assert.Equal(t, "page", s, "each match sheet starts a page")
			}
		})
	}
}

// pagesPDF counts the pages of a PDF as Chromium writes it (one
// uncompressed "/Type /Page" dictionary per page).
func pagesPDF(pdf []byte) int {
	return bytes.Count(pdf, []byte("/Type /Page\n")) + bytes.Count(pdf, []byte("/Type /Page\r")) +
		bytes.Count(pdf, []byte("/Type /Page/")) + bytes.Count(pdf, []byte("/Type /Page>")) + bytes.Count(pdf, []byte("/Type /Page "))
}

// TestE2ETDScreenshots refreshes docs/screenshots/td*.png (the console) and
// the first printed page of each print page, when ARBITRE_SCREENSHOTS=1.
func TestE2ETDScreenshots(t *testing.T) {
	if os.Getenv("ARBITRE_SCREENSHOTS") != "1" {
		t.Skip("set ARBITRE_SCREENSHOTS=1 to refresh docs/screenshots/")
	}
	c := ouvrirConsoleTD(t)
	tables := ouvrirClassique(t, c.directeur)
	d := c.directeur
	d.exiger(t, `mutation($m: ID!) { saisirResultatClassique(tournoi:"CL", match:$m, scores:[432, 389]) { id } }`, map[string]any{"m": tables[0].Match}, nil)
	dir := filepath.Join("..", "..", "docs", "screenshots")
	require.NoError(t, os.MkdirAll(dir, 0o755))

	ctx := navigateur(t, 1400, 1000)
	ouvrirConsole(t, ctx, d, "CL")
	attendre(t, ctx, `document.querySelectorAll("#tables-publiees tr").length === 2`, e2eAttente, "the console")
	var png []byte
	executer(t, ctx, chromedp.FullScreenshot(&png, 100))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "td.png"), png, 0o644))

	// The print layout in a window the size of an A4 page's printable area
	// (impression.css: 210 × 297 mm less 12 and 14 mm margins, at 96 dpi):
	// the first printed page.
	ctx = navigateur(t, 703, 1017)
	for _, quoi := range []string{"appariements", "classement", "feuilles"} {
		executer(t, ctx, emulation.SetEmulatedMedia().WithMedia(""), chromedp.Navigate(d.url+"/impression/classique/CL/"+quoi))
		attendre(t, ctx, `document.body.dataset.pret === "1"`, e2eAttente, "the printed page")
		executer(t, ctx, emulation.SetEmulatedMedia().WithMedia("print"), chromedp.CaptureScreenshot(&png))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "impression-"+quoi+".png"), png, 0o644))
	}
}
