package main

// ISSUE 29, ITEMS 4 AND 5: the average of §5.9, played through the API in
// the order a hall works — tirage, chrono, ramassage, top, THEN the
// arbiters type and correct the bulletins.

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// moyenneSalle is a hall playing one game through the API: the director's
// token and the arbiter's token of each player.
type moyenneSalle struct {
	t         *testing.T
	s         *apiServer
	directeur string
	arbitres  map[string]string
	partie    string
}

// exiger runs a query that must succeed.
func (m moyenneSalle) exiger(jeton, q string, vars map[string]any) apiResult {
	m.t.Helper()
	res := m.s.gql(jeton, q, vars)
	require.Empty(m.t, res.Errors, "%s: %+v", q, res.Errors)
	return res
}

// jouerCoup draws the next tirage, runs the chrono, collects the bulletins
// and announces the engine's best admissible top; it returns the tirage
// and the top.
func (m moyenneSalle) jouerCoup() (tirage string, top e2eTop) {
	m.t.Helper()
	p := map[string]any{"p": m.partie}
	m.exiger(m.directeur, `mutation($p: ID!) { tirer(partie:$p) { version } }`, p)
	var lu struct {
		Tirage    string
		Solutions []struct {
			Mot, Reference string
			Admissible     bool
		}
	}
	m.exiger(m.directeur, `query($p: ID!) { partie(id:$p) { tirage solutions { mot reference admissible } } }`, p).into(m.t, "partie", &lu)
	require.NotEmpty(m.t, lu.Solutions)
	require.True(m.t, lu.Solutions[0].Admissible)
	m.exiger(m.directeur, `mutation($p: ID!) { demarrerChrono(partie:$p) { version } }`, p)
	m.exiger(m.directeur, `mutation($p: ID!) { ramasser(partie:$p) { version } }`, p)
	var apres struct{ Tops []e2eTop }
	m.exiger(m.directeur, `mutation($p: ID!, $r: String!, $m: String!) { retenirTop(partie:$p, reference:$r, mot:$m) { tops { coup mot reference score } } }`,
		map[string]any{"p": m.partie, "r": lu.Solutions[0].Reference, "m": lu.Solutions[0].Mot}).into(m.t, "retenirTop", &apres)
	return lu.Tirage, apres.Tops[len(apres.Tops)-1]
}

// saisir types and corrects a player's bulletin, as the arbiter of his
// table does, and returns the sanction in force.
func (m moyenneSalle) saisir(coup int, licence string, b map[string]any) string {
	m.t.Helper()
	v := map[string]any{"p": m.partie, "c": coup, "l": licence, "b": b}
	m.exiger(m.arbitres[licence], `mutation($p: ID!, $c: Int!, $l: ID!, $b: BulletinInput!) { deposerBulletin(partie:$p, coup:$c, licence:$l, bulletin:$b) { licence } }`, v)
	var corrige struct{ Decision struct{ Sanction string } }
	m.exiger(m.arbitres[licence], `mutation($p: ID!, $c: Int!, $l: ID!) { corrigerBulletin(partie:$p, coup:$c, licence:$l) { decision { sanction } } }`, v).into(m.t, "corrigerBulletin", &corrige)
	return corrige.Decision.Sanction
}

// solution is a bulletin with one written solution.
func solution(mot, ref string, score int) map[string]any {
	return map[string]any{"solutions": []any{map[string]any{"word": mot, "ref": ref, "score": score}}}
}

// motAllonge is the top's word lengthened by one letter of the reliquat
// (the tirage's letters the top leaves), after or before it, with its
// reference: a word the lexicon does not admit, which covers the top's
// squares and can be played again on the next coup by laying that letter
// alone beside the top. The apercu of the first coup tells which is not
// admitted.
func (m moyenneSalle) motAllonge(licence, tirage string, top e2eTop) (mot, ref string, lettre byte) {
	m.t.Helper()
	require.Equal(m.t, strings.ToUpper(top.Mot), top.Mot, "the top of coup 1 uses no joker")
	reliquat := []byte(strings.ToUpper(tirage))
	for _, c := range []byte(top.Mot) {
		if i := strings.IndexByte(string(reliquat), c); i >= 0 {
			reliquat = append(reliquat[:i], reliquat[i+1:]...)
		}
	}
	horizontal := top.Reference[0] >= 'A' && top.Reference[0] <= 'O'
	var ligne byte
	var colonne int
	if horizontal {
		ligne = top.Reference[0]
		colonne, _ = strconv.Atoi(top.Reference[1:])
	} else {
		ligne = top.Reference[len(top.Reference)-1]
		colonne, _ = strconv.Atoi(top.Reference[:len(top.Reference)-1])
	}
	refA := func(ligne byte, colonne int) string {
		if horizontal {
			return fmt.Sprintf("%c%d", ligne, colonne)
		}
		return fmt.Sprintf("%d%c", colonne, ligne)
	}
	debut, fin := colonne, colonne+len(top.Mot)-1 // along the word
	if !horizontal {
		debut, fin = int(ligne-'A')+1, int(ligne-'A')+len(top.Mot)
	}
	for _, x := range reliquat {
		if x < 'A' || x > 'Z' {
			continue
		}
		var essais [][2]string
		if fin < 15 {
			essais = append(essais, [2]string{top.Mot + string(x), top.Reference})
		}
		if debut > 1 {
			if horizontal {
				essais = append(essais, [2]string{string(x) + top.Mot, refA(ligne, colonne-1)})
			} else {
				essais = append(essais, [2]string{string(x) + top.Mot, refA(ligne-1, colonne)})
			}
		}
		for _, e := range essais {
			var d struct {
				Sanction string
				Raisons  []string
			}
			m.exiger(m.arbitres[licence], `query($p: ID!, $l: ID!, $b: BulletinInput!) { apercuBulletin(partie:$p, coup:1, licence:$l, bulletin:$b) { sanction raisons } }`,
				map[string]any{"p": m.partie, "l": licence, "b": solution(e[0], e[1], 1)}).into(m.t, "apercuBulletin", &d)
			if d.Sanction == "zero" && len(d.Raisons) == 1 && d.Raisons[0] == "WORD_NOT_ADMITTED" {
				return e[0], e[1], x
			}
		}
	}
	require.Fail(m.t, "no lengthened word of the top is refused", "tirage %s, top %+v", tirage, top)
	return "", "", 0
}

