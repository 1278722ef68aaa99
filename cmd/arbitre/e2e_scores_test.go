package main

// THE PER-COUP SCORE SHEET (issue 31, « what a director used to DupliTop
// would also miss »): /scores/<partie>, every player's points per coup and
// their cumul, the sanctions, the avertissements counted and the tops, for
// the director, the commission and the tournament's arbiters, sorted by rank
// or by table, printed A4 landscape. TestE2EPartieComplete_ParLesConsoles
// plays a whole game through the consoles and checks the sheet with
// verifierFeuilleDesScores.

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// standingsApres are the public standings read once a coup's bulletins are
// all corrected, and whether the game was over then (the standings then
// count the solos and the end-of-game avertissements, §3.5, §5.9).
type standingsApres struct {
	coup   int
	fini   bool
	scores map[string]int
}

func lireStandingsApres(t *testing.T, api e2eAPI, coup int) standingsApres {
	t.Helper()
	var d struct {
		Partie struct {
			Fin *struct{ Motif string }
		}
		Classement []struct {
			Licence string
			Score   int
		}
	}
	api.exiger(t, `{ partie(id:"`+pcPartie+`") { fin { motif } } classement(partie:"`+pcPartie+`") { licence score } }`, nil, &d)
	out := standingsApres{coup: coup, fini: d.Partie.Fin != nil, scores: map[string]int{}}
	for _, l := range d.Classement {
		out.scores[l.Licence] = l.Score
	}
	return out
}

// feuilleLue is the sheet as the page shows it: its rows in order, each
// coup's points (null: no figure) and cumul, and the standings' columns.
type feuilleLue struct {
	Coups  []int
	Lignes []struct {
		Licence string
		Table   string
		Coups   []struct {
			Coup     int
			Points   *int
			Cumul    int
			Sanction string
			Texte    string
		}
		Fin []string // solos, avertissements, pénalités, total, écart
	}
}

const jsFeuille = `(() => ({
	coups: [...document.querySelectorAll("#entete th.mot")].map((th) => +th.dataset.coup),
	lignes: [...document.querySelectorAll("#lignes tr")].map((tr) => ({
		licence: tr.dataset.licence, table: tr.cells[1].textContent,
		coups: [...tr.querySelectorAll("td.coup")].map((td) => ({ coup: +td.dataset.coup,
			points: td.dataset.points === undefined ? null : +td.dataset.points, cumul: +td.dataset.cumul,
			sanction: td.dataset.sanction || "", texte: td.textContent })),
		fin: [...tr.cells].slice(-5).map((td) => td.textContent) })),
}))()`

func lireFeuille(t *testing.T, ctx context.Context, n int) feuilleLue {
	t.Helper()
	attendre(t, ctx, fmt.Sprintf(`document.body.dataset.pret === "1" && document.querySelectorAll("#lignes tr").length === %d`, n), e2eAttente, "the score sheet")
	var f feuilleLue
	evaluer(t, ctx, jsFeuille, &f)
	return f
}

