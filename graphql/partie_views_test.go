package graphql

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/duplicate"
	dupadapters "arbitre/domain/duplicate/adapters"
	dupcommand "arbitre/domain/duplicate/command"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/eventstoretest"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/engine/lexicon/libre"
	"arbitre/projections/parties"
	"arbitre/projections/projection"
)

// vuesResolver is a resolver reading games' views from the parties
// projection of a fresh store, with the given games created.
func vuesResolver(t *testing.T, ids ...string) (*Resolver, *dupcommand.Application) {
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
	for _, p := range ids {
		require.NoError(t, app.CreerPartie(ctx, dupcommand.CreerPartie{Partie: p, Tournoi: "t1", Numero: 1,
			Config: duplicate.Config{TempsParCoup: 3 * time.Minute, Source: duplicate.SourceLogiciel, GraineTest: new(uint64(7))}, Joueurs: []string{"L1"}}))
	}
	db, err := projection.OpenDB(filepath.Join(t.TempDir(), projection.FileName))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	p, err := parties.NewProjection(projection.Journal{Store: store, Registry: reg})
	require.NoError(t, err)
	run, err := projection.NewRunner(ctx, db, p, store)
	require.NoError(t, err)
	_, err = run.CatchUp(ctx, nil)
	require.NoError(t, err)
	return &Resolver{Journal: store, Registry: reg, Moteur: moteur, PartiesRunner: run, vues: parties.NewLecteur(run, modelePartie, 0), Head: store.LastPosition}, app
}

// Issue 11 item 17: ids of games that do not exist allocate nothing that
// outlives the request, and the kept views are bounded.
func TestSecurite_VuesPartieIdsInconnus(t *testing.T) {
	r, _ := vuesResolver(t, "p1", "p2", "p3")
	ctx := context.Background()
	for i := 0; i < 10000; i++ {
		_, err := r.vue(ctx, fmt.Sprintf("x%016x", rand.Uint64()), 0)
		require.Equal(t, duplicate.CodeNotFound, erreur.CodeOf(err))
	}
	assert.Zero(t, r.vues.Gardees(), "unknown games leave no entry")

	r.vues = parties.NewLecteur(r.PartiesRunner, modelePartie, 2)
	for _, p := range []string{"p1", "p2", "p3", "p1"} {
		v, err := r.vue(ctx, p, 0)
		require.NoError(t, err)
		assert.Equal(t, p, v.ID)
	}
	assert.Equal(t, 2, r.vues.Gardees(), "the least recently read view is dropped")
	assert.False(t, r.vues.Gardee("p2"), "p2 was read least recently")
}

// A game's view is served from the parties projection: read again once the
// projection has applied the game's new events, and not read at all while
// the projection has not moved.
func TestVuesPartieDepuisLaProjection(t *testing.T) {
	r, app := vuesResolver(t, "p1")
	ctx := context.Background()
	v, err := r.vue(ctx, "p1", 0)
	require.NoError(t, err)
	assert.Equal(t, duplicate.StatutAttenteTirage, v.Statut)
	assert.Nil(t, v.Tirage)

	require.NoError(t, app.Tirer(ctx, dupcommand.Tirer{Partie: "p1"}))
	_, err = r.PartiesRunner.CatchUp(ctx, nil)
	require.NoError(t, err)
	v, err = r.vue(ctx, "p1", 0)
	require.NoError(t, err)
	assert.Equal(t, duplicate.StatutTirage, v.Statut, "the new tirage is seen")
	require.NotNil(t, v.Tirage)
	assert.Equal(t, 2, v.Version)

	require.NoError(t, r.PartiesRunner.Base().Close())
	encore, err := r.vue(ctx, "p1", 0)
	require.NoError(t, err, "nothing changed: the kept view is served without reading the projection")
	assert.Same(t, v, encore)
}

// Right after a start, the archive's queries wait (as long as the request may last)
// for the read models to reach the log's head instead of answering from
// projections still catching up: a stored tournament is never NOT_FOUND
// for that reason.
func TestArchiveAJour_AttendLesProjectionsEnRetard(t *testing.T) {
	r, app := vuesResolver(t, "p1")
	ctx := context.Background()
	require.NoError(t, app.Tirer(ctx, dupcommand.Tirer{Partie: "p1"}))
	head, err := r.Head(ctx)
	require.NoError(t, err)
	require.Less(t, r.PartiesRunner.Position(), head, "the projection is behind the log")
	r.Lectures = []*projection.Runner{r.PartiesRunner}
	go func() {
		time.Sleep(100 * time.Millisecond)
		_, _ = r.PartiesRunner.CatchUp(ctx, nil)
	}()
	require.NoError(t, r.archiveAJour(ctx))
	assert.Equal(t, head, r.PartiesRunner.Position(), "answered once the projection reached the head")
}
