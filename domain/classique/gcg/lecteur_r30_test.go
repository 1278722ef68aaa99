package gcg_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"arbitre/domain/classique/gcg"
	"arbitre/domain/classique/gcg/gcgtest"
	"arbitre/domain/classique/matchclassique"
	"arbitre/domain/classique/simulation"
	"arbitre/engine/lexicon"
	"arbitre/engine/lexicon/libre"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// scenario is what the arbiter and the players do besides the robots'
// moves: action runs before each step of a match in play and reports
// whether it took the step's place.
type scenario struct {
	nom    string
	comp   simulation.Comportement
	action func(p *matchclassique.Match, pas int) (bool, error)
	// desaccord: a player signs other scores and the arbiter decides them.
	desaccord bool
}

func joueurDuTrait(p *matchclassique.Match) string { return p.Creation().Joueurs[p.Trait()] }

// aLaMain reports whether the player to move may act now: no draw, no
// contestation of a finishing play pending.
func aLaMain(p *matchclassique.Match) bool {
	j, _ := p.TirageDu()
	return p.Phase() == matchclassique.PhaseEnCours && j < 0 && !p.FinEnAttente()
}

func scenarios() []scenario {
	defaut := simulation.ComportementParDefaut()
	conteste := defaut
	conteste.ContesteJuste = 0.3
	a := func(p *matchclassique.Match) string { return p.Creation().Joueurs[0] }
	b := func(p *matchclassique.Match) string { return p.Creation().Joueurs[1] }
	return []scenario{
		{nom: "robots", comp: defaut},
		{nom: "contestations justes et fausses", comp: conteste},
		{nom: "pénalités, dont une avant le premier coup", comp: conteste, action: func(p *matchclassique.Match, pas int) (bool, error) {
			switch pas {
			case 0:
				return false, p.Penaliser(b(p), matchclassique.MotifTirageAnticipe, 1)
			case 12:
				return false, p.Penaliser(a(p), matchclassique.MotifArbitre, 0)
			case 30:
				return false, p.Penaliser(b(p), matchclassique.MotifLettresEnTrop, 2)
			case 44:
				return false, p.Penaliser(a(p), matchclassique.MotifJokerErrone, 0)
			}
			return false, nil
		}},
		{nom: "temps épuisé", comp: defaut, action: func(p *matchclassique.Match, pas int) (bool, error) {
			switch {
			case pas == 20 && p.Phase() == matchclassique.PhaseEnCours:
				return false, p.DeclarerTempsEpuise(a(p))
			case pas == 40 && p.Phase() == matchclassique.PhaseEnCours:
				return false, p.DeclarerTempsEpuise(b(p))
			}
			return false, nil
		}},
		{nom: "six « je passe » en cours de partie", comp: defaut, action: func(p *matchclassique.Match, pas int) (bool, error) {
			if pas < 25 || !aLaMain(p) {
				return false, nil
			}
			return true, p.Passer(joueurDuTrait(p))
		}},
		{nom: "six « je passe » sans un mot", comp: simulation.Comportement{Passe: 1}},
		{nom: "abandon refusé puis accepté", comp: defaut, action: func(p *matchclassique.Match, pas int) (bool, error) {
			if p.Phase() != matchclassique.PhaseEnCours || pas != 10 && pas != 25 {
				return false, nil
			}
			if err := p.DemanderAbandon(a(p)); err != nil {
				return false, err
			}
			return false, p.RepondreAbandon(b(p), pas == 25)
		}},
		{nom: "abandon sans accord", comp: defaut, action: sanction(25, func(p *matchclassique.Match) error { return p.ConstaterAbandon(b(p)) })},
		{nom: "défaite arbitrale", comp: defaut, action: sanction(25, func(p *matchclassique.Match) error { return p.DeclarerDefaite(a(p), false) })},
		{nom: "huit lettres", comp: defaut, action: sanction(25, func(p *matchclassique.Match) error { return p.DeclarerDefaite(b(p), true) })},
		{nom: "forfait", comp: defaut, action: func(p *matchclassique.Match, pas int) (bool, error) {
			return true, p.DeclarerForfait(b(p))
		}},
		{nom: "désaccord sur les totaux", comp: conteste, desaccord: true},
	}
}

func sanction(pas int, f func(*matchclassique.Match) error) func(*matchclassique.Match, int) (bool, error) {
	return func(p *matchclassique.Match, n int) (bool, error) {
		if n != pas || p.Phase() != matchclassique.PhaseEnCours {
			return false, nil
		}
		return true, f(p)
	}
}

