package lexicon

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// motsAuHasard are n words of 15 random letters, one a line.
func motsAuHasard(n int) string {
	r := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	for range n {
		for range MaxWordLength {
			b.WriteByte(byte('A' + r.IntN(26)))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TestSecurite_ListeDeMotsBornee: within the bounds of size, lines and
// words, a list is still refused past LettresMax letters (340,000 words of
// 15 letters), and its compilation stops once its automaton passes
// EtatsMax states (20,000 words of random letters, which share none),
// before it takes gigabytes; ODS8 is within both (issue 27, item 7).
func TestSecurite_ListeDeMotsBornee(t *testing.T) {
	_, err := ReadWords(strings.NewReader(motsAuHasard(340_000)))
	assert.ErrorContains(t, err, "plus de 5000000 lettres")

	list, err := ReadWords(strings.NewReader(motsAuHasard(20_000)))
	require.NoError(t, err)
	_, err = Build(list, "hasard")
	assert.ErrorContains(t, err, "passe 1500000 états")
}
