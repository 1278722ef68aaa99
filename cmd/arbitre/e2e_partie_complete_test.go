package main

// THE WHOLE GAME THROUGH THE CONSOLES (issue 14, « done means »): an 8-player
// duplicate game run from the director's consoles and two arbiters' entry
// pages, the hall display open, each person in a browser context of his own;
// then the same game played through the GraphQL API only, whose final
// standings must be the ones the consoles gave.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	pcTournoi = "T1"
	pcPartie  = "T1-1"
)

// pcJoueurs are the tournament's players: two per table, tables 1-2 for the
// first arbiter, 3-4 for the second.
var pcJoueurs = []map[string]any{
	{"licence": "L1", "nom": "Ana Martin", "club": "Vichy", "serie": "A", "table": 1},
	{"licence": "L2", "nom": "Bruno Petit", "club": "Vichy", "serie": "A", "table": 1},
	{"licence": "L3", "nom": "Carole Roux", "club": "Paris", "serie": "A", "table": 2},
	{"licence": "L4", "nom": "Denis Faure", "club": "Paris", "serie": "B", "table": 2},
	{"licence": "L5", "nom": "Élise Blanc", "club": "Lyon", "serie": "B", "table": 3},
	{"licence": "L6", "nom": "Fabien Noël", "club": "Lyon", "serie": "B", "table": 3},
	{"licence": "L7", "nom": "Gaëlle Morin", "club": "Nice", "serie": "B", "table": 4},
	{"licence": "L8", "nom": "Hugo Lefèvre", "club": "Nice", "serie": "A", "table": 4},
}

// pcListe is the list as the director pastes it: a header line, then
// licence, nom, club, série, table separated by semicolons.
func pcListe() string {
	var b strings.Builder
	b.WriteString("licence;nom;club;série;table\n")
	for _, j := range pcJoueurs {
		fmt.Fprintf(&b, "%s;%s;%s;%s;%d\n", j["licence"], j["nom"], j["club"], j["serie"], j["table"])
	}
	return b.String()
}

// pcArbitres are the arbiters' tables and their players.
var pcArbitres = []struct {
	tables   string
	licences []string
}{
	{"1-2", []string{"L1", "L2", "L3", "L4"}},
	{"3-4", []string{"L5", "L6", "L7", "L8"}},
}

// pcPendantLeCoup is the player whose bulletin the first arbiter types
// while the chrono runs, before the top is known: the page sends it alone,
// then « Accepter le moteur » sends its correction once the top is announced.
const pcPendantLeCoup = "L1"

// pcExceptions are the bulletins that are not the top as it was announced,
// for the coups with bulletins in turn (the seventh as the first, and so
// on): a wrong score (§5.5), a blank (§5.7), a late one (§5.7). Every other
// player wrote the top with its score.
var pcExceptions = map[int]map[string]string{
	1: {"L2": "faux", "L6": "blanc"},
	2: {"L3": "retard", "L7": "faux"},
	3: {"L1": "blanc", "L8": "retard"},
	4: {"L4": "faux", "L5": "blanc"},
	5: {"L2": "retard", "L6": "faux"},
	6: {"L7": "blanc", "L1": "faux"},
}

// pcExceptionsDu are the exceptions of the coup whose bulletins come after
// saisis coups with bulletins.
func pcExceptionsDu(saisis int) map[string]string {
	return pcExceptions[saisis%len(pcExceptions)+1]
}

// pcBulletin is one bulletin of the script: as the arbiter types it on the
// page, as the API takes it, and the sanction the engine gives.
type pcBulletin struct {
	page     saisie
	api      map[string]any
	sanction string
}

// bulletinPrevu is the bulletin of genre for a coup whose top is top.
func bulletinPrevu(licence, genre string, top e2eTop) pcBulletin {
	ecrit := func(score int) map[string]any {
		return map[string]any{"word": top.Mot, "ref": top.Reference, "score": score}
	}
	page := saisie{joueur: licence, mot: top.Mot, ref: top.Reference, score: fmt.Sprint(top.Score)}
	switch genre {
	case "faux": // §5.5 avertissement: the top paid, the score written wrong
		page.score = fmt.Sprint(top.Score + 3)
		return pcBulletin{page, map[string]any{"solutions": []any{ecrit(top.Score + 3)}}, "warning"}
	case "blanc": // §5.7 nullité
		return pcBulletin{saisie{joueur: licence, cases: []string{"blanc"}}, map[string]any{"blank": true}, "zero"}
	case "retard": // §5.7 nullité: handed in after the time
		page.cases = []string{"retard"}
		return pcBulletin{page, map[string]any{"late": true, "solutions": []any{ecrit(top.Score)}}, "zero"}
	}
	return pcBulletin{page, map[string]any{"solutions": []any{ecrit(top.Score)}}, "none"}
}

