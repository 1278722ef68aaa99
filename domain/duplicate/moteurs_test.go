package duplicate

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/engine/board"
	"arbitre/engine/lexicon"
)

// §3.8.2: with the server's engines (Moteurs), a game plays its own
// formula: in "7 et 8" the eight-letter word and its 75-point prime are the
// top, in "7 sur 8" it is not even playable.
func TestMoteursServeTheGamesFormula_Article3_8_2(t *testing.T) {
	lex, err := lexicon.Compile(strings.NewReader("ANTIQUES\nANTIQUE\n"), "test")
	require.NoError(t, err)
	moteurs := NewMoteurs(lex)
	for _, tc := range []struct {
		variante Variante
		top      string
		prime    int32
	}{
		{VarianteSeptEtHuit, "ANTIQUES", 75},
		{VarianteSeptSurHuit, "ANTIQUE", 50},
	} {
		p := Nouvelle(moteurs)
		cfg := Config{TempsParCoup: 3 * time.Minute, Source: SourceDirecteur, Variante: tc.variante}
		require.NoError(t, p.Creer("p", "", 0, cfg, []string{"L1"}))
		require.NoError(t, p.Tirer("ANTIQUES"))
		sols := p.Solutions()
		require.NotEmpty(t, sols, string(tc.variante))
		assert.Equal(t, tc.top, sols[0].Move.WordString(), string(tc.variante))
		var b board.Board
		want := NewMoteur(lex, cfg.Variant()).Tops(&b, p.Rack())
		assert.Equal(t, want[0].Score, sols[0].Move.Score, string(tc.variante))
		assert.Greater(t, sols[0].Move.Score, tc.prime, "the prime of the formula is counted")
	}
}
