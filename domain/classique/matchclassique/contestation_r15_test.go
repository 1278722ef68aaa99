package matchclassique_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"arbitre/domain/classique/matchclassique"
	"arbitre/domain/classique/simulation"
	"arbitre/engine/movegen"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sacVide plays a seeded game under regles with the engine until the bag is
// empty right after a play that did not end the game: that play is the
// contestable one and its author's opponent is to move.
func sacVide(t *testing.T, regles *matchclassique.Regles) *matchclassique.Match {
	t.Helper()
	robot := simulation.NewRobot(libreLex(t), simulation.Comportement{})
	rng := rand.New(rand.NewPCG(3, 5))
	p := matchclassique.Nouveau(regles)
	err := p.Creer(matchclassique.Creation{Match: "m1", Joueurs: [2]string{"ana", "bob"}, Premier: "ana"})
	require.NoError(t, err)
	for {
		require.NoError(t, robot.Etape(p, rng))
		require.Contains(t, []matchclassique.Phase{matchclassique.PhaseTirageInitial, matchclassique.PhaseEnCours}, p.Phase(), "the bag must empty before the end")
		sac := p.Sac()
		if j, _ := p.TirageDu(); j < 0 && sac.Size() == 0 && !p.FinEnAttente() {
			if _, _, ok := p.Contestable(); ok {
				return p
			}
		}
	}
}

// TestArt5_2_SacVidePasseNeFermePasLaContestation: once the bag is empty the
// last play "peut être contesté jusqu'à ce que l'adversaire pose des lettres
// sur la grille" (§5.2, règlement classique): the opponent's pass leaves it
// contestable.
//
// Ruling on the turn (§5.3 "C'est à B de jouer"): a withdrawn play gives the
// turn to the contester; when every word is admitted the turn does not move,
// since the contester has already passed his own turn.
func TestArt5_2_SacVidePasseNeFermePasLaContestation(t *testing.T) {
	tests := []struct {
		name   string
		regles func(t testing.TB) *matchclassique.Regles
		retire bool
	}{
		{"§5.3 words not in the lexicon: withdrawn, the contester plays", regles, true},
		{"§5.3 words admitted: 5 points off the contester, the turn stays", func(t testing.TB) *matchclassique.Regles {
			r, err := matchclassique.NewRegles(libreLex(t))
			require.NoError(t, err)
			return r
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := sacVide(t, tt.regles(t))
			joueurs := p.Creation().Joueurs
			auteur, mots, _ := p.Contestable()
			b := 1 - auteur
			grille, scores, passes := p.Grille(), p.Scores(), p.Passes()
			require.NoError(t, p.Passer(joueurs[b]))
			j, encore, ok := p.Contestable()
			require.True(t, ok, "§5.2: a pass does not close the window once the bag is empty")
			assert.Equal(t, auteur, j)
			assert.Equal(t, mots, encore)
			refused(t, p, matchclassique.CodeNothingToContest, func() error { return p.Contester(joueurs[auteur], mots[:1]) })
			require.NoError(t, p.Contester(joueurs[b], mots[:1]))
			_, _, ok = p.Contestable()
			assert.False(t, ok)
			apres, sac := p.Grille(), p.Sac()
			if tt.retire {
				assert.Equal(t, b, p.Trait(), "§5.3: withdrawn, it is the contester's turn")
				assert.Less(t, p.Scores()[auteur], scores[auteur])
				assert.Equal(t, scores[b], p.Scores()[b])
				assert.Less(t, apres.TileCount(), grille.TileCount(), "the author takes his letters back")
				assert.Positive(t, sac.Size(), "the letters he drew go back to the bag")
				assert.Equal(t, passes+1+1, p.Passes(), "§5.3: the withdrawn play is a pass, followed by the one announced")
			} else {
				assert.Equal(t, auteur, p.Trait(), "the contester already passed his turn")
				assert.Equal(t, scores[auteur], p.Scores()[auteur])
				assert.Equal(t, scores[b]-matchclassique.PenaliteFixe, p.Scores()[b])
				assert.Equal(t, grille.TileCount(), apres.TileCount())
				assert.Equal(t, 1, p.Passes())
			}
			assert.Equal(t, 102, total(p))
			assertReplay(t, p)
		})
	}
}

// TestArt5_2_SacVidePoseFermeLaContestation: the author's own pass keeps the
// window open too; it closes when the opponent places letters (§5.2).
func TestArt5_2_SacVidePoseFermeLaContestation(t *testing.T) {
	p := sacVide(t, regles(t))
	joueurs := p.Creation().Joueurs
	auteur, mots, _ := p.Contestable()
	b := 1 - auteur
	require.NoError(t, p.Passer(joueurs[b]))
	require.NoError(t, p.Passer(joueurs[auteur]))
	j, _, ok := p.Contestable()
	require.True(t, ok, "§5.2: passes do not close the window once the bag is empty")
	assert.Equal(t, auteur, j)
	gen := movegen.New(libreLex(t), movegen.Options{Variant: movegen.Standard})
	grille := p.Grille()
	moves, _ := gen.Generate(&grille, p.Chevalet(b), movegen.TopOnly)
	require.NotEmpty(t, moves, "the engine finds a word for %s", joueurs[b])
	require.NoError(t, p.PlacerMot(joueurs[b], moves[0].Ref().String(), moves[0].WordString()))
	j, _, ok = p.Contestable()
	require.True(t, ok)
	assert.Equal(t, b, j, "the contestable play is now the opponent's")
	refused(t, p, matchclassique.CodeNothingToContest, func() error { return p.Contester(joueurs[b], mots[:1]) })
	assertReplay(t, p)
}

// TestArt4_2_Art5_3_CoupRetireCompteCommePasse: ruling between §4.2 (six
// « JE PASSE » end the game) and §5.3 ("A reprend ses lettres, et passe son
// tour"): a withdrawn play counts as a pass, in the règlement classique's own
// words; §7 refus de jeu counts turns passed "sans qu'aucun mot n'ait été
// posé", and a withdrawn word is not on the grid. Five passes and a
// withdrawn play end the game, each deducting his rack.
func TestArt4_2_Art5_3_CoupRetireCompteCommePasse(t *testing.T) {
	p := apresMaison(t) // ana: AAAAAAE
	for i := 0; i < 5; i++ {
		require.NoError(t, p.Passer([]string{"bob", "ana"}[i%2]))
	}
	require.Equal(t, 5, p.Passes())
	require.False(t, strings.Contains(testWords, "\nMAA\n"))
	require.NoError(t, p.PlacerMot("ana", "8H", "MAA"))
	require.NoError(t, p.Contester("bob", []string{"MAA"}))
	fin, ok := p.Fin()
	require.True(t, ok, "§4.2: the withdrawn play is the sixth pass")
	assert.Equal(t, matchclassique.FinSixPasses, fin.Fin)
	ana := p.Chevalet(0)
	assert.Equal(t, "AAAAAAE", ana.String(), "ana took her letters back")
	assert.Equal(t, [2]int{-matchclassique.ValeurChevalet(ana), -matchclassique.ValeurChevalet(p.Chevalet(1))}, fin.Ajustements)
	assertReplay(t, p)
}
