package simulation

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"arbitre/domain/classique/matchclassique"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestClassique7_ResultatEgaleSommeDesFaits plays many seeded games whose
// robots contest often, valid words included, and checks on each that the
// official result (§7 « Une fois appliquées les éventuelles pénalités… ») is
// the sum of the match's own recorded facts: the words placed, the plays
// withdrawn, the penalties of §5.3 and the end-of-game adjustments.
func TestClassique7_ResultatEgaleSommeDesFaits(t *testing.T) {
	comp := ComportementParDefaut()
	comp.ContesteJuste = 0.3
	fins, contestees := map[matchclassique.Fin]int{}, 0
	for seed := range 120 {
		p, robot := nouveauMatch(t, comp)
		require.NoError(t, robot.Jouer(p, rand.New(rand.NewPCG(uint64(seed), 30))))
		var somme [2]int
		var fin matchclassique.MatchTermine
		for i, e := range p.Pending() {
			switch ev := e.(type) {
			case matchclassique.MotPlace:
				somme[ev.Joueur] += ev.Score
			case matchclassique.ContestationTranchee:
				if ev.Retire {
					somme[1-ev.Contestataire] -= ev.ScoreRetire
				}
				somme[ev.Contestataire] -= ev.Penalite
				if _, finale := p.Pending()[i+1].(matchclassique.MatchTermine); finale && ev.Penalite > 0 {
					contestees++
				}
			case matchclassique.Penalite:
				somme[ev.Joueur] -= ev.Points
			case matchclassique.MatchTermine:
				fin = ev
				somme[0] += ev.Ajustements[0]
				somme[1] += ev.Ajustements[1]
			}
		}
		fins[fin.Fin]++
		scores, perdant, pm, ok := p.Resultat()
		require.True(t, ok, "seed %d", seed)
		assert.Equal(t, somme, scores, "seed %d: the result is the sum of the recorded facts", seed)
		assert.Equal(t, fin.Scores, scores, fmt.Sprintf("seed %d", seed))
		wantPerdant, wantPM := matchclassique.Vainqueur(somme)
		assert.Equal(t, wantPerdant, perdant, "seed %d", seed)
		assert.Equal(t, wantPM, pm, "seed %d", seed)
	}
	t.Logf("endings %v, %d games ended by a contested valid last play", fins, contestees)
	assert.NotZero(t, contestees, "some games end by contesting a valid last play")
}
