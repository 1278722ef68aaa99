package correction

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestArt5_9_MoyennePlafonneeParLaSolution: the average of §5.9 ("le joueur
// ne peut en aucun cas marquer plus de points que sa solution proposée") is
// capped by the value of the solution on the grid — OHE at I8 is worth 12 —
// not by the score the player wrote.
func TestArt5_9_MoyennePlafonneeParLaSolution(t *testing.T) {
	lex := tinyLex(t)
	for nom, ecrit := range map[string]*int{"12": score(12), "20": score(20), "5": score(5), "absent": nil} {
		b := one(sol("OHE", "h", ref("I8"), ecrit))
		d, err := Correct(lex, Context{Board: minerGrid, Tirage: tirage, Coup: 5, FirstWordLength: 5, Unnotified: []string{"OHE"}}, &b)
		require.NoError(t, err)
		require.Equal(t, Average, d.Sanction)
		assert.Equal(t, 12, d.AverageCap, "score écrit %s", nom)
	}
}
