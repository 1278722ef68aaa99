package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The commission's workflow (issue 14): the list of a game's or a
// tournament's appeals (§6.3–§6.4), scoped like the appeal itself
// (docs/securite.md), and the /commission/<partie> page that files,
// composes, votes and decides through the existing mutations.

const appelsQuery = `query($p: ID, $t: ID) { appels(partie:$p, tournoi:$t) { id tournoi partie coup licence statut } }`

type apiAppelResume struct {
	ID, Tournoi, Partie, Licence, Statut string
	Coup                                 int
}

func idsAppels(as []apiAppelResume) []string {
	ids := []string{}
	for _, a := range as {
		ids = append(ids, a.ID)
	}
	return ids
}

// e2eCommission is a server holding one appeal game (nouvelleAppelPartie)
// per tournament, a director's token and a commission token of the first
// tournament.
type e2eCommission struct {
	s                     *apiServer
	directeur, commission string
	parties               []appelPartie
}

func ouvrirCommission(t *testing.T, tournois ...string) e2eCommission {
	t.Helper()
	data := t.TempDir()
	c := e2eCommission{directeur: apiToken(t, data, "--role", "director"), commission: apiToken(t, data, "--role", "commission", "--tournoi", tournois[0])}
	c.s = startAPIServer(t, data)
	t.Cleanup(c.s.stop)
	for _, tournoi := range tournois {
		c.parties = append(c.parties, nouvelleAppelPartie(t, c.s, c.directeur, tournoi))
	}
	return c
}

// The list of appeals never shows another tournament's: a commission or an
// arbiter of tournament A reads A's appeals, by tournament or by game, and is
// refused B's (the game's stored tournament decides, not the name the client
// gives); without a token, an unknown game or an ambiguous request nothing is
// listed.
func TestSecurite_AppelsSansFuiteEntreTournois(t *testing.T) {
	c := ouvrirCommission(t, "A", "B")
	s, director, commissionA, a, b := c.s, c.directeur, c.commission, c.parties[0], c.parties[1]
	arbitreA := apiToken(t, s.data, "--role", "arbiter", "--tournoi", "A")
	commissionB := apiToken(t, s.data, "--role", "commission", "--tournoi", "B")
	require.Empty(t, s.gql(commissionA, deposerAppelMutation, map[string]any{"a": a.depot("A1", "L2")}).Errors)
	require.Empty(t, s.gql(commissionB, deposerAppelMutation, map[string]any{"a": b.depot("B1", "L2")}).Errors)
	require.Empty(t, s.gql(commissionA, deposerAppelMutation, map[string]any{"a": a.depot("A2", "L20")}).Errors)

	lister := func(token string, vars map[string]any) ([]apiAppelResume, string) {
		res := s.gql(token, appelsQuery, vars)
		if len(res.Errors) > 0 {
			return nil, res.code()
		}
		var out []apiAppelResume
		res.into(t, "appels", &out)
		return out, ""
	}
	cas := []struct {
		nom   string
		jeton string
		vars  map[string]any
		ids   []string
		code  string
	}{
		{"commission A, tournoi A", commissionA, map[string]any{"t": "A"}, []string{"A1", "A2"}, ""},
		{"commission A, partie de A", commissionA, map[string]any{"p": a.partie}, []string{"A1", "A2"}, ""},
		{"arbitre A, partie de A", arbitreA, map[string]any{"p": a.partie}, []string{"A1", "A2"}, ""},
		{"directeur, tournoi B", director, map[string]any{"t": "B"}, []string{"B1"}, ""},
		{"commission A, tournoi B", commissionA, map[string]any{"t": "B"}, nil, "FORBIDDEN"},
		{"commission A, partie de B", commissionA, map[string]any{"p": b.partie}, nil, "FORBIDDEN"},
		{"commission A, partie de B nommée sous A", commissionA, map[string]any{"p": b.partie, "t": "A"}, nil, "INVALID_INPUT"},
		{"arbitre A, tournoi B", arbitreA, map[string]any{"t": "B"}, nil, "FORBIDDEN"},
		{"sans jeton", "", map[string]any{"t": "A"}, nil, "UNAUTHENTICATED"},
		{"partie inconnue", director, map[string]any{"p": "inconnue"}, nil, "NOT_FOUND"},
		{"tournoi inconnu", director, map[string]any{"t": "inconnu"}, nil, "NOT_FOUND"},
		{"ni partie ni tournoi", director, map[string]any{}, nil, "INVALID_INPUT"},
	}
	for _, c := range cas {
		t.Run(c.nom, func(t *testing.T) {
			got, code := lister(c.jeton, c.vars)
			assert.Equal(t, c.code, code)
			if c.code == "" {
				assert.Equal(t, c.ids, idsAppels(got))
				for _, ap := range got {
					assert.Equal(t, ap.ID[:1], ap.Tournoi, "the stored tournament of %s", ap.ID)
				}
			}
		})
	}
}

