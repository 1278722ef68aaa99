package standings

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/duplicate"
)

// TestArt5_6_PenaliteSurLeCoup: the −5 of §5.3.3/§5.6 is paid on the coup,
// in the live standings too (only the warnings' penalties of §5.9 wait for
// the end of the game); a score under 5 goes below zero, and the solo is
// judged on the score before the penalty (§3.5).
func TestArt5_6_PenaliteSurLeCoup(t *testing.T) {
	tests := []struct {
		name             string
		corrections      []duplicate.BulletinCorrige
		fin              bool
		score, penalites int
		soloJ00, soloJ01 int
	}{
		{"en cours : 15 − 5", []duplicate.BulletinCorrige{pen("J00", 15), paye("J01", 12)}, false, 10, 5, 1, 0},
		{"terminée : 15 − 5 une seule fois", []duplicate.BulletinCorrige{pen("J00", 15), paye("J01", 12)}, true, 10, 5, 1, 0},
		{"en cours : 3 − 5, solo de J01 à 4", []duplicate.BulletinCorrige{pen("J00", 3), paye("J01", 4)}, false, -2, 5, 0, 1},
		{"en cours : 5 − 5 contre 4, solo avant pénalité", []duplicate.BulletinCorrige{pen("J00", 5), paye("J01", 4)}, false, 0, 5, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := unePartie(t, 2, normale, tt.corrections, tt.fin)
			// §3.5: the director sees the solos during the game.
			j00, j01 := lignePour(t, c, "J00", Directeur), lignePour(t, c, "J01", Directeur)
			require.Zero(t, j00.EnAttente)
			assert.Equal(t, tt.score, j00.Score)
			assert.Equal(t, tt.penalites, j00.Penalites)
			assert.Equal(t, tt.soloJ00, j00.Solos)
			assert.Equal(t, tt.soloJ01, j01.Solos)
		})
	}
}
