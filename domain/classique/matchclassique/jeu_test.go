package matchclassique_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"arbitre/domain/classique/matchclassique"
	"arbitre/domain/classique/simulation"
	"arbitre/engine/lexicon"
	"arbitre/engine/lexicon/libre"
	"arbitre/engine/tile"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func libreLex(t testing.TB) *lexicon.Lexicon {
	t.Helper()
	lex, err := libre.Lexicon()
	require.NoError(t, err)
	return lex
}

// TestWholeGamesKeepTheRules plays seeded games with the engine and checks
// the end-of-game arithmetic of §7 on each, the 102 tiles, and replay.
func TestWholeGamesKeepTheRules(t *testing.T) {
	lex := libreLex(t)
	r, err := matchclassique.NewRegles(lex)
	require.NoError(t, err)
	robot := simulation.NewRobot(lex, simulation.ComportementParDefaut())
	fins := map[matchclassique.Fin]int{}
	for seed := range 30 {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(seed), 7))
			p := matchclassique.Nouveau(r)
			err := p.Creer(matchclassique.Creation{Match: "m1", Joueurs: [2]string{"ana", "bob"}, Premier: "ana"})
			require.NoError(t, err)
			// Play until the game is over, then check the last adjustments
			// against the racks left (§7).
			var racks [2]tile.Rack
			var before [2]int
			for p.Phase() == matchclassique.PhaseTirageInitial || p.Phase() == matchclassique.PhaseEnCours {
				racks, before = [2]tile.Rack{p.Chevalet(0), p.Chevalet(1)}, p.Scores()
				require.NoError(t, robot.Etape(p, rng))
				assert.Equal(t, 102, total(p))
			}
			fin, ok := p.Fin()
			require.True(t, ok)
			fins[fin.Fin]++
			v := [2]int{matchclassique.ValeurChevalet(racks[0]), matchclassique.ValeurChevalet(racks[1])}
			switch fin.Fin {
			case matchclassique.FinReliquatEpuise:
				// The finisher gains the opponent's rack, who loses it.
				f := fin.Joueur
				assert.Zero(t, racks[f].Size())
				assert.Equal(t, v[1-f], fin.Ajustements[f])
				assert.Equal(t, -v[1-f], fin.Ajustements[1-f])
			case matchclassique.FinBlocage, matchclassique.FinSixPasses:
				// Each deducts his own rack.
				assert.Equal(t, [2]int{-v[0], -v[1]}, fin.Ajustements)
			}
			for j := range 2 {
				assert.Equal(t, fin.Scores[j], p.Scores()[j])
				if fin.Fin != matchclassique.FinReliquatEpuise {
					assert.Equal(t, before[j]+fin.Ajustements[j], fin.Scores[j])
				}
			}
			assertReplay(t, p)
		})
	}
	t.Logf("endings: %v", fins)
	assert.NotZero(t, fins[matchclassique.FinReliquatEpuise])
}

// TestNoExchangeBelowSevenLetters plays until the bag holds fewer than
// seven letters and checks §4.3 then, and §7 blocage.
func TestNoExchangeBelowSevenLetters(t *testing.T) {
	lex := libreLex(t)
	r, err := matchclassique.NewRegles(lex)
	require.NoError(t, err)
	robot := simulation.NewRobot(lex, simulation.Comportement{})
	rng := rand.New(rand.NewPCG(1, 2))
	p := matchclassique.Nouveau(r)
	err = p.Creer(matchclassique.Creation{Match: "m1", Joueurs: [2]string{"ana", "bob"}, Premier: "ana"})
	require.NoError(t, err)
	for {
		sac := p.Sac()
		if j, _ := p.TirageDu(); j < 0 && sac.Size() < matchclassique.MinimumEchange && sac.Size() > 0 {
			break
		}
		require.NoError(t, robot.Etape(p, rng))
		require.Contains(t, []matchclassique.Phase{matchclassique.PhaseTirageInitial, matchclassique.PhaseEnCours}, p.Phase(), "the bag must run low before the end")
	}
	joueur := p.Creation().Joueurs[p.Trait()]
	rack := p.Chevalet(p.Trait())
	one := rack.String()[:1]
	sac := p.Sac()
	refused(t, p, matchclassique.CodeExchangeRefused, func() error { return p.Echanger(joueur, one, sac.String()[:1]) })
	refused(t, p, matchclassique.CodeBlockageRefused, func() error { return p.ConstaterBlocage() })
	require.NoError(t, p.Passer(joueur))
	refused(t, p, matchclassique.CodeBlockageRefused, func() error { return p.ConstaterBlocage() })
	require.NoError(t, p.Passer(p.Creation().Joueurs[p.Trait()]))
	require.NoError(t, p.ConstaterBlocage())
	fin, _ := p.Fin()
	assert.Equal(t, matchclassique.FinBlocage, fin.Fin)
	assert.Equal(t, [2]int{-matchclassique.ValeurChevalet(p.Chevalet(0)), -matchclassique.ValeurChevalet(p.Chevalet(1))}, fin.Ajustements)
	assertReplay(t, p)
}