// --- the printed standings ----------------------------------------------------

// imprimerPage renders the open page as the printer would (print media) and
// returns its PDF.
func imprimerPage(t *testing.T, ctx context.Context) []byte {
	t.Helper()
	var pdf []byte
	executer(t, ctx, emulation.SetEmulatedMedia().WithMedia("print"), chromedp.ActionFunc(func(ctx context.Context) error {
		var err error
		pdf, _, err = page.PrintToPDF().WithPaperWidth(8.27).WithPaperHeight(11.69).WithPreferCSSPageSize(true).Do(ctx)
		return err
	}))
	return pdf
}

// The print page of the duplicate standings (issue 14, printing) shows the
// rows classement gives for a game, for the cumul and for a série, under a
// header naming the tournament, the game or the cumul, the série and the
// date; printed, it is a PDF without navigation or buttons whose rows never
// split across pages.
func TestE2EClassementImprimable(t *testing.T) {
	salle := ouvrirSalle(t)
	var tn struct {
		Tournoi struct{ Nom string } `json:"tournoi"`
	}
	salle.public.exiger(t, `query($t: ID!) { tournoi(id: $t) { nom } }`, map[string]any{"t": e2eTournoi}, &tn)
	require.NotEmpty(t, tn.Tournoi.Nom)
	cas := []struct {
		nom, adresse, portee string
		vars                 map[string]any
	}{
		{"partie", "?partie=" + e2ePartieSim, "Partie n° 1", map[string]any{"p": e2ePartieSim}},
		{"cumul", "", "Cumul du tournoi", map[string]any{"t": e2eTournoi}},
		{"série de la partie", "?partie=" + e2ePartieSim + "&serie=2", "Partie n° 1 — série 2", map[string]any{"p": e2ePartieSim, "s": "2"}},
		{"série du cumul", "?serie=3", "Cumul du tournoi — série 3", map[string]any{"t": e2eTournoi, "s": "3"}},
	}
	ctx := navigateur(t, 1000, 1200)
	for _, c := range cas {
		t.Run(c.nom, func(t *testing.T) {
			var d struct {
				Classement []e2eLigne `json:"classement"`
			}
			salle.public.exiger(t, `query($p: ID, $t: ID, $s: String) { classement(partie: $p, tournoi: $t, serie: $s) { rang nom club score } }`, c.vars, &d)
			require.NotEmpty(t, d.Classement)
			executer(t, ctx, emulation.SetEmulatedMedia().WithMedia(""), chromedp.Navigate(salle.public.url+"/classement/"+e2eTournoi+c.adresse))
			attendre(t, ctx, fmt.Sprintf(`document.querySelectorAll("#lignes tr").length === %d`, len(d.Classement)), e2eAttente, "the standings' rows")
			attendre(t, ctx, jsTexte("#tournoi", tn.Tournoi.Nom), e2eAttente, "the tournament's name")
			attendre(t, ctx, jsTexte("#portee", c.portee), e2eAttente, "the game or cumul and the série")
			attendre(t, ctx, jsTexte("#edition", "Édité le "), e2eAttente, "the date")
			var rangees [][]string
			evaluer(t, ctx, `[...document.querySelectorAll("#lignes tr")].map((tr) => [...tr.cells].map((td) => td.textContent))`, &rangees)
			for i, l := range d.Classement {
				assert.Equal(t, []string{fmt.Sprint(l.Rang), l.Nom, fmt.Sprint(l.Score)}, []string{rangees[i][0], rangees[i][1], rangees[i][5]}, "row %d", i+1)
			}

			pdf := imprimerPage(t, ctx)
			assert.True(t, bytes.HasPrefix(pdf, []byte("%PDF-")), "a PDF")
			var styles map[string]string
			evaluer(t, ctx, `({
				nav: getComputedStyle(document.querySelector("nav")).display,
				bouton: getComputedStyle(document.getElementById("imprimer")).display,
				ligne: getComputedStyle(document.querySelector("#lignes tr")).breakInside,
				entete: getComputedStyle(document.querySelector("thead")).display,
				fond: getComputedStyle(document.body).backgroundColor,
			})`, &styles)
			assert.Equal(t, map[string]string{"nav": "none", "bouton": "none", "ligne": "avoid", "entete": "table-header-group",
				"fond": "rgb(255, 255, 255)"}, styles, "printed: no navigation, rows never split, headers repeat, white paper")
		})
	}
}