// pcCoup is what the director did for one coup, replayed through the API.
type pcCoup struct {
	top        *e2eTop // nil: annulled for want of a solution (§3.6)
	finTirage  bool    // the tirage could not be drawn: the game ended (§3.7)
	bulletins  bool    // collected (ramassage) and every bulletin entered
	exceptions map[string]string
}

// contexteSepare opens a window in a new browser context of ctx's browser:
// its own cookies, sessionStorage and localStorage, as another machine of
// the hall. (chromedp's WithNewBrowserContext opens a tab, which headless
// Chromium refuses in a context without a window.)
func contexteSepare(t *testing.T, ctx context.Context, largeur, hauteur int) context.Context {
	t.Helper()
	var id target.ID
	executer(t, ctx, chromedp.ActionFunc(func(ctx context.Context) error {
		navigateur := cdp.WithExecutor(ctx, chromedp.FromContext(ctx).Browser)
		contexte, err := target.CreateBrowserContext().WithDisposeOnDetach(true).Do(navigateur)
		if err != nil {
			return err
		}
		id, err = target.CreateTarget("about:blank").WithBrowserContextID(contexte).WithNewWindow(true).Do(navigateur)
		return err
	}))
	c, cancel := chromedp.NewContext(ctx, chromedp.WithTargetID(id))
	t.Cleanup(cancel)
	// No timeout on a context's first Run: it would close the window.
	require.NoError(t, chromedp.Run(c, chromedp.EmulateViewport(int64(largeur), int64(hauteur))))
	return c
}

