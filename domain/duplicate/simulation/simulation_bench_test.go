package simulation

import (
	"testing"

	"github.com/stretchr/testify/require"

	"arbitre/domain/duplicate"
	"arbitre/engine/lexicon/libre"
	"arbitre/projections/standings"
)

// BenchmarkPartie300 plays a 300-player game from the first tirage to the
// final standings (bulletins corrected by engine/correction).
func BenchmarkPartie300(b *testing.B) {
	for b.Loop() {
		_, evts := jouer(b, 1, 300)
		c := standings.New()
		for _, e := range evts {
			require.NoError(b, c.Appliquer("partie-p1", e))
		}
		_, err := c.Partie("p1")
		require.NoError(b, err)
	}
}

// BenchmarkReplayCoup rebuilds the game before its last coup from the
// events and recomputes the engine's tops.
func BenchmarkReplayCoup(b *testing.B) {
	lex, err := libre.Lexicon()
	require.NoError(b, err)
	p, evts := jouer(b, 1, 300)
	moteur := duplicate.NewMoteur(lex, p.Config().Variant())
	for b.Loop() {
		r := duplicate.Nouvelle(moteur)
		for _, e := range evts {
			if t, ok := e.(duplicate.TopRetenu); ok && t.Coup == p.ProchainCoup()-1 {
				break
			}
			require.NoError(b, r.Apply(e))
		}
		require.NotEmpty(b, r.Solutions())
	}
}
