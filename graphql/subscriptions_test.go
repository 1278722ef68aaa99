package graphql

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/graphql/live"
)

// Finding of a loaded run (TestSecurite_JetonRevoqueFermeLesAbonnements):
// a subscription sent its first answer again when the live feed, behind
// the store, woke it for an event that answer already held (the game's
// tirage, stored before the subscription opened) — a frame for nothing to
// every screen opened while the feed catches up, and one the arbiter got
// after his token was revoked. A wake-up at or before the head read before
// the first answer is not read again; a later one is.
func TestSouscription_ReveilDejaCompteDansLaPremiereReponse(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		hub := live.NewHub()
		var lues []uint64
		tete := func(context.Context) (uint64, error) { return 5, nil }
		out, err := follow(ctx, hub, tete, func(string) bool { return true }, func(_ context.Context, pos uint64) (uint64, error) {
			lues = append(lues, pos)
			return pos, nil
		})
		require.NoError(t, err)
		assert.Equal(t, uint64(5), <-out, "the first answer holds the log up to the head read before it")

		for _, pos := range []uint64{3, 5} {
			hub.Publish("partie-T1-1", pos) // the feed catching up with what the first answer held
			synctest.Wait()
			select {
			case v := <-out:
				t.Fatalf("wake-up at %d sent an answer again: %d", pos, v)
			default:
			}
		}
		hub.Publish("partie-T1-1", 7)
		assert.Equal(t, uint64(7), <-out, "a change after the first answer is sent")
		assert.Equal(t, []uint64{5, 7}, lues)
	})
}