// TestE2EPartieComplete_ParLesConsoles: a whole 8-player duplicate game run
// only from the consoles — the director's (/directeur, then
// /directeur/partie/<p>), two arbiters' entry pages (/arbitre/partie/<p>, one
// per pair of tables) and the hall display (/affichage/<p>), each in its own
// browser context. Every coup, the last included: the tirage (§3.1), the
// chrono (§1.3, §3.3) seen alike on the console and the display, the
// ramassage (guide §2.13), the top announced (§3.4), then every bulletin
// typed by the arbiter of its table with a wrong score (§5.5), a blank and a
// late one (§5.7) among them — the last coup's after its top ended the game
// (§3.7; introduction, guide §3.2). The standings are provisional until the
// director closes the results on his console. The standings the display
// shows are the API's, and equal those of the same game (same seed, same
// bulletins) played through the GraphQL API only on another server.
func TestE2EPartieComplete_ParLesConsoles(t *testing.T) {
	s, directeur := serveurDuDirecteur(t)
	jetons := make([]string, len(pcArbitres))
	for i, a := range pcArbitres {
		jetons[i] = apiToken(t, s.data, "--role", "arbiter", "--tables", a.tables, "--tournoi", pcTournoi)
	}
	attendreJetons(t, s, jetons...)

	ctxD := navigateur(t, 1400, 1100)
	ctxAff := contexteSepare(t, ctxD, 1920, 1080)
	ctxArb := []context.Context{contexteSepare(t, ctxD, 1400, 1000), contexteSepare(t, ctxD, 1400, 1000)}

	// The director: sign-in, the tournament, the list, the game.
	executer(t, ctxD, chromedp.Navigate(s.url+"/directeur"))
	entrerJeton(t, ctxD, directeur)
	attendre(t, ctxD, `!document.getElementById("contenu").hidden`, e2eAttente, "the console")
	executer(t, ctxD, chromedp.SetValue("#tournoi-id", pcTournoi, chromedp.ByID), chromedp.SetValue("#tournoi-nom", "Open de Vichy", chromedp.ByID),
		chromedp.Click("#tournoi-homologue", chromedp.ByID), chromedp.Click("#creer-tournoi button", chromedp.ByQuery))
	attendre(t, ctxD, jsTexte("#tournoi-titre", "Open de Vichy (T1) — amical ou de test — 0 joueur(s)"), e2eAttente, "the new tournament")
	executer(t, ctxD, chromedp.SetValue("#liste", pcListe(), chromedp.ByID), chromedp.Click("#verifier", chromedp.ByID))
	attendre(t, ctxD, jsTexte("#inscrire", "Inscrire 8 joueur(s)")+` && !document.getElementById("inscrire").disabled`, e2eAttente, "the registration button")
	executer(t, ctxD, chromedp.Click("#inscrire", chromedp.ByID))
	confirmerAction(t, ctxD, "Inscrire 8 joueur(s) au tournoi Open de Vichy ?")
	attendre(t, ctxD, `document.querySelectorAll("#joueurs tr").length === 8`, e2eAttente, "the registered players")
	guideCapture(t, ctxD, "directeur")
	executer(t, ctxD, chromedp.SetValue("#partie-id", pcPartie, chromedp.ByID), chromedp.SetValue("#temps", "120", chromedp.ByID),
		chromedp.SetValue("#source", "logiciel", chromedp.ByID), chromedp.SetValue("#graine", fmt.Sprint(e2eGraine), chromedp.ByID), chromedp.Click("#creer-partie button", chromedp.ByQuery))
	attendreAdresse(t, ctxD, s.url+"/directeur/partie/"+pcPartie)
	statutConsole(t, ctxD, "attente_tirage")

	// The hall display and the arbiters, each signed in on his own screen.
	executer(t, ctxAff, chromedp.Navigate(s.url+"/affichage/"+pcPartie))
	attendre(t, ctxAff, jsTexte("#etat", "en direct"), e2eAttente, "the live display")
	for i, ctx := range ctxArb {
		executer(t, ctx, chromedp.Navigate(s.url+"/arbitre/partie/"+pcPartie))
		entrerJeton(t, ctx, jetons[i])
		attendre(t, ctx, `document.body.dataset.pret === "1" && document.querySelectorAll("#bulletins tr").length === 4`, e2eAttente, "the players of the arbiter's tables")
	}
	var stockes []string
	for _, ctx := range ctxArb {
		var j string
		evaluer(t, ctx, `sessionStorage.getItem("arbitre.jeton") || ""`, &j)
		stockes = append(stockes, j)
	}
	assert.Equal(t, jetons, stockes, "each screen keeps its own token")

	api := e2eAPI{url: s.url, jeton: directeur}
	var joues []pcCoup
	var apres []standingsApres // the public standings once each coup's bulletins are corrected
	for n := 1; ; n++ {
		require.Less(t, n, 60, "the game ends")
		var statut string
		evaluer(t, ctxD, `document.body.dataset.statut`, &statut)
		if statut == "terminee" {
			break
		}
		if !tirerALaConsole(t, ctxD) {
			joues = append(joues, pcCoup{finTirage: true})
			break
		}
		var coup int
		evaluer(t, ctxD, `parseInt(document.body.dataset.coup, 10)`, &coup)
		saisis := coupsSaisis(joues)
		// The chrono, the same on the console and the display (§1.3).
		attendre(t, ctxAff, jsTexte("#coup", fmt.Sprintf("Coup %d", coup)), e2eAttente, "the coup on the display")
		etatChrono(t, ctxAff, "arrete")
		executer(t, ctxD, chromedp.Click("#chrono-demarrer", chromedp.ByID))
		etatChrono(t, ctxD, "en_cours")
		etatChrono(t, ctxAff, "en_cours")
		top, ok := premierTopAdmissible(t, ctxD)
		if coup == 1 {
			guideCapture(t, ctxD, "directeur-partie")
			guideCapture(t, ctxAff, "affichage-chrono")
		}
		if !ok {
			joues = append(joues, pcCoup{})
			continue
		}
		// Guide §2.13: the bulletins collected at the end of the time.
		saisirPendantLeCoup(t, ctxArb[0], coup, bulletinPrevu(pcPendantLeCoup, pcExceptionsDu(saisis)[pcPendantLeCoup], top))
		top = ramasserEtAnnoncer(t, ctxD, s.url, pcPartie, coup, top)
		etatChrono(t, ctxD, "termine")
		etatChrono(t, ctxAff, "termine")
		attendre(t, ctxAff, jsTexte("#top", topAffiche(top)), e2eAttente, "the top on the display")
		// The arbiters type the bulletins after the top, the last coup's
		// after the end of the game.
		joue := pcCoup{top: &top, bulletins: true, exceptions: pcExceptionsDu(saisis)}
		saisirBulletins(t, ctxArb, top, joue.exceptions)
		attendre(t, ctxD, fmt.Sprintf(`document.getElementById("avancement-coup").textContent === "%d" && document.querySelectorAll("#avancement tr").length === 4 &&
			[...document.querySelectorAll("#avancement tr")].every((tr) => tr.dataset.manquants === "0")`, coup), e2eAttente, "every bulletin entered, table by table")
		joues = append(joues, joue)
		apres = append(apres, lireStandingsApres(t, api, coup))
	}
	attendre(t, ctxD, jsTexte("#coup", "Partie terminée"), e2eAttente, "the end of the game on the console")
	attendre(t, ctxD, jsTexte("#fin", "Partie terminée (§3.7)"), e2eAttente, "why the game ended")
	attendre(t, ctxAff, jsTexte("#coup", "Partie terminée"), e2eAttente, "the end of the game on the display")
	guideCapture(t, ctxD, "directeur-fin")

	// The engine's decisions recorded for the bulletins typed on the pages.
	for _, c := range joues {
		if !c.bulletins {
			continue
		}
		var d struct {
			Bulletins []struct {
				Licence  string
				Decision *apiDecision
			}
		}
		api.exiger(t, `query($c: Int!) { bulletins(partie:"`+pcPartie+`", coup:$c) { licence decision { `+decisionFields+` } } }`,
			map[string]any{"c": c.top.Coup}, &d)
		require.Len(t, d.Bulletins, 8, "coup %d: every bulletin", c.top.Coup)
		for _, b := range d.Bulletins {
			require.NotNil(t, b.Decision, "coup %d, %s corrected", c.top.Coup, b.Licence)
			assert.Equal(t, bulletinPrevu(b.Licence, c.exceptions[b.Licence], *c.top).sanction, b.Decision.Sanction, "coup %d, %s", c.top.Coup, b.Licence)
		}
	}
	topes := 0
	for _, c := range joues {
		if c.top != nil {
			topes++
		}
	}
	require.Equal(t, topes, coupsSaisis(joues), "every coup topped has every bulletin, the last included")

	// Provisional until the director closes the results on his console.
	attendre(t, ctxAff, `!document.getElementById("provisoire").hidden`, e2eAttente, "provisional standings on the display")
	executer(t, ctxD, chromedp.Click("#clore", chromedp.ByID))
	confirmerAction(t, ctxD, "Clore les résultats ?")
	attendre(t, ctxD, `document.body.dataset.resultatsClos === "true"`, e2eAttente, "the results closed")
	attendre(t, ctxAff, `document.getElementById("provisoire").hidden`, e2eAttente, "final standings on the display")

	// The standings the display shows are the API's.
	var parConsoles pcResultat
	api.exiger(t, pcResultatQuery, nil, &parConsoles)
	for _, l := range parConsoles.Classement {
		assert.False(t, l.Provisoire, l.Licence)
		assert.Zero(t, l.EnAttente, "%s: every coup counted, the last included", l.Licence)
	}
	attendre(t, ctxAff, `document.querySelectorAll("#lignes tr").length === 8`, e2eAttente, "the standings on the display")
	var affiches [][]string
	evaluer(t, ctxAff, `[...document.querySelectorAll("#lignes tr")].map(tr => [...tr.cells].slice(0, 4).map(td => td.textContent))`, &affiches)
	require.Len(t, parConsoles.Classement, 8)
	for i, l := range parConsoles.Classement {
		assert.Equal(t, []string{fmt.Sprint(l.Rang), l.Nom, l.Club, fmt.Sprint(l.Score)}, affiches[i], "row %d of the display", i+1)
	}

	// And so are the printed standings, to pin up in the hall.
	executer(t, ctxAff, chromedp.Navigate(s.url+"/classement/"+pcTournoi+"?partie="+pcPartie))
	attendre(t, ctxAff, `document.querySelectorAll("#lignes tr").length === 8`, e2eAttente, "the printed standings")
	var imprimes [][]string
	evaluer(t, ctxAff, `[...document.querySelectorAll("#lignes tr")].map(tr => [tr.cells[0], tr.cells[1], tr.cells[5]].map(td => td.textContent))`, &imprimes)
	for i, l := range parConsoles.Classement {
		assert.Equal(t, []string{fmt.Sprint(l.Rang), l.Nom, fmt.Sprint(l.Score)}, imprimes[i], "row %d of the printed standings", i+1)
	}

	// The per-coup score sheet, from the arbiter's page and the director's
	// console, agrees with the standings coup by coup (issue 31).
	verifierFeuilleDesScores(t, s, ctxArb[0], ctxD, ctxAff, apres)

	// The same game through the API only, on another server.
	t.Logf("%d coups; standings %+v", len(joues), parConsoles.Classement)
	parAPI := jouerParAPI(t, joues)
	assert.Equal(t, parConsoles.Partie, parAPI.Partie, "the same tops and the same end")
	assert.Equal(t, parConsoles.Classement, parAPI.Classement, "the same final standings")
	assert.NotEqual(t, parConsoles.Classement[0].Score, parConsoles.Classement[7].Score, "the bulletins made a difference")
}

