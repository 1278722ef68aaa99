package standings

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/duplicate"
)

// TestArt3_5_SolosAnnoncesEnFinDePartie: « le ou les solos sont annoncés
// par le juge-arbitre en fin de partie » (§3.5). While the game is played
// the public standings show no solo, no bonus and no score including one,
// in the game and in the cumul; the director sees them; once the game is
// over, everyone does.
func TestArt3_5_SolosAnnoncesEnFinDePartie(t *testing.T) {
	tests := []struct {
		name         string
		fin          bool
		regard       Regard
		solos, score int
	}{
		{"§3.5 pendant la partie, le public ne voit pas le solo", false, Public, 0, 20},
		{"§3.5 pendant la partie, le directeur le voit", false, Directeur, 1, 30},
		{"§3.5 en fin de partie, le solo est annoncé", true, Public, 1, 30},
		{"§3.5 en fin de partie, pour le directeur aussi", true, Directeur, 1, 30},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := unePartie(t, 16, normale, []duplicate.BulletinCorrige{paye("J00", 20), paye("J01", 18)}, tt.fin)
			lignes, err := c.PartiePour("p1", tt.regard)
			require.NoError(t, err)
			cumul, err := c.CumulPour(tt.regard)
			require.NoError(t, err)
			for _, ls := range [][]Ligne{lignes, cumul} {
				require.Equal(t, "J00", ls[0].Licence)
				assert.Equal(t, tt.solos, ls[0].Solos)
				assert.Equal(t, tt.score, ls[0].Score)
				assert.Equal(t, tt.score-20, ls[0].Negatif)
			}
			if tt.regard == Public {
				public, err := c.Partie("p1")
				require.NoError(t, err)
				assert.Equal(t, lignes, public, "Partie is the public standings")
			}
		})
	}
}
