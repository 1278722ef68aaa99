package main

// Classique: the new cotes on the pages once the tournament is closed
// (issue 31 item 8).

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestE2ETD_CotesAvantApresALaCloture: after « Clore le tournoi » (« Les
// cotes seront calculées ») the console, the printed final standings and
// the hall display kept the starting cotes; only the archive export had
// the new ones. Each now shows, once the cotes are computed, the cote
// before → after and the change, as the archive has them.
func TestE2ETD_CotesAvantApresALaCloture(t *testing.T) {
	c := ouvrirConsoleTD(t)
	d := c.directeur
	d.exiger(t, `mutation { ouvrirTournoiClassique(id:"TD", nom:"Open de Vichy", rondes: 1) { id } }`, nil, nil)
	d.exiger(t, `mutation { inscrireClassiqueLot(tournoi:"TD", joueurs:[{joueur:"L1", nom:"Ana", cote:1500}, {joueur:"L2", nom:"Bea", cote:1400},
		{joueur:"L3", nom:"Cid", cote:1300}, {joueur:"L4", nom:"Dan", cote:1200}]) { id } }`, nil, nil)
	d.exiger(t, `mutation { etablirTetesDeSerie(tournoi:"TD") { id } }`, nil, nil)
	d.exiger(t, `mutation { proposerRonde(tournoi:"TD", methode: initial_by_cote) { id } }`, nil, nil)
	var pub struct {
		PublierRonde struct {
			Publiees []struct{ Tables []struct{ Match string } }
		} `json:"publierRonde"`
	}
	d.exiger(t, `mutation { publierRonde(tournoi:"TD") { publiees { tables { match } } } }`, nil, &pub)
	for i, tb := range pub.PublierRonde.Publiees[0].Tables {
		d.exiger(t, `mutation($m: ID!, $s: [Int!]) { saisirResultatClassique(tournoi:"TD", match:$m, scores:$s) { id } }`,
			map[string]any{"m": tb.Match, "s": []int{380 + 40*i, 420 - 40*i}}, nil)
	}

	ctx := navigateur(t, 1400, 1000)
	ouvrirConsole(t, ctx, d, "TD")
	attendre(t, ctx, `!document.getElementById("cloture").hidden`, e2eAttente, "the closing")
	executer(t, ctx, chromedp.Click("#clore", chromedp.ByID))
	confirmerDialogue(t, ctx, "oui")
	attendre(t, ctx, jsTexte("#etape", "Tournoi clos — cotes calculées"), e2eAttente, "the cotes computed, said on the console")

	// The cotes the archive has: joueur(id).cotes.
	attendues := map[string]string{}
	for _, l := range []string{"L1", "L2", "L3", "L4"} {
		var j struct {
			Joueur struct {
				Cotes []struct {
					Tournoi      string
					Avant, Apres int
				}
			} `json:"joueur"`
		}
		var lecture derniereErreur
		require.Eventually(t, func() bool {
			return lecture.ok(d.obtenir(t, `query($j: ID!) { joueur(id:$j) { cotes { tournoi avant apres } } }`, map[string]any{"j": l}, &j)) &&
				len(j.Joueur.Cotes) > 0
		}, e2eAttente, 50*time.Millisecond, "%s rated in the archive (%s)", l, &lecture)
		cote := j.Joueur.Cotes[len(j.Joueur.Cotes)-1]
		require.Equal(t, "TD", cote.Tournoi)
		ecart := fmt.Sprintf("+%d", cote.Apres-cote.Avant)
		if cote.Apres < cote.Avant {
			ecart = fmt.Sprintf("−%d", cote.Avant-cote.Apres)
		} else if cote.Apres == cote.Avant {
			ecart = "±0"
		}
		attendues[l] = fmt.Sprintf("%d → %d (%s)", cote.Avant, cote.Apres, ecart)
	}
	require.NotEqual(t, attendues["L1"][:4], attendues["L1"][7:11], "the tournament changed L1's cote")

	// The console: the standings' cote column (licence in column 3).
	lire := func(ligne string, licence, cote int) map[string]string {
		var lignes [][]string
		evaluer(t, ctx, fmt.Sprintf(`[...document.querySelectorAll(%q)].map(tr => [tr.cells[%d].textContent, tr.cells[%d].textContent])`, ligne, licence, cote), &lignes)
		out := map[string]string{}
		for _, l := range lignes {
			out[l[0]] = l[1]
		}
		return out
	}
	assert.Equal(t, attendues, lire("#classement tr", 2, 7), "the console's standings")

	// The printed final standings.
	executer(t, ctx, chromedp.Navigate(d.url+"/impression/classique/TD/classement"))
	attendre(t, ctx, `document.body.dataset.pret === "1" && document.body.textContent.includes("→")`, e2eAttente, "the printed standings")
	assert.Equal(t, attendues, lire("#page tbody tr", 2, 7), "the printed final standings")

	// The hall display names players, not licences: by name.
	noms := map[string]string{"L1": "Ana", "L2": "Bea", "L3": "Cid", "L4": "Dan"}
	parNom := map[string]string{}
	for l, c := range attendues {
		parNom[noms[l]] = c
	}
	executer(t, ctx, chromedp.Navigate(d.url+"/affichage/classique/TD"))
	attendre(t, ctx, `document.querySelectorAll("#lignes tr").length === 4 && document.getElementById("lignes").textContent.includes("→")`, e2eAttente, "the display's standings")
	assert.Equal(t, parNom, lire("#lignes tr", 1, 4), "the hall display")
}
