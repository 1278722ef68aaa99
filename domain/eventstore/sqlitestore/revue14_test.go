package sqlitestore

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/eventstoretest"
)

// TestRevue14_FermerPendantUnGroupeNeLaisseAucunAjoutEnAttente: the store
// closed while appends wait for a group (one holding the leader's token,
// the others waiting for it or for their commit), and more appends coming
// meanwhile, then one more once it is closed: every append is answered,
// written or ErrClosed, none waits for ever (session 14's leader token,
// s14-attente, passed on whatever its holder was answered).
func TestRevue14_FermerPendantUnGroupeNeLaisseAucunAjoutEnAttente(t *testing.T) {
	for _, n := range []int{2, 10, 50} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			ctx := context.Background()
			s, err := OpenDir(ctx, t.TempDir(), Options{Clock: eventstoretest.NewStepClock(eventstoretest.Epoch)})
			require.NoError(t, err)
			evts := eventstoretest.Events(2 * n)
			s.writeLock.Lock()
			var wg sync.WaitGroup
			erreurs := make([]error, 2*n)
			ajouter := func(de, a int) {
				for i := de; i < a; i++ {
					wg.Go(func() {
						_, erreurs[i] = s.AppendGuarded(ctx, fmt.Sprintf("partie-v-table-%d", i+1), eventstore.NoStream, nil, evts[i])
					})
				}
			}
			ajouter(0, n)
			require.Eventually(t, func() bool {
				b := ajoutsBloques()
				return b["select"]+b["sync.Mutex.Lock"] == n
			}, 5*time.Second, time.Millisecond)
			ferme := make(chan error, 1)
			go func() { ferme <- s.Close() }()
			ajouter(n, 2*n)
			s.writeLock.Unlock()
			fini := make(chan struct{})
			go func() { wg.Wait(); close(fini) }()
			select {
			case <-fini:
			case <-time.After(10 * time.Second):
				t.Fatalf("appends still waiting after Close: %v", ajoutsBloques())
			}
			require.NoError(t, <-ferme)
			apres := make(chan error, 1)
			go func() {
				_, err := s.AppendGuarded(ctx, "partie-w", eventstore.NoStream, nil, eventstoretest.Events(1)...)
				apres <- err
			}()
			select {
			case err := <-apres:
				assert.ErrorIs(t, err, eventstore.ErrClosed, "an append after Close")
			case <-time.After(10 * time.Second):
				t.Fatalf("an append after Close still waits: %v", ajoutsBloques())
			}
			for i, err := range erreurs {
				if err != nil {
					assert.ErrorIs(t, err, eventstore.ErrClosed, "ajout %d", i)
				}
			}
		})
	}
}
