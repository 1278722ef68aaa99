package simulation

import (
	"math/rand/v2"
	"testing"

	"arbitre/domain/classique/partie"
	"arbitre/engine/lexicon/libre"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nouveauMatch creates a match on the shipped lexicon and a robot to play it.
func nouveauMatch(t *testing.T, comp Comportement) (*partie.Partie, *Robot) {
	t.Helper()
	lex, err := libre.Lexicon()
	require.NoError(t, err)
	regles, err := partie.NewRegles(lex)
	require.NoError(t, err)
	p, err := partie.Creer(regles, partie.Creation{Match: "m", Tournoi: "t", Ronde: 1, Table: 1, Joueurs: [2]string{"A", "B"}, Premier: "A"})
	require.NoError(t, err)
	return p, NewRobot(lex, comp)
}

// TestRobot_SansRechercheQuandLeTirageDecide: a robot searches for the top
// only when its move depends on it. An exchange drawn while the bag allows
// one is made without a search; a pass drawn while an exchange is allowed
// needs one (with no word the robot exchanges instead); a move always does.
func TestRobot_SansRechercheQuandLeTirageDecide(t *testing.T) {
	tests := []struct {
		name       string
		comp       Comportement
		recherches bool
	}{
		{"an exchange drawn, the bag full", Comportement{Change: 1}, false},
		{"a pass drawn, the bag full", Comportement{Passe: 1}, true},
		{"a move", Comportement{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, robot := nouveauMatch(t, tt.comp)
			rng := rand.New(rand.NewPCG(1, 2))
			tours := 0
			for sac := p.Sac(); sac.Size() >= 2*partie.MinimumEchange && tours < 6; sac = p.Sac() {
				if j, _ := p.TirageDu(); j < 0 {
					tours++ // no contestation: these robots never contest
				}
				require.NoError(t, robot.Etape(p, rng))
			}
			require.Equal(t, 6, tours)
			if tt.recherches {
				assert.Equal(t, tours, robot.recherches)
			} else {
				assert.Zero(t, robot.recherches)
			}
		})
	}
}

// TestRobot_RechercheSansAllocation: the search for the tops reuses the
// robot's generator and its copy of the board: once warm, a move costs no
// allocation.
func TestRobot_RechercheSansAllocation(t *testing.T) {
	p, robot := nouveauMatch(t, Comportement{})
	rng := rand.New(rand.NewPCG(3, 4))
	for range 8 { // draws and a few moves: a board with words on it
		require.NoError(t, robot.Etape(p, rng))
	}
	j := p.Trait()
	require.NotEmpty(t, robot.tops(p, j))
	assert.Zero(t, testing.AllocsPerRun(20, func() { robot.tops(p, j) }))
}