// --- the appeal workflow ------------------------------------------------------

// saisir fills a form's fields by name (inputs, selects, textareas).
func saisir(t *testing.T, ctx context.Context, form string, champs ...string) {
	t.Helper()
	var actions []chromedp.Action
	for i := 0; i < len(champs); i += 2 {
		actions = append(actions, chromedp.SetValue(fmt.Sprintf(`#%s [name=%q]`, form, champs[i]), champs[i+1], chromedp.ByQuery))
	}
	executer(t, ctx, actions...)
}

// faireAppelALaCommission files an appeal (§6.3) on the commission's page
// open at the coup: « Faire appel » on the player's bulletin, the form
// filled (the player himself appealing, asking for paye without sanction),
// sent and confirmed; it waits for the filed appeal.
func faireAppelALaCommission(t *testing.T, ctx context.Context, coup int, licence string, paye int, motif string) {
	t.Helper()
	bouton := `#bulletins button[data-licence="` + licence + `"]`
	attendre(t, ctx, `!!document.querySelector('`+bouton+`')`, e2eAttente, "« Faire appel » on "+licence+"'s bulletin")
	executer(t, ctx, chromedp.Click(bouton, chromedp.ByQuery))
	attendre(t, ctx, fmt.Sprintf(`document.getElementById("depot").open && document.querySelector("#form-depot [name=licence]").value === %q
		&& document.querySelector("#form-depot [name=coup]").value === "%d"`, licence, coup), e2eAttente, "the filing form")
	saisir(t, ctx, "form-depot", "requerant", "Joueur "+licence, "motif", motif, "paye", fmt.Sprint(paye), "sanction", "none")
	executer(t, ctx, chromedp.Click("#form-depot button", chromedp.ByQuery))
	confirmerDialogue(t, ctx, "oui")
	attendre(t, ctx, `!document.getElementById("appel").hidden`+` && `+jsTexte("#appel-titre", fmt.Sprintf("coup %d, joueur %s", coup, licence)),
		e2eAttente, "the filed appeal")
}

// deciderALaCommission takes the open appeal to its decision on the
// commission's page (guide §3.8): the commission composed (M1 presiding,
// M2, M3), each member's vote, then the decision of the majority (its
// label as the page says it) with its motivation, and propre the fields of
// the commission's own decision (name, value) for an amended one; every
// step confirmed.
func deciderALaCommission(t *testing.T, ctx context.Context, votes []string, majorite, issue, motivation string, propre ...string) {
	t.Helper()
	saisir(t, ctx, "form-composer", "president", "M1", "membres", "M2, M3")
	executer(t, ctx, chromedp.Click("#form-composer button", chromedp.ByQuery))
	confirmerDialogue(t, ctx, "oui")
	attendre(t, ctx, `!document.getElementById("form-voter").hidden`, e2eAttente, "the vote form")
	attendre(t, ctx, jsTexte("#niveaux", "MembresM1, M2, M3"), e2eAttente, "the commission")
	for i, m := range []string{"M1", "M2", "M3"} {
		saisir(t, ctx, "form-voter", "membre", m, "issue", votes[i])
		executer(t, ctx, chromedp.Click("#form-voter button", chromedp.ByQuery))
		confirmerDialogue(t, ctx, "oui")
		attendre(t, ctx, jsTexte("#niveaux", m+" : "), e2eAttente, "the vote of "+m)
	}
	attendre(t, ctx, `!document.getElementById("form-decider").hidden`, e2eAttente, "the decision form")
	attendre(t, ctx, jsTexte("#majorite", "Majorité des votes : "+majorite), e2eAttente, "the majority")
	attendre(t, ctx, fmt.Sprintf(`document.querySelector("#form-decider [name=issue]").value === %q
		&& document.getElementById("decision-propre").hidden === %v`, issue, issue != "amende"), e2eAttente, "the majority preselected")
	saisir(t, ctx, "form-decider", append([]string{"motivation", motivation}, propre...)...)
	executer(t, ctx, chromedp.Click("#form-decider button", chromedp.ByQuery))
	confirmerDialogue(t, ctx, "oui")
	attendre(t, ctx, jsTexte("#appel-titre", "décidé"), e2eAttente, "the decided appeal")
	attendre(t, ctx, jsTexte("#niveaux", "Motivation"+motivation), e2eAttente, "the rationale")
}

