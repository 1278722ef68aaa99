package main

// The guards of the coup's sequence on the director's console (issue 31
// item 11): what DupliTop asks before an action a director may regret.

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// questionOuverte waits for the confirmation dialog and returns its question.
func questionOuverte(t *testing.T, ctx context.Context) string {
	t.Helper()
	attendre(t, ctx, `(document.getElementById("confirmation") || {}).open === true`, e2eAttente, "the confirmation dialog")
	var q string
	evaluer(t, ctx, `document.getElementById("confirmation-question").textContent`, &q)
	return q
}

// terminerPartieParLAPI plays the game to its end over the API, from
// between two coups: the first admissible top of each tirage, or the coup
// annulled for want of one (§3.6), until the game ends (§3.7).
func terminerPartieParLAPI(t *testing.T, api e2eAPI, partie string) {
	t.Helper()
	vars := map[string]any{"p": partie}
	// statut runs a document of one root field answering the game's state.
	statut := func(doc string, vars map[string]any) string {
		var d map[string]struct{ Statut string }
		api.exiger(t, doc, vars, &d)
		for _, v := range d {
			return v.Statut
		}
		return ""
	}
	type solution struct {
		Mot, Reference string
		Admissible     bool
	}
	etat := statut(`query($p: ID!) { partie(id: $p) { statut } }`, vars)
	for coup := 0; etat != "terminee"; coup++ {
		require.Less(t, coup, 60, "the game ends")
		if etat = statut(`mutation($p: ID!) { tirer(partie: $p) { statut } }`, vars); etat != "tirage" {
			continue
		}
		var s struct {
			Partie struct{ Solutions []solution } `json:"partie"`
		}
		api.exiger(t, `query($p: ID!) { partie(id: $p) { solutions { mot reference admissible } } }`, vars, &s)
		i := slices.IndexFunc(s.Partie.Solutions, func(sol solution) bool { return sol.Admissible })
		if i < 0 {
			etat = statut(`mutation($p: ID!) { annulerCoup(partie: $p, motif: aucune_solution) { statut } }`, vars)
			continue
		}
		etat = statut(`mutation($p: ID!, $r: String!, $m: String!) { retenirTop(partie: $p, reference: $r, mot: $m) { statut } }`,
			map[string]any{"p": partie, "r": s.Partie.Solutions[i].Reference, "m": s.Partie.Solutions[i].Mot})
	}
}

