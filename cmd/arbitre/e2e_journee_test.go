package main

// ISSUE 29, « DONE MEANS »: one whole duplicate game through the pages, in
// the order a hall works, with a solo, an average, a billet handed back and
// an appeal in the break, ending with standings equal to a hand
// computation.

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// jtJoueurs are the game's four players, two per table, under one arbiter
// (tables 1-2).
var jtJoueurs = []map[string]any{
	{"licence": "L1", "nom": "Ana Martin", "club": "Vichy", "table": 1},
	{"licence": "L2", "nom": "Bruno Petit", "club": "Vichy", "table": 1},
	{"licence": "L3", "nom": "Carole Roux", "club": "Paris", "table": 2},
	{"licence": "L4", "nom": "Denis Faure", "club": "Paris", "table": 2},
}

// jtBulletins are the bulletins that are not the top, by coup: on coup 1,
// L1 and L2 write the same non-admitted word (« mot », a zéro) and L4 hands
// in a blank, so L3 alone finds the top (a solo, §3.5); on coup 2, L1 and
// L2 write that word again, L1 after his billet was handed back (a zéro),
// L2 without it (the average, §5.9), L4 a blank again (L3's second solo);
// on coup 3 L4 writes a wrong score (an
// avertissement, §5.5, none free in this competition: 5 points); on coup 4
// L4's blank is appealed in the break. Every other bulletin is the top.
var jtBulletins = map[int]map[string]string{
	1: {"L1": "mot", "L2": "mot", "L4": "blanc"},
	2: {"L1": "mot", "L2": "mot", "L4": "blanc"},
	3: {"L4": "faux"},
	4: {"L4": "blanc"},
}

// jtSanctions are the sanctions the engine gives the bulletins of
// jtBulletins that bulletinPrevu does not script.
var jtSanctions = map[int]map[string]string{
	1: {"L1": "zero", "L2": "zero"},
	2: {"L1": "zero", "L2": "average"},
}

// jtPartie is the game and jtTournoi its tournament.
const (
	jtTournoi = "T1"
	jtPartie  = "T1-1"
)