// The commission's page carries an appeal from the bulletin to the
// standings (§6.3–§6.4, guide §3.8): « Faire appel » on L2's blank bulletin
// files it (the contested decision read from the game), the commission is
// composed (a cancelled confirmation writes nothing), three members vote,
// the majority's decision is rendered with its rationale — upheld pays the
// requested score, rejected keeps the zéro, amended pays the commission's
// own — and it reaches the standings and the printed standings.
func TestE2ECommissionAppelDuDepotALaDecision(t *testing.T) {
	chromium(t)
	const paye = 10 // the amended decision's score
	cas := []struct {
		issue    string
		votes    []string // M1, M2, M3
		vigueur  string   // the decision in force, as the page says it
		score    func(top int) int
		majorite string
	}{
		{"accueilli", []string{"accueilli", "accueilli", "rejete"}, "Décision en vigueur : %d pts", func(top int) int { return top }, "accueilli"},
		{"rejete", []string{"rejete", "accueilli", "rejete"}, "la décision contestée est maintenue", func(int) int { return 0 }, "rejeté"},
		{"amende", []string{"amende", "amende", "accueilli"}, "Décision en vigueur : 10 pts", func(int) int { return paye }, "amendé"},
	}
	for _, c := range cas {
		t.Run(c.issue, func(t *testing.T) {
			e := ouvrirCommission(t, "T")
			s, director, commission, p := e.s, e.directeur, e.commission, e.parties[0]
			scoreL2 := func() int {
				var l []apiLigne
				s.gql("", `query($p: ID!) { classement(partie:$p) { licence score rang } }`, map[string]any{"p": p.partie}).into(t, "classement", &l)
				return scoreOf(l, "L2")
			}
			require.Equal(t, 0, scoreL2(), "a blank bulletin scores nothing (§5.7)")
			const id = "T-1-c1-L2"
			statut := func() string {
				var a *struct{ Statut string }
				s.gql(director, appelQuery, map[string]any{"t": p.tournoi, "id": id}).into(t, "appel", &a)
				if a == nil {
					return ""
				}
				return a.Statut
			}

			ctx := navigateur(t, 1400, 1100)
			executer(t, ctx, chromedp.Navigate(s.url+"/commission/"+p.partie+"?coup=1"))
			entrerJeton(t, ctx, commission)
			attendre(t, ctx, `!document.getElementById("recours").hidden && !document.getElementById("appels-vide").hidden`, e2eAttente, "the empty list of appeals")

			// Filing from the bulletin's row.
			faireAppelALaCommission(t, ctx, 1, "L2", p.top, "Mon bulletin portait le top, mal lu.")
			attendre(t, ctx, `document.querySelectorAll("#appels tr").length === 1
				&& getComputedStyle(document.querySelector("#appels td.tournoi")).display === "none"`, e2eAttente, "the filed appeal, in the game's list (no game column)")
			attendre(t, ctx, jsTexte("#appel-titre", "Appel "+id+" — coup 1, joueur L2, table 2 — déposé"), e2eAttente, "the appeal's title")
			attendre(t, ctx, jsTexte("#niveaux", "Décision contestée0 pts, nullité (§5.7)"), e2eAttente, "the contested decision read from the game")
			attendre(t, ctx, jsTexte("#niveaux", fmt.Sprintf("Décision demandée%d pts, sans sanction", p.top)), e2eAttente, "the requested decision")
			assert.Equal(t, "depose", statut())

			// Composing: a cancelled confirmation writes nothing.
			saisir(t, ctx, "form-composer", "president", "M1", "membres", "M2, M3")
			executer(t, ctx, chromedp.Click("#form-composer button", chromedp.ByQuery))
			confirmerDialogue(t, ctx, "non")
			assert.Equal(t, "depose", statut(), "cancelled: nothing written")

			// Composed, three votes, then the majority's decision with its
			// rationale.
			motivation := "La commission statue : " + c.issue + "."
			var propre []string
			if c.issue == "amende" {
				propre = []string{"paye", fmt.Sprint(paye), "sanction", "none"}
			}
			deciderALaCommission(t, ctx, c.votes, c.majorite, c.issue, motivation, propre...)
			vigueur := c.vigueur
			if c.issue == "accueilli" {
				vigueur = fmt.Sprintf(vigueur, p.top)
			}
			attendre(t, ctx, jsTexte("#appel-vigueur", vigueur), e2eAttente, "the decision in force")
			attendre(t, ctx, jsTexte("#appel-historique", "a enregistré 3 votes."), e2eAttente, "the history")
			attendre(t, ctx, jsTexte("#appel-historique", "a rendu la décision."), e2eAttente, "the history's decision")
			assert.Equal(t, "decide", statut())

			// The appeal links to the replay of its coup.
			executer(t, ctx, chromedp.Click("#appel-rejeu a", chromedp.ByQuery))
			attendre(t, ctx, jsTexte("#coup", "coup 1 / 1")+` && location.search.includes("appel=`+id+`")`, e2eAttente, "the replay of the appeal's coup")

			// The decision reached the standings, and the printed standings.
			attendu := c.score(p.top)
			require.Eventually(t, func() bool { return scoreL2() == attendu }, e2eAttente, 50*time.Millisecond, "L2 is paid %d", attendu)
			executer(t, ctx, chromedp.Navigate(s.url+"/classement/T?partie="+p.partie))
			attendre(t, ctx, fmt.Sprintf(`[...document.querySelectorAll("#lignes tr")].some((tr) => tr.cells[2].textContent === "L2" && tr.cells[5].textContent === "%d")`, attendu),
				e2eAttente, "L2's score on the printed standings")
		})
	}
}

