package main

// ISSUE 29: what the director does on the game console beyond the coup
// itself — the pre-drawn sheet pasted (guide §2.17), the standings with the
// solos (§3.5), the eliminations undone (§3.8.3).

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// consoleDePartie opens the game console of partie, signed in.
func consoleDePartie(t *testing.T, s *apiServer, jeton, partie string) context.Context {
	t.Helper()
	ctx := navigateur(t, 1400, 1100)
	executer(t, ctx, chromedp.Navigate(s.url+"/directeur/partie/"+partie))
	entrerJeton(t, ctx, jeton)
	attendre(t, ctx, `!document.getElementById("contenu").hidden && document.body.dataset.statut !== undefined`, e2eAttente, "the game console")
	return ctx
}

// TestE2EGuide2_17_FeuillePretireeCollee: the director pastes the whole
// pre-drawn sheet on the console before the first tirage (guide §2.17): a
// sheet whose coups skip one is refused with the field named and nothing
// loaded; the good one is loaded once, the box goes away, and « Tirer »
// without letters draws the sheet's first line.
func TestE2EGuide2_17_FeuillePretireeCollee(t *testing.T) {
	feuille := feuillePretiree(t, 2)
	var texte strings.Builder
	for k, l := range feuille {
		fmt.Fprintf(&texte, "%d  %s+%s  %s %s %d\n", k+1, l.reliquat, l.tirees, l.ref, l.mot, l.score)
	}
	s, directeur := serveurDuDirecteur(t)
	inscrireJoueursT1(t, s, directeur, 2)
	api := e2eAPI{url: s.url, jeton: directeur}
	api.exiger(t, `mutation { creerPartie(tournoi:"T1", partie:"T1-1", config:{source: pretiree}) { id } }`, nil, nil)
	ctx := consoleDePartie(t, s, directeur, "T1-1")
	attendre(t, ctx, `!document.getElementById("bloc-feuille").hidden`, e2eAttente, "the sheet's box before the first tirage")

	executer(t, ctx, chromedp.SetValue("#feuille", "1 +ABCDEFG\n3 +HIJKLMN\n", chromedp.ByID), chromedp.Click("#charger-feuille", chromedp.ByID))
	confirmerAction(t, ctx, "Charger la feuille prétirée ?")
	attendre(t, ctx, jsTexte("#message", "« feuille »"), e2eAttente, "the bad sheet refused, its field named")
	var version struct {
		Partie struct{ Version int } `json:"partie"`
	}
	api.exiger(t, `{ partie(id:"T1-1") { version } }`, nil, &version)
	avant := version.Partie.Version

	executer(t, ctx, chromedp.SetValue("#feuille", texte.String(), chromedp.ByID), chromedp.Click("#charger-feuille", chromedp.ByID))
	confirmerAction(t, ctx, "Charger la feuille prétirée ?")
	attendre(t, ctx, jsTexte("#message", "Feuille prétirée chargée")+` && document.getElementById("bloc-feuille").hidden`, e2eAttente, "the sheet loaded")
	api.exiger(t, `{ partie(id:"T1-1") { version } }`, nil, &version)
	assert.Equal(t, avant+1, version.Partie.Version, "the bad sheet wrote nothing, the good one its event")

	require.True(t, tirerALaConsole(t, ctx))
	var nouvelles string
	evaluer(t, ctx, `[...document.querySelectorAll("#annonce-tirage .nouvelles .tuile")].map(e => e.textContent).join("")`, &nouvelles)
	assert.Equal(t, feuille[0].tirees, nouvelles, "the sheet's first line drawn, nothing typed")
}