// TestE2EArt5_9_BilletRemisFinDeLaMoyenne: « Cette règle reste valable tant
// qu'il n'a pas été averti du motif de la nullité » (§5.9). Two players
// write the same non-admitted word on coup 1 (a zéro); the arbiter hands
// the billet de correction to the first one only. On coup 2 both play that
// word again: the one who was not told gets the average, the one who got
// his billet the zéro.
func TestE2EArt5_9_BilletRemisFinDeLaMoyenne(t *testing.T) {
	s, directeur, arbitre := salleT1(t, 4)
	attendreJetons(t, s, directeur, arbitre)
	m := moyenneSalle{t: t, s: s, directeur: directeur, partie: "T1-1",
		arbitres: map[string]string{"L1": arbitre, "L2": arbitre, "L3": arbitre, "L4": arbitre}}
	m.exiger(directeur, `mutation($g: Int!) { creerPartie(tournoi:"T1", partie:"T1-1", config:{source: logiciel, graine:$g}) { version } }`, map[string]any{"g": e2eGraine})

	tirage, top := m.jouerCoup()
	mot, ref, lettre := m.motAllonge("L1", tirage, top)
	t.Logf("coup 1: tirage %s, top %s %s; %s %s is not admitted", tirage, top.Mot, top.Reference, mot, ref)
	for _, l := range []string{"L1", "L2"} {
		require.Equal(t, "zero", m.saisir(1, l, solution(mot, ref, 1)), l)
	}
	for _, l := range []string{"L3", "L4"} {
		require.Equal(t, "none", m.saisir(1, l, solution(top.Mot, top.Reference, top.Score)), l)
	}
	var billet struct{ BilletRemis bool }
	const emettre = `mutation { emettreBillet(partie:"T1-1", coup:1, licence:"L1") { billetRemis } }`
	assert.Equal(t, "UNAUTHENTICATED", s.gql("", emettre, nil).code())
	var autre struct{ Secret string }
	m.exiger(directeur, `mutation { emettreJeton(demande:{role: ARBITER, tournoi:"T1", tables:"9"}) { secret } }`, nil).into(t, "emettreJeton", &autre)
	attendreJetons(t, s, autre.Secret)
	assert.Equal(t, "FORBIDDEN", s.gql(autre.Secret, emettre, nil).code(), "the arbiter of another table")
	m.exiger(arbitre, emettre, nil).into(t, "emettreBillet", &billet)
	assert.True(t, billet.BilletRemis)

	tirage, top = m.jouerCoup()
	require.Contains(t, tirage, string(lettre), "the letter of the reliquat stays on the stand")
	assert.Equal(t, "zero", m.saisir(2, "L1", solution(mot, ref, 1)), "told of the motive by his billet: the nullité")
	assert.Equal(t, "average", m.saisir(2, "L2", solution(mot, ref, 1)), "not told: the average")

	var bulletins []struct {
		Licence     string
		BilletRemis bool
	}
	m.exiger(directeur, `{ bulletins(partie:"T1-1", coup:1) { licence billetRemis } }`, nil).into(t, "bulletins", &bulletins)
	remis := map[string]bool{}
	for _, b := range bulletins {
		remis[b.Licence] = b.BilletRemis
	}
	assert.Equal(t, map[string]bool{"L1": true, "L2": false, "L3": false, "L4": false}, remis)
}