// coupsSaisis counts the coups whose bulletins were entered.
func coupsSaisis(joues []pcCoup) int {
	n := 0
	for _, c := range joues {
		if c.bulletins {
			n++
		}
	}
	return n
}

// guideCapture writes the page as docs/screenshots/<nom>.png for the
// director's guide (docs/directeur.md) when ARBITRE_SCREENSHOTS=1, as
// TestE2EScreenshots refreshes the others.
func guideCapture(t *testing.T, ctx context.Context, nom string) {
	t.Helper()
	if os.Getenv("ARBITRE_SCREENSHOTS") != "1" {
		return
	}
	var png []byte
	executer(t, ctx, chromedp.FullScreenshot(&png, 100))
	require.NoError(t, os.WriteFile(filepath.Join("..", "..", "docs", "screenshots", nom+".png"), png, 0o644))
}

// pcResultat is what both games are compared on.
type pcResultat struct {
	Partie struct {
		Tops []e2eTop
		Fin  struct {
			Motif       string
			DernierCoup int
		}
	}
	Classement []struct {
		Rang, Score, Top, Negatif, EnAttente int
		Licence, Nom, Club, Serie            string
		Provisoire                           bool
	}
}

const pcResultatQuery = `{ partie(id:"` + pcPartie + `") { tops { coup mot reference score } fin { motif dernierCoup } }
	classement(partie:"` + pcPartie + `") { rang licence nom club serie score top negatif enAttente provisoire } }`