// TestE2EArt3_5_SolosVusDuDirecteurALaConsole: « le ou les solos sont
// annoncés par le juge-arbitre en fin de partie » (§3.5): while the game is
// played, the console's standings show the director the solo and its
// bonus, which the public standings do not.
func TestE2EArt3_5_SolosVusDuDirecteurALaConsole(t *testing.T) {
	s, directeur := serveurDuDirecteur(t)
	inscrireJoueursT1(t, s, directeur, 4)
	api := e2eAPI{url: s.url, jeton: directeur}
	api.exiger(t, `mutation($g: Int!) { creerPartie(tournoi:"T1", partie:"T1-1", config:{source: logiciel, graine:$g, seuilSolo: 4}) { id } }`,
		map[string]any{"g": e2eGraine}, nil)
	ctx := consoleDePartie(t, s, directeur, "T1-1")
	statutConsole(t, ctx, "attente_tirage")
	require.True(t, tirerALaConsole(t, ctx))
	top, ok := premierTopAdmissible(t, ctx)
	require.True(t, ok)
	top = ramasserEtAnnoncer(t, ctx, s.url, "T1-1", 1, top)
	for i := 1; i <= 4; i++ {
		b := map[string]any{"blank": true}
		if i == 1 {
			b = map[string]any{"solutions": []any{map[string]any{"word": top.Mot, "ref": top.Reference, "score": top.Score}}}
		}
		v := map[string]any{"l": fmt.Sprintf("L%d", i), "b": b}
		api.exiger(t, `mutation($l: ID!, $b: BulletinInput!) { deposerBulletin(partie:"T1-1", coup:1, licence:$l, bulletin:$b) { licence } }`, v, nil)
		api.exiger(t, `mutation($l: ID!) { corrigerBulletin(partie:"T1-1", coup:1, licence:$l) { licence } }`, v, nil)
	}

	attendre(t, ctx, fmt.Sprintf(`(() => { const tr = document.querySelector('#classement-directeur tr[data-licence="L1"]');
		return !!tr && tr.cells[3].textContent === "%d" && tr.cells[4].textContent === "1" && tr.cells[5].textContent === "0"; })()`, top.Score+10),
		e2eAttente, "L1's solo and its bonus on the console")
	attendre(t, ctx, `!document.getElementById("classement-provisoire").hidden`, e2eAttente, "provisional standings")
	var public struct {
		Classement []struct {
			Licence      string
			Score, Solos int
		} `json:"classement"`
	}
	api.exiger(t, `{ classement(partie:"T1-1") { licence score solos } }`, nil, &public)
	for _, l := range public.Classement {
		if l.Licence == "L1" {
			assert.Equal(t, top.Score, l.Score, "the public sees no bonus")
			assert.Zero(t, l.Solos, "nor the solo")
		}
	}
}

// TestE2EArt3_8_3_AnnulerLesEliminationsALaConsole: in sudden death the
// director decides the coup's eliminations on the judged bulletins, then,
// an elimination decided in error, undoes them on the console with his
// reason (§3.8.3): refused without a reason, then the eliminated player is
// in again.
func TestE2EArt3_8_3_AnnulerLesEliminationsALaConsole(t *testing.T) {
	s, directeur := serveurDuDirecteur(t)
	inscrireJoueursT1(t, s, directeur, 3)
	api := e2eAPI{url: s.url, jeton: directeur}
	api.exiger(t, `mutation { creerPartie(tournoi:"T1", partie:"T1-1", config:{source: logiciel, graine: 8, mode: mort_subite}) { id } }`, nil, nil)
	ctx := consoleDePartie(t, s, directeur, "T1-1")
	attendre(t, ctx, `!document.getElementById("bloc-eliminer").hidden`, e2eAttente, "the eliminations' block in sudden death")
	require.True(t, tirerALaConsole(t, ctx))
	top, ok := premierTopAdmissible(t, ctx)
	require.True(t, ok)
	top = ramasserEtAnnoncer(t, ctx, s.url, "T1-1", 1, top)
	for i := 1; i <= 3; i++ {
		b := map[string]any{"solutions": []any{map[string]any{"word": top.Mot, "ref": top.Reference, "score": top.Score}}}
		if i == 2 {
			b = map[string]any{"blank": true}
		}
		v := map[string]any{"l": fmt.Sprintf("L%d", i), "b": b}
		api.exiger(t, `mutation($l: ID!, $b: BulletinInput!) { deposerBulletin(partie:"T1-1", coup:1, licence:$l, bulletin:$b) { licence } }`, v, nil)
		api.exiger(t, `mutation($l: ID!) { corrigerBulletin(partie:"T1-1", coup:1, licence:$l) { licence } }`, v, nil)
	}
	joueurs := func() []string {
		var p struct {
			Partie struct{ Joueurs []string } `json:"partie"`
		}
		api.exiger(t, `{ partie(id:"T1-1") { joueurs } }`, nil, &p)
		return p.Partie.Joueurs
	}

	executer(t, ctx, chromedp.Click("#eliminer", chromedp.ByID))
	confirmerAction(t, ctx, "Décider les éliminations du coup 1")
	attendre(t, ctx, jsTexte("#message", "Éliminations décidées."), e2eAttente, "the eliminations")
	require.Equal(t, []string{"L1", "L3"}, joueurs(), "L2's blank is below the top")

	executer(t, ctx, chromedp.Click("#annuler-eliminations", chromedp.ByID))
	attendre(t, ctx, jsTexte("#message", "Saisir le motif de l'annulation des éliminations."), e2eAttente, "no undoing without a reason")
	executer(t, ctx, chromedp.SetValue("#motif-eliminations", "bulletin de L2 mal saisi", chromedp.ByID), chromedp.Click("#annuler-eliminations", chromedp.ByID))
	confirmerAction(t, ctx, "Annuler les éliminations du coup 1 (bulletin de L2 mal saisi) ?")
	attendre(t, ctx, jsTexte("#message", "Éliminations annulées."), e2eAttente, "the eliminations undone")
	statutConsole(t, ctx, "top")
	assert.Equal(t, []string{"L1", "L2", "L3"}, joueurs(), "L2 is in again")
}

