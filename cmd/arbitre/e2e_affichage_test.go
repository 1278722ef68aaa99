package main

// End-to-end tests of the hall display of a duplicate game
// (/affichage/<partie>) as the players read it, in headless Chromium against
// the real server (see e2e_pages_test.go for the helpers).

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/eventstore/eventstoretest"
)

// retenirPremierTop announces the engine's first admissible top of the
// tirage on the stand through the API and returns the reliquat it leaves
// (Partie.tirage between coups, alphabetical).
func retenirPremierTop(t *testing.T, api e2eAPI, partie string) string {
	t.Helper()
	mot, ref := api.premierTopAdmissible(t, partie)
	var r struct {
		RetenirTop struct{ Tirage string } `json:"retenirTop"`
	}
	api.exiger(t, `mutation($p: ID!, $r: String!, $m: String!) { retenirTop(partie: $p, reference: $r, mot: $m) { tirage } }`,
		map[string]any{"p": partie, "r": ref, "m": mot}, &r)
	return r.RetenirTop.Tirage
}

// voyelles counts the vowels of letters (Y and the joker apart).
func voyelles(lettres string) int {
	n := 0
	for _, l := range lettres {
		if strings.ContainsRune("AEIOU", l) {
			n++
		}
	}
	return n
}

// completer chooses n new letters that make a valid tirage with reliquat
// before the 16th coup (§3.2: two vowels and two consonants at least).
func completer(reliquat string, n int) string {
	v, c := voyelles(reliquat), len(reliquat)-voyelles(reliquat)
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		if v < 2 || (c >= 2 && i%2 == 0) {
			b.WriteByte("EOAIU"[i%5])
			v++
		} else {
			b.WriteByte("LNTSR"[i%5])
			c++
		}
	}
	return b.String()
}

// TestE2EAffichage_Paragraphe3_1_TirageRejetEtEtatDuCoup: the players read
// the rack from the hall screen. After each tirage the display shows it
// large, the reliquat apart from the new letters (§3.1), the rejet when
// there is one with its reason (§3.2), and where the coup stands: tirage,
// chrono running, temps écoulé, top.
func TestE2EAffichage_Paragraphe3_1_TirageRejetEtEtatDuCoup(t *testing.T) {
	chromium(t)
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	h := eventstoretest.NewManualClock(time.Now().UTC().Truncate(time.Second))
	s := startAPIServerHorloge(t, data, h)
	defer s.stop()
	attendreJetons(t, s, director)
	api := e2eAPI{url: s.url, jeton: director}
	inscrireJoueursT1(t, s, director, 2)
	api.exiger(t, `mutation { creerPartie(tournoi:"T1", partie:"T1-1", config:{source: directeur, tempsParCoupSecondes: 120}) { id } }`, nil, nil)
	tirer := func(lettres string) {
		t.Helper()
		api.exiger(t, `mutation($l: String) { tirer(partie:"T1-1", lettres:$l) { version } }`, map[string]any{"l": lettres}, nil)
	}

	ctx := navigateur(t, 1920, 1080)
	executer(t, ctx, chromedp.Navigate(s.url+"/affichage/T1-1"))
	attendre(t, ctx, jsTexte("#etat", "en direct"), e2eAttente, "the live state")
	attendre(t, ctx, jsTexte("#etat-coup", "En attente du tirage"), e2eAttente, "the wait for the tirage")
	annonce := func(reliquat, nouvelles, etat, quoi string) {
		t.Helper()
		attendre(t, ctx, fmt.Sprintf(`(() => { const t = document.getElementById("tirage");
			return t.dataset.reliquat === %q && t.dataset.nouvelles === %q && %s; })()`, reliquat, nouvelles, jsTexte("#etat-coup", etat)),
			e2eAttente, quoi)
		var lu struct{ Reliquat, Nouvelles string }
		evaluer(t, ctx, `({ reliquat: [...document.querySelectorAll("#tirage .reliquat .tuile")].map(e => e.textContent).join(""),
			nouvelles: [...document.querySelectorAll("#tirage .nouvelles .tuile")].map(e => e.textContent).join("") })`, &lu)
		assert.Equal(t, reliquat, lu.Reliquat, "%s: the reliquat's tiles", quoi)
		assert.Equal(t, nouvelles, lu.Nouvelles, "%s: the new letters' tiles, in order of extraction", quoi)
	}

	// Coup 1: the new letters in order of extraction, large; then the
	// chrono running and over, then the top.
	tirer("BCDFGAE")
	annonce("", "BCDFGAE", "Tirage", "coup 1's tirage")
	var hauteur float64
	evaluer(t, ctx, `document.querySelector("#tirage .tuile").getBoundingClientRect().height / innerHeight`, &hauteur)
	assert.GreaterOrEqual(t, hauteur, 0.07, "the tirage is read from the back of the hall: each letter at least 7%% of the screen's height")
	api.exiger(t, `mutation { demarrerChrono(partie:"T1-1") { version } }`, nil, nil)
	attendre(t, ctx, jsTexte("#etat-coup", "Chrono en cours"), e2eAttente, "the chrono running")
	h.Advance(130 * time.Second)
	api.exiger(t, `mutation { inscrireJoueur(tournoi:"T1", joueur:{licence:"L9", nom:"Joueur 9", table:9}) { version } }`, nil, nil)
	api.exiger(t, `mutation { arriveeEnRetard(partie:"T1-1", licence:"L9") { version } }`, nil, nil)
	attendre(t, ctx, jsTexte("#etat-coup", "Temps écoulé"), e2eAttente, "the time over")
	reliquat := retenirPremierTop(t, api, "T1-1")
	attendre(t, ctx, jsTexte("#etat-coup", "Top annoncé"), e2eAttente, "the top")
	require.NotEmpty(t, reliquat, "coup 1 leaves a reliquat")
	require.LessOrEqual(t, voyelles(reliquat), 1, "coup 1's top uses a vowel of two")

	// Coup 2: consonants only: a rejet (§3.2), shown with the reliquat
	// apart and its reason, then the next tirage with the rejet still said.
	consonnes := "LMNRSTP"[:7-len(reliquat)]
	tirer(consonnes)
	attendre(t, ctx, jsTexte("#etat-coup", "Rejet — nouveau tirage"), e2eAttente, "the rejet")
	rejet := fmt.Sprintf("Rejet : %s + %s — pas assez de voyelles ou de consonnes (§3.2)", reliquat, consonnes)
	attendre(t, ctx, jsTexte("#rejet", rejet), e2eAttente, rejet)
	tirer("EAIKSTW")
	annonce("", "EAIKSTW", "Tirage", "coup 2's tirage after the rejet")
	attendre(t, ctx, jsTexte("#rejet", rejet), e2eAttente, "the rejet with the tirage that follows it")
	reliquat = retenirPremierTop(t, api, "T1-1")
	require.NotEmpty(t, reliquat, "coup 2 leaves a reliquat")
	attendre(t, ctx, `document.getElementById("rejet").hidden`, e2eAttente, "no rejet once the top is announced")

	// Coup 3: the reliquat apart from the new letters (§3.1).
	nouvelles := completer(reliquat, 7-len(reliquat))
	tirer(nouvelles)
	annonce(reliquat, nouvelles, "Tirage", "coup 3's reliquat and new letters")
	assert.False(t, strings.Contains(textePage(ctx), "undefined"))
}

