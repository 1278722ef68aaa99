package simulation

import (
	"math/rand/v2"
	"testing"

	"arbitre/domain/classique/matchclassique"
	"arbitre/engine/lexicon/libre"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nouveauMatch creates a match on the shipped lexicon and a robot to play it.
func nouveauMatch(t *testing.T, comp Comportement) (*matchclassique.Match, *Robot) {
	t.Helper()
	lex, err := libre.Lexicon()
	require.NoError(t, err)
	regles, err := matchclassique.NewRegles(lex)
	require.NoError(t, err)
	p := matchclassique.Nouveau(regles)
	err = p.Creer(matchclassique.Creation{Match: "m", Tournoi: "t", Ronde: 1, Table: 1, Joueurs: [2]string{"A", "B"}, Premier: "A"})
	require.NoError(t, err)
	return p, NewRobot(lex, comp)
}

// TestRobot_SansRechercheQuandLeTirageDecide: a robot searches for the top
// only when its move depends on it. With the bag full, an exchange drawn is
// made without a search, while a pass drawn needs one (with no word the
// robot exchanges instead); with fewer than 7 tiles in the bag no exchange
// is allowed, so a pass drawn needs no search and an exchange drawn does
// (the robot plays instead). A move always does.
func TestRobot_SansRechercheQuandLeTirageDecide(t *testing.T) {
	tests := []struct {
		name        string
		comp        Comportement
		presqueVide bool // fewer than matchclassique.MinimumEchange tiles in the bag
		recherches  bool
	}{
		{"an exchange drawn, the bag full", Comportement{Change: 1}, false, false},
		{"a pass drawn, the bag full", Comportement{Passe: 1}, false, true},
		{"a move, the bag full", Comportement{}, false, true},
		{"a pass drawn, the bag nearly empty", Comportement{Passe: 1}, true, false},
		{"an exchange drawn, the bag nearly empty", Comportement{Change: 1}, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, robot := nouveauMatch(t, Comportement{})
			rng := rand.New(rand.NewPCG(1, 2))
			if tt.presqueVide {
				for sac := p.Sac(); sac.Size() >= matchclassique.MinimumEchange; sac = p.Sac() {
					require.NoError(t, robot.Etape(p, rng))
				}
				require.Equal(t, matchclassique.PhaseEnCours, p.Phase())
			}
			robot.comp, robot.recherches = tt.comp, 0
			enJeu := func() bool {
				return p.Phase() == matchclassique.PhaseTirageInitial || p.Phase() == matchclassique.PhaseEnCours
			}
			tours := 0
			for sac := p.Sac(); (tt.presqueVide || sac.Size() >= 2*matchclassique.MinimumEchange) && enJeu() && tours < 6; sac = p.Sac() {
				if j, _ := p.TirageDu(); j < 0 && !p.FinEnAttente() {
					tours++ // a turn: these robots never contest
				}
				require.NoError(t, robot.Etape(p, rng))
			}
			require.Positive(t, tours)
			switch {
			case !tt.recherches:
				assert.Zero(t, robot.recherches)
			case tt.presqueVide:
				assert.Positive(t, robot.recherches)
			default:
				assert.Equal(t, tours, robot.recherches)
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
