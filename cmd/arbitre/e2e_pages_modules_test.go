package main

import (
	"strings"
	"sync"
	"testing"

	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
)

// TestE2EPages_AucuneErreurJavaScript (issue 33 item 7): every hall page,
// served from the one shell with its ES module, loads and runs with no
// error in the browser's console. A module that fails to load (a file
// missing, a name imported that its file does not export, a wrong MIME
// type) stops the whole page without a word on it: the console is the one
// place that says so.
func TestE2EPages_AucuneErreurJavaScript(t *testing.T) {
	salle := ouvrirSalle(t)
	ouvrirClassique(t, salle.directeur)
	ctx := navigateur(t, 1400, 1000)

	var mu sync.Mutex
	var erreurs []string
	chromedp.ListenTarget(ctx, func(ev any) {
		var e string
		switch ev := ev.(type) {
		case *runtime.EventExceptionThrown:
			e = ev.ExceptionDetails.Text
			if ev.ExceptionDetails.Exception != nil {
				e += " " + ev.ExceptionDetails.Exception.Description
			}
		case *runtime.EventConsoleAPICalled:
			if ev.Type != runtime.APITypeError {
				return
			}
			for _, a := range ev.Args {
				e += " " + string(a.Value) + a.Description
			}
		case *cdplog.EventEntryAdded:
			if ev.Entry.Level != cdplog.LevelError {
				return
			}
			e = ev.Entry.Text + " " + ev.Entry.URL
		default:
			return
		}
		mu.Lock()
		defer mu.Unlock()
		erreurs = append(erreurs, strings.TrimSpace(e))
	})
	relever := func() []string {
		mu.Lock()
		defer mu.Unlock()
		r := erreurs
		erreurs = nil
		return r
	}

	// A page that does not become ready fails the wait: its console says why.
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("the browser's console: %q", relever())
		}
	})

	pages := []struct {
		chemin, jeton, pret string
	}{
		{"/affichage/" + e2ePartieLive, "", `document.querySelectorAll("#lignes tr").length > 0 && !!document.querySelector("svg.plateau")`},
		{"/affichage/classique/CL", "", `document.querySelectorAll("#tables tr").length === 2`},
		{"/classement/" + e2eTournoi, "", `document.querySelectorAll("#lignes tr").length > 0`},
		{"/commission/" + e2ePartieSim + "?coup=2", salle.commission, `!document.getElementById("contenu").hidden && !!document.querySelector("svg.plateau") && !document.getElementById("recours").hidden`},
		{"/commission?tournoi=" + e2eTournoi, salle.commission, `!document.getElementById("recours").hidden`},
		{"/directeur", salle.directeur.jeton, `document.querySelectorAll("#liste-tournois button").length > 0`},
		{"/directeur/partie/" + e2ePartieLive, salle.directeur.jeton, `document.body.dataset.statut === "attente_tirage"`},
		{"/arbitre/partie/" + e2ePartieLive, salle.directeur.jeton, `document.body.dataset.pret === "1"`},
		{"/scores/" + e2ePartieSim, salle.directeur.jeton, `document.body.dataset.pret === "1"`},
		{"/directeur/classique/CL", salle.directeur.jeton, `document.querySelectorAll("#tables-publiees tr").length === 2`},
		{"/impression/classique/CL/feuilles", "", `document.body.dataset.pret === "1" && document.querySelectorAll(".feuille").length === 2`},
	}
	jeton := ""
	for _, p := range pages {
		if p.jeton != "" && p.jeton != jeton {
			executer(t, ctx, chromedp.Evaluate(`sessionStorage.clear()`, nil))
		}
		executer(t, ctx, chromedp.Navigate(salle.public.url+p.chemin))
		if p.jeton != "" && p.jeton != jeton {
			attendre(t, ctx, `!document.getElementById("connexion").hidden`, e2eAttente, p.chemin+": the token form")
			entrerJeton(t, ctx, p.jeton)
			jeton = p.jeton
		}
		attendre(t, ctx, p.pret, e2eAttente, p.chemin)
		assert.Empty(t, relever(), "%s: errors in the browser's console", p.chemin)
	}
}