// jouer plays a match of scenario sc with seed.
func jouer(t *testing.T, regles *matchclassique.Regles, lex *lexicon.Lexicon, sc scenario, seed int) *matchclassique.Match {
	t.Helper()
	rng := rand.New(rand.NewPCG(uint64(seed), 30))
	joueurs := [2]string{fmt.Sprintf("J%02d", 2*seed), fmt.Sprintf("J%02d", 2*seed+1)}
	p := matchclassique.Nouveau(regles)
	err := p.Creer(matchclassique.Creation{Match: fmt.Sprintf("m%d", seed), Tournoi: "open", Ronde: 1, Table: seed + 1,
		Joueurs: joueurs, Premier: joueurs[seed%2]})
	require.NoError(t, err)
	robot := simulation.NewRobot(lex, sc.comp)
	for pas := 0; pas < 2000 && (p.Phase() == matchclassique.PhaseTirageInitial || p.Phase() == matchclassique.PhaseEnCours); pas++ {
		if sc.action != nil {
			fait, err := sc.action(p, pas)
			require.NoError(t, err, "%s, step %d", sc.nom, pas)
			if fait || p.Phase() == matchclassique.PhaseTerminee {
				continue
			}
		}
		require.NoError(t, robot.Etape(p, rng), "%s, step %d", sc.nom, pas)
	}
	require.Contains(t, []matchclassique.Phase{matchclassique.PhaseTerminee, matchclassique.PhaseValidee}, p.Phase(), sc.nom)
	if sc.desaccord {
		scores, _, _, _ := p.Resultat()
		decides := [2]int{scores[0] + 3, scores[1]}
		require.NoError(t, p.SignerFeuille(joueurs[0], decides))
		require.NoError(t, p.TrancherDesaccord(decides))
	}
	return p
}

// TestArchive_GCGLuSelonLaSpecification exports simulated matches with
// penalties (§4.1.3, §5.3, §8, §9), passes, exchanges, withdrawn phonies and
// every ending, and reads each file with gcgtest, a GCG reader written from
// the specification and macondo's limits: every file parses and replays to
// its end, its lines are the match's coups, and its FISF notes give the
// official result (issue 30).
func TestArchive_GCGLuSelonLaSpecification(t *testing.T) {
	lex, err := libre.Lexicon()
	require.NoError(t, err)
	regles, err := matchclassique.NewRegles(lex)
	require.NoError(t, err)
	vu := map[string]int{}
	seed := 0
	for _, sc := range scenarios() {
		n := 3
		if sc.action == nil {
			n = 20
		}
		for range n {
			seed++
			p := jouer(t, regles, lex, sc, seed)
			fin, _ := p.Fin()
			vu[string(fin.Fin)]++
			if !gcg.Jouee(p) {
				assert.Equal(t, matchclassique.FinForfait, fin.Fin, "%s %d: only a match without a move is left out", sc.nom, seed)
				continue
			}
			verifier(t, p, lex, sc.desaccord, vu)
		}
	}
	t.Logf("seen: %v", vu)
	for _, f := range []matchclassique.Fin{matchclassique.FinReliquatEpuise, matchclassique.FinBlocage, matchclassique.FinTempsEpuise, matchclassique.FinSixPasses, matchclassique.FinAbandon,
		matchclassique.FinAbandonUnilateral, matchclassique.FinDefaiteArbitrale, matchclassique.FinDefaiteHuitLettres, matchclassique.FinForfait} {
		assert.NotZero(t, vu[string(f)], "ending %s", f)
	}
	for _, g := range []gcgtest.Genre{gcgtest.Placement, gcgtest.Retrait, gcgtest.Passe, gcgtest.Echange, gcgtest.ReliquatGagne, gcgtest.ResteDeduit} {
		assert.NotZero(t, vu[string(g)], "line %s", g)
	}
	assert.NotZero(t, vu["§5.3"], "a contestation penalised")
	assert.NotZero(t, vu["§5.3 fin"], "a valid last play contested")
	assert.NotZero(t, vu["cumul négatif"], "a penalty takes an official score below zero")
}