// verifierFeuilleDesScores opens the score sheet of the game the consoles
// played from the arbiter's page (ctxArb, his token) and checks it against
// the API: each coup's points are the decision in force, each coup's cumul
// the public standings read once that coup's bulletins were corrected (apres;
// the last, read after the game's end, count the solos and the end-of-game
// avertissements: the total does), the total, avertissements and solos the
// final standings'; then sorted by table, printed A4 landscape, opened from
// the director's console (ctxD), and refused to a token of another
// tournament (ctxAutre).
func verifierFeuilleDesScores(t *testing.T, s *apiServer, ctxArb, ctxD, ctxAutre context.Context, apres []standingsApres) {
	t.Helper()
	api := e2eAPI{url: s.url, jeton: ""}
	var final struct {
		Partie     struct{ Tops []e2eTop }
		Classement []struct {
			Licence                                                string
			Rang, Score, Negatif, Solos, Avertissements, Penalites int
		}
	}
	api.exiger(t, `{ partie(id:"`+pcPartie+`") { tops { coup mot reference score } }
		classement(partie:"`+pcPartie+`") { licence rang score negatif solos avertissements penalites } }`, nil, &final)
	require.Len(t, final.Classement, len(pcJoueurs))
	decisions := map[int]map[string]apiDecision{}
	for _, top := range final.Partie.Tops {
		var d struct {
			Bulletins []struct {
				Licence  string
				Decision apiDecision
			}
		}
		api.exiger(t, `query($c: Int!) { bulletins(partie:"`+pcPartie+`", coup:$c) { licence decision { `+decisionFields+` } } }`, map[string]any{"c": top.Coup}, &d)
		decisions[top.Coup] = map[string]apiDecision{}
		for _, b := range d.Bulletins {
			decisions[top.Coup][b.Licence] = b.Decision
		}
	}

	executer(t, ctxArb, chromedp.Click("#scores", chromedp.ByID))
	f := lireFeuille(t, ctxArb, len(pcJoueurs))
	var coups []int
	for _, top := range final.Partie.Tops {
		coups = append(coups, top.Coup)
	}
	require.Equal(t, coups, f.Coups, "a column per coup topped, the last included")
	sanctions := 0
	for i, l := range f.Lignes {
		c := final.Classement[i]
		require.Equal(t, c.Licence, l.Licence, "row %d: by rank", i+1)
		require.Len(t, l.Coups, len(coups))
		cumul := 0
		for k, cell := range l.Coups {
			d := decisions[cell.Coup][l.Licence]
			require.NotNil(t, cell.Points, "%s, coup %d: points shown", l.Licence, cell.Coup)
			assert.Equal(t, d.Paye, *cell.Points, "%s, coup %d: the decision in force", l.Licence, cell.Coup)
			assert.Equal(t, d.Sanction, cell.Sanction, "%s, coup %d", l.Licence, cell.Coup)
			if d.Sanction != "none" {
				sanctions++
				assert.Regexp(t, `^\d+[AN]`, cell.Texte, "%s, coup %d: the sanction marked", l.Licence, cell.Coup)
			}
			cumul += d.Paye
			assert.Equal(t, cumul, cell.Cumul, "%s, coup %d: the cumul", l.Licence, cell.Coup)
			if st := apres[k]; !st.fini {
				require.Equal(t, cell.Coup, st.coup)
				assert.Equal(t, st.scores[l.Licence], cell.Cumul, "%s: the cumul after coup %d is the standings' then", l.Licence, cell.Coup)
			}
		}
		assert.Equal(t, []string{strconv.Itoa(c.Solos), strconv.Itoa(c.Avertissements), strconv.Itoa(c.Penalites), strconv.Itoa(c.Score), strconv.Itoa(c.Negatif)},
			l.Fin, "%s: solos, avertissements, pénalités, total, écart", l.Licence)
	}
	assert.Positive(t, sanctions, "the game had sanctions to show")
	comparees := 0
	for _, a := range apres {
		if !a.fini {
			comparees++
		}
	}
	assert.GreaterOrEqual(t, comparees, 2, "the cumul compared with the standings of several coups")

	// Sorted by table, the reader's choice.
	executer(t, ctxArb, chromedp.Click("#tri-table", chromedp.ByID))
	attendre(t, ctxArb, `location.search === "?tri=table"`, e2eAttente, "the sheet by table")
	f = lireFeuille(t, ctxArb, len(pcJoueurs))
	var tables []int
	for _, l := range f.Lignes {
		n, err := strconv.Atoi(l.Table)
		require.NoError(t, err)
		tables = append(tables, n)
	}
	assert.True(t, sort.IntsAreSorted(tables), "by table: %v", tables)

	// A4 landscape on paper.
	pdf := imprimerPage(t, ctxArb)
	m := regexp.MustCompile(`/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]`).FindSubmatch(pdf)
	require.NotNil(t, m, "a page size in the PDF")
	largeur, _ := strconv.ParseFloat(string(m[1]), 64)
	hauteur, _ := strconv.ParseFloat(string(m[2]), 64)
	assert.InDelta(t, 842, largeur, 2, "A4 landscape: 297 mm wide")
	assert.InDelta(t, 595, hauteur, 2, "A4 landscape: 210 mm high")
	var portee string
	evaluer(t, ctxArb, `getComputedStyle(document.getElementById("session-portee")).display`, &portee)
	assert.Equal(t, "none", portee, "« Connecté : jeton d'arbitre… » is not printed")

	// From the director's console.
	executer(t, ctxD, chromedp.Click("#scores", chromedp.ByID))
	lireFeuille(t, ctxD, len(pcJoueurs))

	// A token of another tournament reads nothing.
	autre := apiToken(t, s.data, "--role", "arbiter", "--tables", "1-4", "--tournoi", "T9")
	attendreJetons(t, s, autre)
	executer(t, ctxAutre, chromedp.Navigate(s.url+"/scores/"+pcPartie))
	entrerJeton(t, ctxAutre, autre)
	attendre(t, ctxAutre, jsTexte("#etat", "Ce jeton est celui du tournoi T9 : la partie T1-1 est du tournoi T1."), e2eAttente, "the refusal")
	var lignes int
	evaluer(t, ctxAutre, `document.getElementById("contenu").hidden ? 0 : document.querySelectorAll("#lignes tr").length`, &lignes)
	assert.Zero(t, lignes, "nothing shown to another tournament's token")
}
