package standings

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The cache answers every request at one position with one read, reads
// again when the projection moves on, and never keeps an error.
func TestLecteurReadsOncePerPosition(t *testing.T) {
	var pos atomic.Uint64
	l := nouveauLecteur(nil, pos.Load)
	reads := 0
	read := func() ([]Ligne, error) {
		reads++
		return []Ligne{{Licence: "L1", Score: int(pos.Load())}}, nil
	}
	var wg sync.WaitGroup
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lignes, err := l.lire("k", read)
			assert.NoError(t, err)
			assert.Len(t, lignes, 1)
		}()
	}
	wg.Wait()
	assert.Equal(t, 1, reads, "concurrent askers share one read")
	pos.Store(7)
	lignes, err := l.lire("k", read)
	require.NoError(t, err)
	assert.Equal(t, 7, lignes[0].Score)
	assert.Equal(t, 2, reads, "the projection moved on: read again")

	_, err = l.lire("bad", func() ([]Ligne, error) { return nil, context.Canceled })
	assert.ErrorIs(t, err, context.Canceled)
	_, err = l.lire("bad", read)
	require.NoError(t, err, "errors are not kept")
}

// Issue 11 item 17: standings of games that do not exist (no line) leave no
// entry, and the kept standings are bounded.
func TestSecurite_ClassementsIdsInconnus(t *testing.T) {
	l := nouveauLecteur(nil, func() uint64 { return 1 })
	for i := 0; i < 10000; i++ {
		lignes, err := l.lire(fmt.Sprintf("partie/x%016x", rand.Uint64()), func() ([]Ligne, error) { return nil, nil })
		require.NoError(t, err)
		assert.Empty(t, lignes)
	}
	assert.Zero(t, l.memo.Len(), "unknown games leave no entry")
	for i := 0; i < maxEntrees+10; i++ {
		_, err := l.lire(fmt.Sprintf("partie/p%d", i), func() ([]Ligne, error) { return []Ligne{{Licence: "L1"}}, nil })
		require.NoError(t, err)
	}
	assert.Equal(t, maxEntrees, l.memo.Len(), "the kept standings are bounded")
}
