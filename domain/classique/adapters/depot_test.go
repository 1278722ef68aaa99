package adapters_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/classique/adapters"
	"arbitre/domain/classique/matchclassique"
	"arbitre/domain/classique/tournoiclassique"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/eventstoretest"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/domain/eventstore/streamname"
	"arbitre/engine/lexicon/libre"
)

func ouvrirStore(t *testing.T) (context.Context, *sqlitestore.Store, *eventstore.Registry) {
	t.Helper()
	ctx := context.Background()
	store, err := sqlitestore.OpenDir(ctx, t.TempDir(), sqlitestore.Options{Clock: eventstoretest.NewStepClock(eventstoretest.Epoch)})
	require.NoError(t, err)
	t.Cleanup(func() { store.Close() })
	reg, err := adapters.Registre()
	require.NoError(t, err)
	return ctx, store, reg
}

func TestMatchs_AllerRetourConflitEtReprise(t *testing.T) {
	ctx, store, reg := ouvrirStore(t)
	lex, err := libre.Lexicon()
	require.NoError(t, err)
	regles, err := matchclassique.NewRegles(lex)
	require.NoError(t, err)
	depot := adapters.NewMatchs(store, reg, regles)
	p := matchclassique.Nouveau(regles)
	err = p.Creer(matchclassique.Creation{Match: "x1", Joueurs: [2]string{"ana", "bob"}, Premier: "ana"})
	require.NoError(t, err)
	require.NoError(t, p.Tirer("ana", "AEINRST"))
	require.NoError(t, depot.Enregistrer(ctx, p, eventstore.Metadata{Actor: "ana"}))
	assert.Empty(t, p.Pending())

	a, err := depot.Charger(ctx, "x1")
	require.NoError(t, err)
	b, err := depot.Charger(ctx, "x1")
	require.NoError(t, err)
	assert.Equal(t, p.Chevalet(0), a.Chevalet(0))
	require.NoError(t, a.Tirer("bob", "AEINRSU"))
	require.NoError(t, b.Tirer("bob", "BCDFGHJ"))
	require.NoError(t, depot.Enregistrer(ctx, a, eventstore.Metadata{}))
	err = depot.Enregistrer(ctx, b, eventstore.Metadata{})
	assert.Equal(t, matchclassique.CodeConflict, erreur.CodeOf(err), "%v", err)
	assert.Len(t, b.Pending(), 1, "the loser's events stay new")

	// The same command retried after a lost answer is idempotent.
	c, err := depot.Charger(ctx, "x1")
	require.NoError(t, err)
	d, err := depot.Charger(ctx, "x1")
	require.NoError(t, err)
	require.NoError(t, c.Passer("ana"))
	require.NoError(t, d.Passer("ana"))
	require.NoError(t, depot.Enregistrer(ctx, c, eventstore.Metadata{}))
	require.NoError(t, depot.Enregistrer(ctx, d, eventstore.Metadata{}))
	e, err := depot.Charger(ctx, "x1")
	require.NoError(t, err)
	assert.Equal(t, c.Version(), e.Version())

	_, err = depot.Charger(ctx, "nobody")
	assert.Equal(t, matchclassique.CodeNotFound, erreur.CodeOf(err))
}

func ouvert(t *testing.T, id string, n int) *tournoiclassique.TournoiClassique {
	t.Helper()
	tr := tournoiclassique.Nouveau()
	err := tr.Ouvrir(id, "Open de test", 3, tournoiclassique.ConfigParDefaut())
	require.NoError(t, err)
	for i := range n {
		require.NoError(t, tr.Inscrire(fmt.Sprintf("p%d", i), "", 1000+10*i))
	}
	return tr
}

func TestTournois_AllerRetourEtConflit(t *testing.T) {
	ctx, store, reg := ouvrirStore(t)
	depot := adapters.NewTournois(store, reg)
	tr := ouvert(t, "open", 4)
	require.NoError(t, depot.Enregistrer(ctx, tr, eventstore.Metadata{Actor: "directeur"}))
	a, err := depot.Charger(ctx, "open")
	require.NoError(t, err)
	b, err := depot.Charger(ctx, "open")
	require.NoError(t, err)
	assert.Equal(t, tr.Inscrits(), a.Inscrits())
	require.NoError(t, a.Inscrire("p9", "", 0))
	require.NoError(t, b.Inscrire("p8", "", 0))
	require.NoError(t, depot.Enregistrer(ctx, a, eventstore.Metadata{}))
	err = depot.Enregistrer(ctx, b, eventstore.Metadata{})
	assert.Equal(t, tournoiclassique.CodeConflict, erreur.CodeOf(err), "%v", err)
	_, err = depot.Charger(ctx, "nobody")
	assert.Equal(t, tournoiclassique.CodeNotFound, erreur.CodeOf(err))
}

// One id names one tournament: a new classique tournament may not take the
// id of a duplicate tournament, and nothing is written.
func TestTournois_IdentifiantDuplicatePris(t *testing.T) {
	ctx, store, reg := ouvrirStore(t)
	stream, err := streamname.TournoiStream("open")
	require.NoError(t, err)
	_, err = store.Append(ctx, stream, eventstore.NoStream, eventstoretest.Events(1)...)
	require.NoError(t, err)
	depot := adapters.NewTournois(store, reg)
	tr := ouvert(t, "open", 0)
	err = depot.Enregistrer(ctx, tr, eventstore.Metadata{})
	assert.Equal(t, tournoiclassique.CodeIdTaken, erreur.CodeOf(err), "%v", err)
	_, err = depot.Charger(ctx, "open")
	assert.Equal(t, tournoiclassique.CodeNotFound, erreur.CodeOf(err), "nothing written")
}