// TestE2EArt5_9_MoyenneDesJoueursDeSonArbitre: the average is « la moyenne
// des scores obtenus par tous les autres joueurs relevant de son arbitre »
// (§5.9). The game records which arbiter covers which tables: A tables 1-2
// (L1, L2), B tables 3-4 (L3, L4). L1 and L3 write the same non-admitted
// word on coups 1 and 2, without their billet: an average on coup 2. There
// L2 hands in a blank, L4 the top: L1's average is L2's zéro alone, L3's
// L4's top alone (capped by the value of his solution) — not the mean over
// the whole game.
func TestE2EArt5_9_MoyenneDesJoueursDeSonArbitre(t *testing.T) {
	data := t.TempDir()
	directeur := apiToken(t, data, "--role", "director")
	arbitreA := apiToken(t, data, "--role", "arbiter", "--tables", "1-2", "--tournoi", "T1")
	arbitreB := apiToken(t, data, "--role", "arbiter", "--tables", "3-4", "--tournoi", "T1")
	s := startAPIServer(t, data)
	t.Cleanup(s.stop)
	attendreJetons(t, s, directeur, arbitreA, arbitreB)
	inscrireJoueursT1(t, s, directeur, 4)
	m := moyenneSalle{t: t, s: s, directeur: directeur, partie: "T1-1",
		arbitres: map[string]string{"L1": arbitreA, "L2": arbitreA, "L3": arbitreB, "L4": arbitreB}}
	m.exiger(directeur, `mutation($g: Int!) { creerPartie(tournoi:"T1", partie:"T1-1", config:{source: logiciel, graine:$g},
		arbitres:[{arbitre:"A", tables:[1, 2]}, {arbitre:"B", tables:[3, 4]}]) { version } }`, map[string]any{"g": e2eGraine})

	tirage, top := m.jouerCoup()
	mot, ref, _ := m.motAllonge("L1", tirage, top)
	for _, l := range []string{"L1", "L3"} {
		require.Equal(t, "zero", m.saisir(1, l, solution(mot, ref, 1)), l)
	}
	for _, l := range []string{"L2", "L4"} {
		require.Equal(t, "none", m.saisir(1, l, solution(top.Mot, top.Reference, top.Score)), l)
	}
	un := top.Score

	_, top = m.jouerCoup()
	for _, l := range []string{"L1", "L3"} {
		require.Equal(t, "average", m.saisir(2, l, solution(mot, ref, 1)), l)
	}
	require.Equal(t, "zero", m.saisir(2, "L2", map[string]any{"blank": true}))
	require.Equal(t, "none", m.saisir(2, "L4", solution(top.Mot, top.Reference, top.Score)))

	var c []struct {
		Licence string
		Score   int
	}
	m.exiger("", `{ classement(partie:"T1-1") { licence score } }`, nil).into(t, "classement", &c)
	scores := map[string]int{}
	for _, l := range c {
		scores[l.Licence] = l.Score
	}
	assert.Equal(t, 0, scores["L1"], "A's other player scored 0 on coup 2")
	assert.Equal(t, un, scores["L2"])
	assert.Equal(t, un+top.Score, scores["L4"])
	assert.Positive(t, scores["L3"], "B's other player scored the top of coup 2")
	assert.LessOrEqual(t, scores["L3"], top.Score, "capped by his solution (§5.9)")
}

// TestE2EArt5_9_BilletRemisDepuisLaSaisie: on the arbiter's entry page, a
// corrected bulletin's row offers « Billet remis »; the click records the
// billet handed to the player (§5.9) and the row no longer offers it.
func TestE2EArt5_9_BilletRemisDepuisLaSaisie(t *testing.T) {
	salle := ouvrirSalle(t)
	jeton := jetonArbitre(t, salle, "1-2")
	top := salle.directeur.jouerCoup(t, e2ePartieLive)
	ctx := navigateur(t, 1400, 1000)
	ouvrirSaisie(t, ctx, salle.public.url, jeton)
	attendre(t, ctx, jsTexte("#top", fmt.Sprintf("Top : %s en %s", top.Mot, top.Reference)), e2eAttente, "the coup's top")
	taper(t, ctx, saisie{joueur: "000003", cases: []string{"blanc"}})
	attendre(t, ctx, `document.getElementById("decision-moteur").dataset.sanction === "zero"`, e2eAttente, "the nullité")
	valider(t, ctx)
	const bouton = `#bulletins tr[data-licence="000003"] button.billet`
	attendre(t, ctx, `document.querySelector('`+bouton+`') !== null`, e2eAttente, "the corrected bulletin offers its billet")
	executer(t, ctx, chromedp.Click(bouton, chromedp.ByQuery))
	attendre(t, ctx, `document.getElementById("attente").dataset.n === "0" && document.querySelector('`+bouton+`') === null`, e2eAttente, "the billet handed")

	var d struct {
		Bulletins []struct {
			Licence     string
			BilletRemis bool
		}
	}
	salle.directeur.exiger(t, `query($c: Int!) { bulletins(partie:"`+e2ePartieLive+`", coup:$c) { licence billetRemis } }`, map[string]any{"c": top.Coup}, &d)
	remis := map[string]bool{}
	for _, b := range d.Bulletins {
		remis[b.Licence] = b.BilletRemis
	}
	assert.Equal(t, map[string]bool{"000003": true}, remis)
}
