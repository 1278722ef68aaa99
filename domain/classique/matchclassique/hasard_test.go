package matchclassique_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/classique/matchclassique"
	"arbitre/engine/tile"
)

// TestHasard_TirageFixeReproductible: with a fixed seed the bag's draws
// depend only on the seed, the match and its version, so a test takes the
// same path on every run; another version or match draws otherwise.
func TestHasard_TirageFixeReproductible(t *testing.T) {
	p := nouvelle(t, "AEIOUST", "BCDFGHL")
	sac := p.Sac()
	tirer := func(h matchclassique.Hasard, match string, version int) string {
		return matchclassique.TirerAuHasard(sac, 7, h.Source(match, version))
	}
	fixe := matchclassique.HasardFixe(42)
	premier := tirer(fixe, p.ID(), p.Version())
	r, err := tile.ParseRack(premier)
	require.NoError(t, err)
	require.Equal(t, 7, r.Size())
	for range 5 {
		assert.Equal(t, premier, tirer(matchclassique.HasardFixe(42), p.ID(), p.Version()), "same seed, match and version")
	}
	autres := map[string]bool{}
	for v := range 20 {
		autres[tirer(fixe, p.ID(), p.Version()+1+v)] = true
		autres[tirer(fixe, "autre", v)] = true
	}
	assert.Greater(t, len(autres), 30, "other versions and matches draw other letters")
	crypto := map[string]bool{}
	for range 20 {
		crypto[tirer(matchclassique.HasardCrypto{}, p.ID(), p.Version())] = true
	}
	assert.Greater(t, len(crypto), 15, "serve's source is not fixed")
}
