package cpuprofile

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Issue 34, the largest hall: the mutex and block profiles of a phase of
// arbitre charge --profile hold the waits of that phase only, although the
// runtime keeps them from the program's start: the waits of the phase run
// before are not in the next one's files.
func TestIssue34_AttentesDUnePhaseSeulement(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, Attentes(dir, "avant", func() error { disputer(tenirAvant); return nil }))
	require.NoError(t, Attentes(dir, "pendant", func() error { disputer(tenirPendant); return nil }))

	for _, tc := range []struct {
		fichier         string
		present, absent string
	}{
		{"avant-mutex.pprof", "tenirAvant", "tenirPendant"},
		{"avant-block.pprof", "tenirAvant", "tenirPendant"},
		{"pendant-mutex.pprof", "tenirPendant", "tenirAvant"},
		{"pendant-block.pprof", "tenirPendant", "tenirAvant"},
	} {
		t.Run(tc.fichier, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(dir, tc.fichier))
			require.NoError(t, err)
			texte := string(b)
			assert.True(t, strings.HasPrefix(texte, "--- "), "the runtime's header: %.40q", texte)
			assert.Positive(t, strings.Count(texte, "cpuprofile."+tc.present+"+"), "frames of the phase's waits")
			assert.Zero(t, strings.Count(texte, "cpuprofile."+tc.absent+"+"), "frames of the other phase's waits")
		})
	}
	assert.NoError(t, Attentes("", "rien", func() error { return nil }), "no directory, no profile")
}

// disputer makes four goroutines take turns at a lock, each turn under
// tenir.
func disputer(tenir func(mu *sync.Mutex)) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 20 {
				tenir(&mu)
			}
		})
	}
	wg.Wait()
}

// tenirAvant and tenirPendant hold mu a while, the waits of two phases.
func tenirAvant(mu *sync.Mutex)   { tenir(mu) }
func tenirPendant(mu *sync.Mutex) { tenir(mu) }

//go:noinline
func tenir(mu *sync.Mutex) {
	mu.Lock()
	time.Sleep(100 * time.Microsecond)
	mu.Unlock()
}