// TestE2EAffichage_Ecran16x9SansDefilement: the hall display fits any 16:9
// screen from 1280×720 to 3840×2160 without scrolling: the board whole, the
// tirage and every row of the standings' page in view, even when the top's
// line wraps.
func TestE2EAffichage_Ecran16x9SansDefilement(t *testing.T) {
	salle := ouvrirSalle(t)
	salle.directeur.jouerCoup(t, e2ePartieLive)
	salle.directeur.exiger(t, `mutation($p: ID!) { tirer(partie: $p) { version } }`, map[string]any{"p": e2ePartieLive}, nil)
	for _, taille := range [][2]int{{1280, 720}, {1920, 1080}, {3840, 2160}} {
		t.Run(fmt.Sprintf("%d×%d", taille[0], taille[1]), func(t *testing.T) {
			ctx := navigateur(t, taille[0], taille[1])
			executer(t, ctx, chromedp.Navigate(salle.public.url+"/affichage/"+e2ePartieLive))
			attendre(t, ctx, `document.querySelectorAll("#lignes tr").length === 15 && !!document.querySelector("svg.plateau")`,
				e2eAttente, "the display")
			for _, cas := range []struct{ nom, js string }{
				{"as shown", ``},
				{"the top's line wrapping", `document.getElementById("top").textContent = "Top du coup 12 : " + "ANTICONSTITUTIONNELLEMENT ".repeat(3);`},
			} {
				var hors []string
				evaluer(t, ctx, cas.js+`(() => {
					const out = [], w = innerWidth, h = innerHeight, el = document.scrollingElement;
					if (el.scrollHeight > h) out.push("the page scrolls down: " + el.scrollHeight + " > " + h);
					if (el.scrollWidth > w) out.push("the page scrolls sideways: " + el.scrollWidth + " > " + w);
					const parts = { "the board": "svg.plateau", "the top": "#top", "the tirage": "#tirage", "the chrono": "#chrono",
						"the last row of standings": "#lignes tr:last-child", "the page number": "#page" };
					for (const [nom, sel] of Object.entries(parts)) {
						const e = document.querySelector(sel);
						if (!e) {
							out.push(nom + " is missing");
							continue;
						}
						const r = e.getBoundingClientRect();
						if (r.top < 0 || r.left < 0 || r.bottom > h + 0.5 || r.right > w + 0.5) {
							out.push(nom + " is cut off: " + JSON.stringify([r.left, r.top, r.right, r.bottom]) + " in " + w + "×" + h);
						}
					}
					const b = document.querySelector("svg.plateau").getBoundingClientRect();
					if (b.height < 0.6 * h) out.push("the board is small: " + b.height + " of " + h);
					for (const sel of ["#top", "#tirage", "table.classement"]) {
						const r = document.querySelector(sel).getBoundingClientRect();
						if (r.left < b.right && r.right > b.left && r.top < b.bottom && r.bottom > b.top) out.push(sel + " covers the board");
					}
					return out; })()`, &hors)
				assert.Empty(t, hors, cas.nom)
			}
		})
	}
}