// TestE2EScreenshotsCommissionEtImpression refreshes, when
// ARBITRE_SCREENSHOTS=1, the first printed page of the standings of a game,
// of the cumul and of a série (print media on an A4 sheet at 96 dpi, the
// @page margins drawn as padding), the commission's appeal workflow with
// an appeal being voted on, and the tournament's appeals.
func TestE2EScreenshotsCommissionEtImpression(t *testing.T) {
	if os.Getenv("ARBITRE_SCREENSHOTS") != "1" {
		t.Skip("set ARBITRE_SCREENSHOTS=1 to refresh docs/screenshots/")
	}
	dir := filepath.Join("..", "..", "docs", "screenshots")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	salle := ouvrirSalle(t)
	const largeurA4, hauteurA4 = 794, 1123
	ctx := navigateur(t, largeurA4, hauteurA4)
	for nom, adresse := range map[string]string{
		"impression-partie.png": "?partie=" + e2ePartieSim,
		"impression-cumul.png":  "",
		"impression-serie.png":  "?partie=" + e2ePartieSim + "&serie=2",
	} {
		executer(t, ctx, emulation.SetEmulatedMedia().WithMedia(""), chromedp.Navigate(salle.public.url+"/classement/"+e2eTournoi+adresse))
		attendre(t, ctx, `document.querySelectorAll("#lignes tr").length > 0 && document.getElementById("etat").textContent === ""`, e2eAttente, "the standings")
		var png []byte
		executer(t, ctx, emulation.SetEmulatedMedia().WithMedia("print"),
			chromedp.Evaluate(`document.body.style.padding = "14mm 12mm"`, nil), chromedp.CaptureScreenshot(&png))
		require.NoError(t, os.WriteFile(filepath.Join(dir, nom), png, 0o644))
	}

	c := ouvrirCommission(t, "T")
	s, commission, p := c.s, c.commission, c.parties[0]
	depot := avec(p.depot("T-1-c1-L2", "L2"), "motif", "Mon bulletin portait le top, mal lu.",
		"contestee", map[string]any{"paye": 0, "sanction": "zero"})
	require.Empty(t, s.gql(commission, deposerAppelMutation, map[string]any{"a": depot}).Errors)
	require.Empty(t, s.gql(commission, `mutation { composerCommission(tournoi:"T", appel:"T-1-c1-L2", president:"Marie Curie", membres:["Marie Curie","Jean Moulin","Rosa Bonheur"]) { statut } }`, nil).Errors)
	require.Empty(t, s.gql(commission, `mutation { voter(tournoi:"T", appel:"T-1-c1-L2", membre:"Marie Curie", issue:accueilli) { statut } }`, nil).Errors)
	ctx = navigateur(t, 1400, 1100)
	executer(t, ctx, chromedp.Navigate(s.url+"/commission/"+p.partie+"?coup=1&appel=T-1-c1-L2"))
	entrerJeton(t, ctx, commission)
	attendre(t, ctx, `!document.getElementById("appel").hidden && !document.getElementById("form-voter").hidden && !!document.querySelector("svg.plateau")`,
		e2eAttente, "the appeal being voted on")
	var png []byte
	executer(t, ctx, chromedp.FullScreenshot(&png, 100))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "commission-appels.png"), png, 0o644))

	executer(t, ctx, chromedp.Navigate(s.url+"/commission"))
	attendre(t, ctx, `document.querySelectorAll("#appels tr").length === 1`, e2eAttente, "the tournament's appeals")
	executer(t, ctx, chromedp.CaptureScreenshot(&png))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "commission-tournoi.png"), png, 0o644))
}

