package duplicate

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/engine/correction"
)

// solutionJouee is a bulletin proposing one solution.
func solutionJouee(licence, ref, mot string, score int) BulletinDepose {
	return BulletinDepose{Coup: 1, Licence: licence, Bulletin: correction.Bulletin{Solutions: []correction.Solution{
		{Word: mot, Ref: &ref, Score: &score}}}}
}

// TestGuide2_3_TopTrouveParUnJoueur: with the option of guide §2.3, the
// retained solution must have been played by at least one player: the
// best-scoring solution among the bulletins, not the engine's top, which
// then sets the coup's top (négatif and percentages follow). Without a
// playable solution among the bulletins, the engine's top is retained
// (ruling: the game must go on, and guide §2.15 falls back on the
// software's top likewise).
func TestGuide2_3_TopTrouveParUnJoueur(t *testing.T) {
	m := fixe(t, coup(t, "H8", "BAC", 14))
	m.scores["H8 CAB"] = 12
	m.scores["H8 AB"] = 8
	tests := []struct {
		name      string
		bulletins []BulletinDepose
		ref, mot  string
		code      Code
	}{
		{"guide §2.3 le meilleur coup joué est retenu", []BulletinDepose{solutionJouee("L1", "H8", "CAB", 12), solutionJouee("L2", "H8", "AB", 8)}, "H8", "CAB", ""},
		{"guide §2.3 le top du logiciel n'a été joué par personne", []BulletinDepose{solutionJouee("L1", "H8", "CAB", 12)}, "H8", "BAC", CodeTopNotPlayed},
		{"guide §2.3 un coup joué mais pas le meilleur", []BulletinDepose{solutionJouee("L1", "H8", "CAB", 12), solutionJouee("L2", "H8", "AB", 8)}, "H8", "AB", CodeNotMaxScore},
		{"guide §2.3 aucun coup jouable : le top du logiciel", []BulletinDepose{solutionJouee("L1", "H8", "BCA", 12)}, "H8", "BAC", ""},
		{"guide §2.3 aucun coup jouable : un autre est refusé", []BulletinDepose{solutionJouee("L1", "H8", "BCA", 12)}, "H8", "CAB", CodeNotMaxScore},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := nouvellePartie(t, Config{TempsParCoup: 3 * time.Minute, Source: SourceDirecteur, TopJoue: true}, m)
			require.NoError(t, p.Tirer("ABCDEFG"))
			for _, b := range tt.bulletins {
				require.NoError(t, p.DeposerBulletin(b))
			}
			if tt.code != "" {
				refuse(t, p, tt.code, func() error { return p.RetenirTop(tt.ref, tt.mot) })
				return
			}
			require.NoError(t, p.RetenirTop(tt.ref, tt.mot))
			top, _ := p.Top(1)
			assert.Equal(t, tt.mot, top.Mot)
		})
	}
	t.Run("sans l'option, le top du logiciel (guide §2.3 première phrase)", func(t *testing.T) {
		p := nouvellePartie(t, Config{TempsParCoup: 3 * time.Minute, Source: SourceDirecteur}, m)
		require.NoError(t, p.Tirer("ABCDEFG"))
		require.NoError(t, p.DeposerBulletin(solutionJouee("L1", "H8", "CAB", 12)))
		refuse(t, p, CodeNotMaxScore, func() error { return p.RetenirTop("H8", "CAB") })
	})
}