// saisirPendantLeCoup types a bulletin on the arbiter's page while the coup
// is played: the engine's decision waits for the top, the deposit goes alone.
func saisirPendantLeCoup(t *testing.T, ctx context.Context, coup int, b pcBulletin) {
	t.Helper()
	attendre(t, ctx, fmt.Sprintf(`document.getElementById("coup").value === "%d"`, coup), e2eAttente, "the coup being played on the entry page")
	taper(t, ctx, b.page)
	attendre(t, ctx, `document.getElementById("decision-moteur").dataset.sanction === "attente"`, e2eAttente, "the decision after the top")
	valider(t, ctx)
	attendre(t, ctx, `document.querySelector('#bulletins tr[data-licence="`+b.page.joueur+`"]').dataset.etat === "depose"`, e2eAttente, "the bulletin deposited")
}

// saisirBulletins types, on each arbiter's page, the bulletins of his
// players for the coup just topped (the one typed during the coup: its
// correction, the engine's decision accepted), and waits until all are
// corrected.
func saisirBulletins(t *testing.T, ctxArb []context.Context, top e2eTop, exceptions map[string]string) {
	t.Helper()
	for i, ctx := range ctxArb {
		attendre(t, ctx, jsTexte("#top", fmt.Sprintf("Top : %s en %s", top.Mot, top.Reference))+
			fmt.Sprintf(` && document.getElementById("coup").value === "%d"`, top.Coup), e2eAttente, "the coup's top on the entry page")
		for _, l := range pcArbitres[i].licences {
			if l == pcPendantLeCoup {
				executer(t, ctx, chromedp.Click(`#bulletins tr[data-licence="`+l+`"] button.accepter`, chromedp.ByQuery))
				continue
			}
			b := bulletinPrevu(l, exceptions[l], top)
			taper(t, ctx, b.page)
			attendre(t, ctx, fmt.Sprintf(`document.getElementById("joueur-choisi").dataset.licence === %q && document.getElementById("decision-moteur").dataset.sanction === %q`,
				l, b.sanction), e2eAttente, l+": the engine's decision")
			valider(t, ctx)
		}
	}
	for _, ctx := range ctxArb {
		attendre(t, ctx, `document.getElementById("attente").dataset.n === "0" && document.querySelectorAll("#bulletins tr[data-etat=corrige]").length === 4`,
			e2eAttente, "four bulletins corrected, nothing waiting")
	}
}