// /commission lists the appeals of the token's tournament only (a token for
// every tournament chooses one), and each opens on its game's page with the
// appeal and its coup.
func TestE2ECommissionAppelsDuTournoi(t *testing.T) {
	chromium(t)
	c := ouvrirCommission(t, "A", "B")
	s, director, commissionA, a, b := c.s, c.directeur, c.commission, c.parties[0], c.parties[1]
	for _, d := range []map[string]any{a.depot("A1", "L2"), a.depot("A2", "L20"), b.depot("B1", "L2")} {
		require.Empty(t, s.gql(director, deposerAppelMutation, map[string]any{"a": d}).Errors)
	}
	ids := `[...document.querySelectorAll("#appels tr")].map((tr) => tr.cells[0].textContent).join(",")`

	ctx := navigateur(t, 1400, 1000)
	executer(t, ctx, chromedp.Navigate(s.url+"/commission/"), chromedp.WaitReady("#choix-tournoi", chromedp.ByID))
	attendre(t, ctx, `!document.getElementById("connexion").hidden && document.getElementById("contenu").hidden`, e2eAttente, "the tournament's page asking for a token")
	entrerJeton(t, ctx, commissionA)
	attendre(t, ctx, ids+` === "A1,A2" && location.pathname === "/commission"`, e2eAttente, "tournament A's appeals, and only them")
	var visibles map[string]bool
	evaluer(t, ctx, `({ partie: getComputedStyle(document.querySelector("#appels td.tournoi")).display !== "none",
		depot: getComputedStyle(document.getElementById("depot")).display !== "none",
		navigation: !document.querySelector("header nav").hidden })`, &visibles)
	assert.Equal(t, map[string]bool{"partie": true, "depot": false, "navigation": false}, visibles, "the tournament's list: each appeal's game, no filing, no coup navigation")
	attendre(t, ctx, jsTexte("#titre", "Open"), e2eAttente, "the tournament's name")
	executer(t, ctx, chromedp.Click(`#appels button[data-appel="A2"]`, chromedp.ByQuery), chromedp.WaitVisible("#appel-titre", chromedp.ByID))
	attendre(t, ctx, `location.pathname === "/commission/A-1" && location.search.includes("appel=A2")
		&& `+jsTexte("#appel-titre", "Appel A2 — coup 1, joueur L20")+` && `+jsTexte("#coup", "coup 1 / 1"), e2eAttente, "the appeal on its game's page")

	// A token valid for every tournament chooses one.
	ctx = navigateur(t, 1400, 1000)
	executer(t, ctx, chromedp.Navigate(s.url+"/commission"))
	entrerJeton(t, ctx, director)
	attendre(t, ctx, `!document.getElementById("choix-tournoi").hidden`, e2eAttente, "the choice of the tournament")
	saisir(t, ctx, "choix-tournoi", "tournoi", "B")
	executer(t, ctx, chromedp.Click("#choix-tournoi button", chromedp.ByQuery))
	attendre(t, ctx, ids+` === "B1" && location.search === "?tournoi=B"`, e2eAttente, "tournament B's appeals")
}

