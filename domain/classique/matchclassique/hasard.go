package matchclassique

import (
	crand "crypto/rand"
	"hash/fnv"
	"math/rand/v2"
)

// Hasard is where the electronic bag's draws come from, injected into the
// application like the clock: the letters drawn are recorded in the events
// (Tirage, Echange), so a replay never asks it again.
type Hasard interface {
	// Source returns the source of the draw a match makes at a version.
	Source(match string, version int) *rand.Rand
}

// HasardCrypto seeds every draw from crypto/rand: nobody can foresee the
// letters (arbitre serve).
type HasardCrypto struct{}

// Source returns a source seeded from crypto/rand.
func (HasardCrypto) Source(string, int) *rand.Rand {
	var graine [32]byte
	_, _ = crand.Read(graine[:]) // never fails (crypto/rand.Read)
	return rand.New(rand.NewChaCha8(graine))
}

// HasardFixe draws from its seed, the match and its version only: a test
// takes the same path on every run.
type HasardFixe uint64

// Source returns the source of the seed for this draw.
func (h HasardFixe) Source(match string, version int) *rand.Rand {
	f := fnv.New64a()
	_, _ = f.Write([]byte(match))
	return rand.New(rand.NewPCG(uint64(h)^f.Sum64(), uint64(version)))
}
