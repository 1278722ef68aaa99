package graphql

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/duplicate"
	dupadapters "arbitre/domain/duplicate/adapters"
	dupcommand "arbitre/domain/duplicate/command"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/eventstoretest"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/engine/lexicon/libre"
)

// vuesResolver is a resolver reading games from a fresh store, with the
// given games created.
func vuesResolver(t *testing.T, parties ...string) *Resolver {
	t.Helper()
	ctx := context.Background()
	store, err := sqlitestore.OpenDir(ctx, t.TempDir(), sqlitestore.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { store.Close() })
	reg, err := dupadapters.Registre()
	require.NoError(t, err)
	lex, err := libre.Lexicon()
	require.NoError(t, err)
	moteur := duplicate.NewMoteurs(lex)
	app := dupcommand.New(dupadapters.NewDepot(store, reg, moteur), moteur, eventstoretest.NewStepClock(eventstoretest.Epoch), eventstore.Metadata{Actor: "JA"})
	for _, p := range parties {
		require.NoError(t, app.CreerPartie(ctx, dupcommand.CreerPartie{Partie: p, Tournoi: "t1", Numero: 1,
			Config: duplicate.Config{TempsParCoup: 3 * time.Minute}, Joueurs: []string{"L1"}}))
	}
	return &Resolver{Journal: store, Registry: reg, Moteur: moteur}
}

// Issue 11 item 17: ids of games that do not exist allocate nothing that
// outlives the request, and the kept views are bounded.
func TestSecurite_VuesPartieIdsInconnus(t *testing.T) {
	r := vuesResolver(t, "p1", "p2", "p3")
	ctx := context.Background()
	for i := 0; i < 10000; i++ {
		_, err := r.vue(ctx, fmt.Sprintf("x%016x", rand.Uint64()))
		require.Equal(t, duplicate.CodeNotFound, duplicate.CodeOf(err))
	}
	assert.Zero(t, len(r.vues.entrees), "unknown games leave no entry")

	r.vues.max = 2
	for _, p := range []string{"p1", "p2", "p3", "p1"} {
		v, err := r.vue(ctx, p)
		require.NoError(t, err)
		assert.Equal(t, p, v.ID)
	}
	assert.Equal(t, 2, len(r.vues.entrees), "the least recently read view is dropped")
	assert.Nil(t, r.vues.entrees["p2"], "p2 was read least recently")
}
