package main

// The word list on every page of a game (issue 31, DupliTop's extras).

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// TestE2EPages_LexiqueSurChaquePage: the lexicon a game is judged with was
// shown on the commission's page only. As DupliTop does, the hall display,
// the director's console and the arbiters' page now name it too, as the
// game recorded it at its creation (label, word count, checksum).
func TestE2EPages_LexiqueSurChaquePage(t *testing.T) {
	chromium(t)
	s, directeur, arbitre := salleT1(t, 2)
	attendreJetons(t, s, directeur, arbitre)
	api := e2eAPI{url: s.url, jeton: directeur}
	var p struct {
		CreerPartie struct{ Lexique *string } `json:"creerPartie"`
	}
	api.exiger(t, `mutation { creerPartie(tournoi:"T1", partie:"T1-1", config:{source: logiciel, graine: 7}) { lexique } }`, nil, &p)
	require.NotNil(t, p.CreerPartie.Lexique)
	attendu := "lexique " + *p.CreerPartie.Lexique
	require.Contains(t, attendu, " mots, somme ")
	require.Contains(t, attendu, "ce n'est pas l'ODS", "the shipped list's label in French (issue 31)")

	ctx := navigateur(t, 1400, 1000)
	executer(t, ctx, chromedp.Navigate(s.url+"/affichage/T1-1"))
	attendre(t, ctx, jsTexte("#lexique", attendu), e2eAttente, "the lexicon on the hall display")
	executer(t, ctx, chromedp.Navigate(s.url+"/directeur/partie/T1-1"))
	entrerJeton(t, ctx, directeur)
	attendre(t, ctx, jsTexte("#lexique", attendu), e2eAttente, "the lexicon on the director's console")
	executer(t, ctx, chromedp.Evaluate(`sessionStorage.clear()`, nil), chromedp.Navigate(s.url+"/arbitre/partie/T1-1"))
	entrerJeton(t, ctx, arbitre)
	attendre(t, ctx, jsTexte("#lexique", attendu), e2eAttente, "the lexicon on the arbiters' page")
}