// sallePC starts a server on a fresh data directory with the hall's
// tokens: the director's, and each arbiter's for his tables (by licence of
// the players he corrects); the caller stops it.
func sallePC(t *testing.T) (s *apiServer, directeur string, arbitres map[string]string) {
	t.Helper()
	data := t.TempDir()
	directeur = apiToken(t, data, "--role", "director")
	arbitres = map[string]string{}
	for _, a := range pcArbitres {
		jeton := apiToken(t, data, "--role", "arbiter", "--tables", a.tables, "--tournoi", pcTournoi)
		for _, l := range a.licences {
			arbitres[l] = jeton
		}
	}
	s = startAPIServer(t, data)
	attendreJetons(t, s, directeur)
	return s, directeur, arbitres
}

// jouerParAPI plays the game the consoles played, coup by coup, through the
// GraphQL API only, on a fresh server: the same list, seed, tops, ramassages
// and bulletins (entered by the arbiters' tokens); it returns the result.
func jouerParAPI(t *testing.T, joues []pcCoup) pcResultat {
	t.Helper()
	s, directeur, arbitres := sallePC(t)
	defer s.stop()
	exiger := func(jeton, q string, vars map[string]any) {
		t.Helper()
		res := s.gql(jeton, q, vars)
		require.Empty(t, res.Errors, "%s: %+v", q, res.Errors)
	}
	exiger(directeur, `mutation { creerTournoi(id:"`+pcTournoi+`", nom:"Open de Vichy", homologue: false) { id } }`, nil)
	exiger(directeur, `mutation($j: [JoueurInput!]!) { inscrireJoueurs(tournoi:"`+pcTournoi+`", joueurs:$j) { version } }`, map[string]any{"j": pcJoueurs})
	exiger(directeur, `mutation($g: Int!) { creerPartie(tournoi:"`+pcTournoi+`", partie:"`+pcPartie+`", config:{source: logiciel, graine:$g, tempsParCoupSecondes:120}) { id } }`,
		map[string]any{"g": e2eGraine})
	deposer := func(c pcCoup, l string) {
		t.Helper()
		exiger(arbitres[l], `mutation($p: ID!, $c: Int!, $l: ID!, $b: BulletinInput!) { deposerBulletin(partie:$p, coup:$c, licence:$l, bulletin:$b) { licence } }`,
			map[string]any{"p": pcPartie, "c": c.top.Coup, "l": l, "b": bulletinPrevu(l, c.exceptions[l], *c.top).api})
	}
	p := map[string]any{"p": pcPartie}
	for _, c := range joues {
		exiger(directeur, `mutation($p: ID!) { tirer(partie:$p) { version } }`, p)
		switch {
		case c.finTirage:
			continue
		case c.top == nil:
			exiger(directeur, `mutation($p: ID!) { annulerCoup(partie:$p, motif:aucune_solution) { version } }`, p)
			continue
		case c.bulletins:
			exiger(directeur, `mutation($p: ID!) { demarrerChrono(partie:$p) { version } }`, p)
			deposer(c, pcPendantLeCoup)
			exiger(directeur, `mutation($p: ID!) { ramasser(partie:$p) { version } }`, p)
		}
		exiger(directeur, `mutation($p: ID!, $r: String!, $m: String!) { retenirTop(partie:$p, reference:$r, mot:$m) { version } }`,
			map[string]any{"p": pcPartie, "r": c.top.Reference, "m": c.top.Mot})
		if !c.bulletins {
			continue
		}
		for _, a := range pcArbitres {
			for _, l := range a.licences {
				if l != pcPendantLeCoup {
					deposer(c, l)
				}
				exiger(arbitres[l], `mutation($p: ID!, $c: Int!, $l: ID!) { corrigerBulletin(partie:$p, coup:$c, licence:$l) { licence } }`,
					map[string]any{"p": pcPartie, "c": c.top.Coup, "l": l})
			}
		}
	}
	exiger(directeur, `mutation($p: ID!) { cloreResultats(partie:$p) { version } }`, p)
	var r pcResultat
	e2eAPI{url: s.url, jeton: directeur}.exiger(t, pcResultatQuery, nil, &r)
	return r
}
