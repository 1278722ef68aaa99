package matchclassique_test

import (
	"math/rand/v2"
	"testing"

	"arbitre/domain/classique/matchclassique"
	"arbitre/domain/classique/simulation"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestClassique7_GainDeLaPartie_PenaliteDuContestataireComptee: the last
// play empties the rack with the bag empty, the opponent contests one of its
// words and the word is valid. §5.3 takes 5 points off the contester, and
// §7 « Gain de la partie : Une fois appliquées les éventuelles pénalités… »:
// the final scores count that penalty, then the reliquat.
func TestClassique7_GainDeLaPartie_PenaliteDuContestataireComptee(t *testing.T) {
	lex := libreLex(t)
	r, err := matchclassique.NewRegles(lex)
	require.NoError(t, err)
	robot := simulation.NewRobot(lex, simulation.Comportement{})
	rng := rand.New(rand.NewPCG(3, 5))
	p := matchclassique.Nouveau(r)
	err = p.Creer(matchclassique.Creation{Match: "m1", Joueurs: [2]string{"ana", "bob"}, Premier: "ana"})
	require.NoError(t, err)
	for !p.FinEnAttente() {
		require.Contains(t, []matchclassique.Phase{matchclassique.PhaseTirageInitial, matchclassique.PhaseEnCours}, p.Phase(), "seed 3 ends by an emptied rack")
		require.NoError(t, robot.Etape(p, rng))
	}
	auteur, mots, ok := p.Contestable()
	require.True(t, ok)
	b := 1 - auteur
	scores, reste := p.Scores(), matchclassique.ValeurChevalet(p.Chevalet(b))
	require.NoError(t, p.Contester(p.Creation().Joueurs[b], mots[:1]))
	fin, ok := p.Fin()
	require.True(t, ok)
	require.Equal(t, matchclassique.FinReliquatEpuise, fin.Fin)
	var attendu [2]int
	attendu[auteur] = scores[auteur] + reste
	attendu[b] = scores[b] - matchclassique.PenaliteFixe - reste
	assert.Equal(t, attendu, fin.Scores, "§7: the contester's 5 points stay off his final score")
	assert.Equal(t, attendu, p.Scores())
	s, _, _, _ := p.Resultat()
	assert.Equal(t, attendu, s)
	assertReplay(t, p)
}