// Issue 32, item 1 (a whole-package run): the game console read the
// bulletins' progress again at each change of the game and showed
// whichever answer came last, so an answer asked before a newer deposit
// and landing after it showed one bulletin more missing than there was,
// until the next change. The page holds the answer of the read after a
// first deposit until the second deposit's read is shown: released, the
// older answer is not shown.
func TestE2EDirecteur_AvancementPerimeNonAffiche(t *testing.T) {
	salle := ouvrirSalle(t)
	jeton := jetonArbitre(t, salle, "1-2")
	top := salle.directeur.jouerCoup(t, e2ePartieLive)
	ctx := consoleDePartie(t, salle.serveur, salle.directeur.jeton, e2ePartieLive)
	manquants := `[...document.querySelectorAll("#avancement tr")].reduce((n, tr) => n + Number(tr.dataset.manquants), 0)`
	attendre(t, ctx, `document.getElementById("avancement-coup").textContent === "1" && `+manquants+` === 24`, e2eAttente, "every bulletin of coup 1 missing")
	var ok bool
	evaluer(t, ctx, `(() => {
		const fetchReel = window.fetch;
		window.retenues = 0;
		window.fetch = (url, init) => {
			if (!window.retenir || window.retenues > 0 || !String(init && init.body).includes("avancementBulletins")) return fetchReel(url, init);
			window.retenues++;
			const donnees = fetchReel(url, init).then((r) => r.json()).then((d) => { window.arrivee = true; return d; });
			return new Promise((resolve) => {
				window.relacher = () => resolve({ json: () => donnees.then((d) => { setTimeout(() => { window.traitee = true; }, 0); return d; }) });
			});
		};
		window.retenir = true;
		return true;
	})()`, &ok)
	arbitre := e2eAPI{url: salle.public.url, jeton: jeton}
	deposer := func(licence string) {
		arbitre.exiger(t, `mutation($p: ID!, $l: ID!, $b: BulletinInput!) { deposerBulletin(partie:$p, coup:1, licence:$l, bulletin:$b) { licence } }`,
			map[string]any{"p": e2ePartieLive, "l": licence, "b": map[string]any{"solutions": []any{map[string]any{"word": top.Mot, "ref": top.Reference, "score": top.Score}}}}, nil)
	}
	deposer("000001")
	attendre(t, ctx, `window.arrivee === true`, e2eAttente, "the read after the first deposit answered, held in the page")
	deposer("000002")
	attendre(t, ctx, manquants+` === 22`, e2eAttente, "the second deposit's own read shown")
	evaluer(t, ctx, `(window.relacher(), true)`, &ok)
	attendre(t, ctx, `window.traitee === true`, e2eAttente, "the older answer taken by the page")
	var n int
	evaluer(t, ctx, manquants, &n)
	assert.Equal(t, 22, n, "the older answer is not shown over the newer one")
}