// TestE2EJourneeDeTournoi_PartieEntiereParLesPages: a whole duplicate
// game through the pages, in the hall's order (guide §3.2). The tournament,
// its players, its two games (§6.3) and the game's settings (a test seed,
// no free avertissement, a solo bonus from 4 players) are set up through
// the API; from then on every coup is played on the director's console —
// tirage (§3.1), chrono (§3.3), ramassage (guide §2.13), top (§3.4) — and
// its bulletins typed and corrected on the arbiter's page after the top,
// the last coup's after the top that ended the game (§3.7), before the
// director closes the results on his console. The script holds a solo
// (§3.5: on the director's console at once, on the public standings only
// at the end), an average and a billet handed back on the page that ends
// it (§5.9), an avertissement beyond the free ones (§5.9), and an appeal
// filed and decided on the commission's page in the break before game 2
// (§6.3). The final standings
// printed for the hall equal the hand computation: per player, the scores
// decided coup by coup (the appeal's in force), 10 points a solo, 5 an
// avertissement.
func TestE2EJourneeDeTournoi_PartieEntiereParLesPages(t *testing.T) {
	s, directeur := serveurDuDirecteur(t)
	arbitre := apiToken(t, s.data, "--role", "arbiter", "--tables", "1-2", "--tournoi", jtTournoi)
	commission := apiToken(t, s.data, "--role", "commission", "--tournoi", jtTournoi)
	attendreJetons(t, s, arbitre, commission)
	api := e2eAPI{url: s.url, jeton: directeur}
	api.exiger(t, `mutation { creerTournoi(id:"`+jtTournoi+`", nom:"Open de Vichy", homologue: false) { id } }`, nil, nil)
	api.exiger(t, `mutation($j: [JoueurInput!]!) { inscrireJoueurs(tournoi:"`+jtTournoi+`", joueurs:$j) { version } }`, map[string]any{"j": jtJoueurs}, nil)
	api.exiger(t, `mutation { fixerNombreParties(tournoi:"`+jtTournoi+`", nombre: 2) { nombreParties } }`, nil, nil)
	api.exiger(t, `mutation($g: Int!) { creerPartie(tournoi:"`+jtTournoi+`", partie:"`+jtPartie+`",
		config:{source: logiciel, graine:$g, tempsParCoupSecondes:120, avertissementsGratuits: 0, seuilSolo: 4}) { id } }`, map[string]any{"g": e2eGraine}, nil)

	ctxD := navigateur(t, 1400, 1100)
	ctxA := contexteSepare(t, ctxD, 1400, 1000)
	ctxP := contexteSepare(t, ctxD, 1400, 1000) // the hall's printed standings, then the commission
	executer(t, ctxD, chromedp.Navigate(s.url+"/directeur/partie/"+jtPartie))
	entrerJeton(t, ctxD, directeur)
	statutConsole(t, ctxD, "attente_tirage")
	executer(t, ctxA, chromedp.Navigate(s.url+"/arbitre/partie/"+jtPartie))
	entrerJeton(t, ctxA, arbitre)
	attendre(t, ctxA, `document.body.dataset.pret === "1" && document.querySelectorAll("#bulletins tr").length === 4`, e2eAttente, "the players of the arbiter's tables")

	// The hand computation: what each player is paid per coup, his solos
	// and avertissements.
	paye := map[string]map[int]int{}
	solos, avertissements := map[string]int{}, map[string]int{}
	var mot, ref string // the non-admitted word of coups 1 and 2
	salle := moyenneSalle{t: t, s: s, directeur: directeur, partie: jtPartie,
		arbitres: map[string]string{"L1": arbitre, "L2": arbitre, "L3": arbitre, "L4": arbitre}}
	var tops []e2eTop
	for n := 1; ; n++ {
		require.Less(t, n, 60, "the game ends")
		require.True(t, tirerALaConsole(t, ctxD), "the game ends with a top")
		var coup int
		evaluer(t, ctxD, `parseInt(document.body.dataset.coup, 10)`, &coup)
		executer(t, ctxD, chromedp.Click("#chrono-demarrer", chromedp.ByID))
		etatChrono(t, ctxD, "en_cours")
		top, ok := premierTopAdmissible(t, ctxD)
		if !ok {
			require.NotContains(t, jtBulletins, coup, "coup %d of the script has a top", coup)
			continue
		}
		top = ramasserEtAnnoncer(t, ctxD, s.url, jtPartie, coup, top)
		tops = append(tops, top)
		if coup == 1 {
			var p struct{ Tirage string }
			salle.exiger(directeur, `{ partie(id:"`+jtPartie+`") { tirage } }`, nil).into(t, "partie", &p)
			mot, ref, _ = salle.motAllonge("L1", p.Tirage, top)
			t.Logf("coup 1: tirage %s, top %s %s; %s %s is not admitted", p.Tirage, top.Mot, top.Reference, mot, ref)
		}

		// The arbiter types the coup's bulletins after its top.
		attendre(t, ctxA, jsTexte("#top", fmt.Sprintf("Top : %s en %s", top.Mot, top.Reference))+
			fmt.Sprintf(` && document.getElementById("coup").value === "%d"`, coup), e2eAttente, "the coup's top on the entry page")
		for _, j := range jtJoueurs {
			l := j["licence"].(string)
			genre := jtBulletins[coup][l]
			b := bulletinPrevu(l, genre, top)
			if genre == "mot" {
				b = pcBulletin{page: saisie{joueur: l, mot: mot, ref: ref, score: "1"}, sanction: jtSanctions[coup][l]}
			}
			taper(t, ctxA, b.page)
			attendre(t, ctxA, fmt.Sprintf(`document.getElementById("joueur-choisi").dataset.licence === %q && document.getElementById("decision-moteur").dataset.sanction === %q`,
				l, b.sanction), e2eAttente, fmt.Sprintf("coup %d, %s: the engine's decision %s", coup, l, b.sanction))
			valider(t, ctxA)
			if paye[l] == nil {
				paye[l] = map[int]int{}
			}
			switch b.sanction {
			case "none":
				paye[l][coup] = top.Score
			case "warning":
				paye[l][coup] = top.Score
				avertissements[l]++
			}
		}
		attendre(t, ctxA, `document.getElementById("attente").dataset.n === "0" && document.querySelectorAll("#bulletins tr[data-etat=corrige]").length === 4`,
			e2eAttente, "the four bulletins corrected, nothing waiting")

		switch coup {
		case 1:
			// §5.9: L1's billet handed back from his row on the page.
			const bouton = `#bulletins tr[data-licence="L1"] button.billet`
			executer(t, ctxA, chromedp.Click(bouton, chromedp.ByQuery))
			attendre(t, ctxA, `document.getElementById("attente").dataset.n === "0" && document.querySelector('`+bouton+`') === null`, e2eAttente, "the billet handed")
			// §3.5: L3's solo is the director's to see at once, not on the
			// hall's standings yet.
			attendre(t, ctxD, fmt.Sprintf(`(() => { const tr = document.querySelector('#classement-directeur tr[data-licence="L3"]');
				return !!tr && tr.cells[3].textContent === "%d" && tr.cells[4].textContent === "1"; })()`, top.Score+10), e2eAttente, "L3's solo on the director's console")
			executer(t, ctxP, chromedp.Navigate(s.url+"/classement/"+jtTournoi+"?partie="+jtPartie))
			attendre(t, ctxP, fmt.Sprintf(`[...document.querySelectorAll("#lignes tr")].some((tr) => tr.cells[2].textContent === "L3" && tr.cells[5].textContent === "%d")`, top.Score),
				e2eAttente, "L3's top without the solo's bonus on the printed standings")
			solos["L3"]++
		case 2:
			// §5.9: the average of the other players of L2's arbiter (L1's
			// and L4's zéros, L3's top), rounded; the value of his solution,
			// its cap, is above it here.
			paye["L2"][coup] = (top.Score + 1) / 3
			solos["L3"]++
		}
		var statut string
		evaluer(t, ctxD, `document.body.dataset.statut`, &statut)
		if statut == "terminee" {
			break
		}
	}
	attendre(t, ctxD, jsTexte("#fin", "Partie terminée (§3.7)"), e2eAttente, "the end of the game on the console")
	executer(t, ctxD, chromedp.Click("#clore", chromedp.ByID))
	confirmerAction(t, ctxD, "Clore les résultats ?")
	attendre(t, ctxD, `document.body.dataset.resultatsClos === "true"`, e2eAttente, "the results closed")

	// §6.3: in the break before game 2, L4 appeals his blank of coup 4;
	// the commission upholds it, L4 is paid the top.
	require.Equal(t, 4, tops[3].Coup, "no coup annulled before coup 4")
	executer(t, ctxP, chromedp.Navigate(s.url+"/commission/"+jtPartie+"?coup=4"))
	entrerJeton(t, ctxP, commission)
	attendre(t, ctxP, `!document.getElementById("recours").hidden`, e2eAttente, "the appeals")
	faireAppelALaCommission(t, ctxP, 4, "L4", tops[3].Score, "Mon bulletin portait le top, mal lu.")
	deciderALaCommission(t, ctxP, []string{"accueilli", "accueilli", "rejete"}, "accueilli", "accueilli", "Le bulletin porte le top.")
	paye["L4"][4] = tops[3].Score

	attendu := map[string]int{}
	for _, j := range jtJoueurs {
		l := j["licence"].(string)
		for _, p := range paye[l] {
			attendu[l] += p
		}
		attendu[l] += 10*solos[l] - 5*avertissements[l]
	}
	t.Logf("%d coups; expected standings %v", len(tops), attendu)
	lire := func() map[string]int {
		var c struct {
			Classement []struct {
				Licence string
				Score   int
			}
		}
		api.exiger(t, `{ classement(partie:"`+jtPartie+`") { licence score } }`, nil, &c)
		out := map[string]int{}
		for _, l := range c.Classement {
			out[l.Licence] = l.Score
		}
		return out
	}
	require.Eventually(t, func() bool { return lire()["L4"] == attendu["L4"] }, e2eAttente, 50*time.Millisecond, "the appeal's decision in the standings")
	executer(t, ctxP, chromedp.Navigate(s.url+"/classement/"+jtTournoi+"?partie="+jtPartie))
	attendre(t, ctxP, `document.querySelectorAll("#lignes tr").length === 4`, e2eAttente, "the printed standings")
	assert.Equal(t, attendu, lignesImprimees(t, ctxP), "the final standings printed for the hall: the hand computation")
}

// lignesImprimees reads the printed standings' scores by licence.
func lignesImprimees(t *testing.T, ctx context.Context) map[string]int {
	t.Helper()
	var lignes [][]string
	evaluer(t, ctx, `[...document.querySelectorAll("#lignes tr")].map((tr) => [tr.cells[2].textContent, tr.cells[5].textContent])`, &lignes)
	out := map[string]int{}
	for _, l := range lignes {
		var score int
		_, err := fmt.Sscan(l[1], &score)
		require.NoError(t, err, l[1])
		out[l[0]] = score
	}
	return out
}