// TestE2EDirecteur_GardesDeLaSequenceDuCoup (issue 31 item 11): the
// ramassage was confirmed with the same question whether the chrono had
// 6 s left or was never started; « Tirer » drew the next coup while tables
// still missed bulletins, and closing the results asked to tick a box
// without saying which bulletins. The console now says it before each: the
// chrono not started or the time left (§3.3), the bulletins still awaited
// before the next tirage, table by table and by name (the arbiters type
// and correct a coup's bulletins after its top, guide §3.2), and at the
// closing every bulletin that will count as missing (§5.7).
func TestE2EDirecteur_GardesDeLaSequenceDuCoup(t *testing.T) {
	s, jeton := serveurDuDirecteur(t)
	api := e2eAPI{url: s.url, jeton: jeton}
	inscrireJoueursT1(t, s, jeton, 3)
	api.exiger(t, `mutation { creerPartie(tournoi:"T1", partie:"T1-1", config:{source: logiciel, graine: 3}) { id } }`, nil, nil)
	ctx := navigateur(t, 1400, 1100)
	executer(t, ctx, chromedp.Navigate(s.url+"/directeur/partie/T1-1"))
	entrerJeton(t, ctx, jeton)
	statutConsole(t, ctx, "attente_tirage")

	// Coup 1: the ramassage asked before the chrono started, then with time left.
	executer(t, ctx, chromedp.Click("#tirer", chromedp.ByID))
	statutConsole(t, ctx, "tirage")
	executer(t, ctx, chromedp.Click("#ramasser", chromedp.ByID))
	assert.Equal(t, "Le chrono du coup 1 n'a pas été lancé. Ramasser les bulletins du coup 1 ?", questionOuverte(t, ctx))
	confirmerDialogue(t, ctx, "non")
	executer(t, ctx, chromedp.Click("#chrono-demarrer", chromedp.ByID))
	etatChrono(t, ctx, "en_cours")
	executer(t, ctx, chromedp.Click("#ramasser", chromedp.ByID))
	assert.Regexp(t, regexp.MustCompile(`^Il reste (\d+ s|\d+ min \d\d s) au chrono\. Ramasser les bulletins du coup 1 \?$`), questionOuverte(t, ctx))
	confirmerDialogue(t, ctx, "non")
	retenirPremierTop(t, api, "T1-1")
	statutConsole(t, ctx, "top")
	executer(t, ctx, chromedp.Click("#ramasser", chromedp.ByID))
	assert.Equal(t, "Ramasser les bulletins du coup 1 ?", questionOuverte(t, ctx), "the time over: nothing to add")
	confirmerDialogue(t, ctx, "oui")
	attendre(t, ctx, jsTexte("#message", "Bulletins ramassés."), e2eAttente, "the ramassage")

	// Coup 2 asked while coup 1 misses L2's and L3's bulletins (L1's is
	// entered and corrected): said, table by table; refused, nothing drawn.
	bulletin := func(licence string) {
		vars := map[string]any{"l": licence}
		api.exiger(t, `mutation($l: ID!) { deposerBulletin(partie:"T1-1", coup:1, licence:$l, bulletin:{blank:true}) { licence } }`, vars, nil)
		api.exiger(t, `mutation($l: ID!) { corrigerBulletin(partie:"T1-1", coup:1, licence:$l) { licence } }`, vars, nil)
	}
	bulletin("L1")
	executer(t, ctx, chromedp.Click("#tirer", chromedp.ByID))
	assert.Equal(t, "2 bulletin(s) manquant(s) ou non corrigé(s) — coup 1 : 1 à la table 2 (Joueur 2, L2), 1 à la table 3 (Joueur 3, L3). Tirer quand même le coup 2 ?",
		questionOuverte(t, ctx))
	confirmerDialogue(t, ctx, "non")
	statutConsole(t, ctx, "top")
	// Every bulletin in: drawn at once.
	bulletin("L2")
	bulletin("L3")
	executer(t, ctx, chromedp.Click("#tirer", chromedp.ByID))
	statutConsole(t, ctx, "tirage")
	retenirPremierTop(t, api, "T1-1")
	statutConsole(t, ctx, "top")

	// Coup 3 asked with coup 2's bulletins missing, and drawn once confirmed.
	executer(t, ctx, chromedp.Click("#tirer", chromedp.ByID))
	confirmerAction(t, ctx, "3 bulletin(s) manquant(s) ou non corrigé(s) — coup 2 : 1 à la table 1 (Joueur 1, L1), 1 à la table 2 (Joueur 2, L2), 1 à la table 3 (Joueur 3, L3). Tirer quand même le coup 3 ?")
	statutConsole(t, ctx, "tirage")

	// The end: the closing names every bulletin still awaited.
	retenirPremierTop(t, api, "T1-1")
	terminerPartieParLAPI(t, api, "T1-1")
	statutConsole(t, ctx, "terminee")
	var attente struct {
		BulletinsEnAttente []struct {
			Coup         int
			Licence, Nom string
			Table        int
		} `json:"bulletinsEnAttente"`
	}
	api.exiger(t, `{ bulletinsEnAttente(partie:"T1-1") { coup licence nom table } }`, nil, &attente)
	require.NotEmpty(t, attente.BulletinsEnAttente)
	assert.Equal(t, struct {
		Coup         int
		Licence, Nom string
		Table        int
	}{2, "L1", "Joueur 1", 1}, attente.BulletinsEnAttente[0])
	executer(t, ctx, chromedp.Click("#clore", chromedp.ByID))
	q := questionOuverte(t, ctx)
	assert.Contains(t, q, fmt.Sprintf("%d bulletin(s) manquant(s) ou non corrigé(s) — coup 2 : 1 à la table 1 (Joueur 1, L1), 1 à la table 2 (Joueur 2, L2), 1 à la table 3 (Joueur 3, L3) ; coup 3 : ",
		len(attente.BulletinsEnAttente)))
	assert.Contains(t, q, ". Clore les résultats quand même ? Chacun compte comme bulletin manquant, un zéro (§5.7)")
	confirmerDialogue(t, ctx, "oui")
	attendre(t, ctx, `document.body.dataset.resultatsClos === "true"`, e2eAttente, "the results closed")
	api.exiger(t, `{ bulletinsEnAttente(partie:"T1-1") { coup } }`, nil, &attente)
	assert.Empty(t, attente.BulletinsEnAttente, "every one counted missing")
}