// An appeal's command sent with a stale revision is refused with CONFLICT
// telling to reload, not to send the same request again (which would fail
// the same way); without a revision the server's own retry message stands.
func TestE2EConflitDeRevisionDitDeRecharger(t *testing.T) {
	e := ouvrirCommission(t, "T")
	s, p := e.s, e.parties[0]
	require.Empty(t, s.gql(e.commission, deposerAppelMutation, map[string]any{"a": p.depot("A1", "L2")}).Errors)
	res := s.gql(e.commission, `mutation { composerCommission(tournoi:"T", appel:"A1", president:"M1", membres:["M1","M2","M3"], revision: 7) { statut } }`, nil)
	require.Equal(t, "CONFLICT", res.code())
	assert.Contains(t, res.Errors[0].Message, "recharger avant de recommencer")
	assert.NotContains(t, res.Errors[0].Message, "clientMutationId")
}

// A member acting on a stale screen (another composed the commission
// meanwhile) gets the server's CONFLICT in French, nothing more is written,
// and the page shows what was recorded: the vote form.
func TestE2ECommissionEcranPerime(t *testing.T) {
	chromium(t)
	e := ouvrirCommission(t, "T")
	s, p := e.s, e.parties[0]
	require.Empty(t, s.gql(e.commission, deposerAppelMutation, map[string]any{"a": p.depot("A1", "L2")}).Errors)
	ctx := navigateur(t, 1400, 1100)
	executer(t, ctx, chromedp.Navigate(s.url+"/commission/"+p.partie+"?coup=1&appel=A1"))
	entrerJeton(t, ctx, e.commission)
	attendre(t, ctx, `!document.getElementById("form-composer").hidden`, e2eAttente, "the composition form")

	examiner(t, s, e.commission, "T", "A1", "rejete") // another screen composes and votes
	saisir(t, ctx, "form-composer", "president", "M4", "membres", "M5, M6")
	executer(t, ctx, chromedp.Click("#form-composer button", chromedp.ByQuery))
	confirmerDialogue(t, ctx, "oui")
	attendre(t, ctx, jsTexte("#appel-message", "recharger avant de recommencer")+` && document.getElementById("appel-message").classList.contains("erreur")`,
		e2eAttente, "the conflict, in French")
	attendre(t, ctx, `document.getElementById("form-composer").hidden && !document.getElementById("form-decider").hidden`, e2eAttente, "the recorded state")
	attendre(t, ctx, jsTexte("#niveaux", "MembresM1, M2, M3"), e2eAttente, "the commission composed elsewhere")
}

// Issue 31 (the consoles' screenshots at 1280×720): the commission's viewer
// scrolled sideways on a 1280×720 laptop, the engine's decision of each
// bulletin cut at the right edge. It fits the width at 1280 and 1920 pixels.
func TestE2ECommission_Issue31_SansDefilementHorizontal(t *testing.T) {
	salle := ouvrirSalle(t)
	for _, ecran := range []struct{ largeur, hauteur int }{{1280, 720}, {1920, 1080}} {
		ctx := navigateur(t, ecran.largeur, ecran.hauteur)
		executer(t, ctx, chromedp.Navigate(fmt.Sprintf("%s/commission/%s?coup=8", salle.public.url, e2ePartieSim)))
		entrerJeton(t, ctx, salle.commission)
		attendre(t, ctx, `!document.getElementById("contenu").hidden && document.querySelectorAll("#bulletins tr").length > 0`, e2eAttente, "the viewer")
		var mesure struct{ Page, Fenetre float64 }
		evaluer(t, ctx, `({ page: document.documentElement.scrollWidth, fenetre: window.innerWidth })`, &mesure)
		assert.LessOrEqual(t, mesure.Page, mesure.Fenetre, "%d×%d: no sideways scrolling", ecran.largeur, ecran.hauteur)
	}
}