// verifier exports p and reads the file back.
func verifier(t *testing.T, p *matchclassique.Match, lex *lexicon.Lexicon, desaccord bool, vu map[string]int) {
	t.Helper()
	texte, err := gcg.Export(p)
	require.NoError(t, err)
	lu, err := gcgtest.Lire(strings.NewReader(texte))
	require.NoError(t, err, texte)
	c := p.Creation()
	ordre := [2]int{c.Premier, 1 - c.Premier}
	assert.Equal(t, [2]string{c.Joueurs[ordre[0]], c.Joueurs[ordre[1]]}, lu.Pseudos, "player 1 is the one who starts")
	assert.Equal(t, lexicon.Nom(lex.Label()), lu.Lexique)
	assert.Equal(t, "french", lu.Distribution)

	// The lines are the match's coups, in number.
	compte := map[gcgtest.Genre]int{}
	for _, e := range lu.Evenements {
		compte[e.Genre]++
		vu[string(e.Genre)]++
	}
	attendu := map[gcgtest.Genre]int{}
	var penalites [2]int
	officiels := [2]int{}
	for _, coup := range p.Journal() {
		switch coup.Genre {
		case matchclassique.CoupPlacement:
			attendu[gcgtest.Placement]++
		case matchclassique.CoupPasse:
			attendu[gcgtest.Passe]++
		case matchclassique.CoupEchange:
			attendu[gcgtest.Echange]++
		case matchclassique.CoupRetrait:
			attendu[gcgtest.Retrait]++
		case matchclassique.CoupPenaliteContestation, matchclassique.CoupPenalite:
			penalites[coup.Joueur] -= coup.Points
			vu[string(coup.Genre)]++
			if coup.Genre == matchclassique.CoupPenaliteContestation {
				vu["§5.3"]++
			}
		}
		if coup.Genre != matchclassique.CoupFin {
			officiels[coup.Joueur] = coup.Cumul
			if coup.Cumul < 0 {
				vu["cumul négatif"]++
			}
		}
	}
	for _, g := range []gcgtest.Genre{gcgtest.Placement, gcgtest.Passe, gcgtest.Echange, gcgtest.Retrait} {
		assert.Equal(t, attendu[g], compte[g], "%s lines", g)
	}
	assert.Equal(t, [2]int{penalites[ordre[0]], penalites[ordre[1]]}, lu.Penalites, "FISF penalty notes")

	// The official result.
	fin, _ := p.Fin()
	scores, _, pm, _ := p.Resultat()
	require.NotNil(t, lu.Officiel, texte)
	assert.Equal(t, [2]int{scores[ordre[0]], scores[ordre[1]]}, lu.Officiel.Scores, texte)
	assert.Equal(t, [2]int{pm[ordre[0]], pm[ordre[1]]}, lu.Officiel.PointsDeMatch)
	switch fin.Fin {
	case matchclassique.FinReliquatEpuise, matchclassique.FinBlocage, matchclassique.FinTempsEpuise, matchclassique.FinSixPasses:
		assert.True(t, lu.Terminee, "the game is over for a GCG reader")
		if !desaccord {
			assert.Equal(t, lu.Officiel.Scores, lu.SelonFISF(), "GCG lines and FISF notes give the official result:\n%s", texte)
		}
		if fin.Fin == matchclassique.FinReliquatEpuise {
			evs := p.Pending()
			if ct, ok := evs[len(evs)-2].(matchclassique.ContestationTranchee); ok && ct.Penalite > 0 {
				vu["§5.3 fin"]++
			}
		}
	default:
		assert.Equal(t, [2]int{officiels[ordre[0]], officiels[ordre[1]]}, [2]int{lu.Scores[0] - lu.Penalites[0], lu.Scores[1] - lu.Penalites[1]},
			"a sanction: the GCG lines stop at the scores of the time")
	}
}

// TestExport_Art5_2_RetraitApresDesPasses: with the bag empty a play stays
// contestable over passes (§5.2); withdrawn, its « -- » line follows the
// play itself, where GCG readers take a play back, and the file replays.
func TestExport_Art5_2_RetraitApresDesPasses(t *testing.T) {
	lex, err := libre.Lexicon()
	require.NoError(t, err)
	petit, err := lexicon.Compile(strings.NewReader("MAISON\n"), "PETIT")
	require.NoError(t, err)
	regles, err := matchclassique.NewRegles(petit) // the robots' words are not in it: contested, they are withdrawn
	require.NoError(t, err)
	robot := simulation.NewRobot(lex, simulation.Comportement{})
	rng := rand.New(rand.NewPCG(3, 5))
	p := matchclassique.Nouveau(regles)
	err = p.Creer(matchclassique.Creation{Match: "m1", Joueurs: [2]string{"ana", "bob"}, Premier: "ana"})
	require.NoError(t, err)
	for {
		require.NoError(t, robot.Etape(p, rng))
		require.Contains(t, []matchclassique.Phase{matchclassique.PhaseTirageInitial, matchclassique.PhaseEnCours}, p.Phase(), "the bag must empty before the end")
		sac := p.Sac()
		if j, _ := p.TirageDu(); j < 0 && sac.Size() == 0 && !p.FinEnAttente() {
			if _, _, ok := p.Contestable(); ok {
				break
			}
		}
	}
	joueurs := p.Creation().Joueurs
	auteur, mots, _ := p.Contestable()
	require.NoError(t, p.Passer(joueurs[1-auteur]))
	require.NoError(t, p.Passer(joueurs[auteur]))
	require.NoError(t, p.Contester(joueurs[1-auteur], mots[:1]))
	texte, err := gcg.Export(p)
	require.NoError(t, err)
	lu, err := gcgtest.Lire(strings.NewReader(texte))
	require.NoError(t, err, texte)
	evs := lu.Evenements
	require.GreaterOrEqual(t, len(evs), 4)
	n := len(evs)
	assert.Equal(t, []gcgtest.Genre{gcgtest.Placement, gcgtest.Retrait, gcgtest.Passe, gcgtest.Passe},
		[]gcgtest.Genre{evs[n-4].Genre, evs[n-3].Genre, evs[n-2].Genre, evs[n-1].Genre}, texte)
	assert.Equal(t, joueurs[auteur], lu.Pseudos[evs[n-3].Joueur])
}
