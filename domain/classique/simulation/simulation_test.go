package simulation_test

import (
	"context"
	"testing"

	"arbitre/domain/classique/partie"
	"arbitre/domain/classique/simulation"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/eventstoretest"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/engine/lexicon/libre"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSimulationIsDeterministicPerSeed(t *testing.T) {
	ctx := context.Background()
	lex, err := libre.Lexicon()
	require.NoError(t, err)
	logs := make([][]eventstore.Event, 2)
	for i, workers := range []int{1, 2} {
		store, err := sqlitestore.OpenDir(ctx, t.TempDir(), sqlitestore.Options{Clock: eventstoretest.NewStepClock(eventstoretest.Epoch)})
		require.NoError(t, err)
		defer store.Close()
		bilan, err := simulation.Simuler(ctx, store, lex, simulation.Config{Tournoi: "t", Joueurs: 9, Rondes: 3, Seed: 5, Workers: workers,
			Comportement: simulation.ComportementParDefaut()})
		require.NoError(t, err)
		assert.Equal(t, 12, bilan.Parties)
		assert.Equal(t, 3, bilan.Exempts, "odd count: one bye per round")
		logs[i], err = store.ReadAll(ctx, 1, 100000)
		require.NoError(t, err)
	}
	require.Equal(t, len(logs[0]), len(logs[1]))
	for i := range logs[0] {
		a, b := logs[0][i], logs[1][i]
		assert.Equal(t, [4]any{a.ID, a.Stream, a.Type, string(a.Data)}, [4]any{b.ID, b.Stream, b.Type, string(b.Data)})
	}
}

func TestMatchDepotRoundTripConflictAndRetry(t *testing.T) {
	ctx := context.Background()
	store, err := sqlitestore.OpenDir(ctx, t.TempDir(), sqlitestore.Options{})
	require.NoError(t, err)
	defer store.Close()
	lex, err := libre.Lexicon()
	require.NoError(t, err)
	regles, err := partie.NewRegles(lex)
	require.NoError(t, err)
	reg := eventstore.NewRegistry()
	require.NoError(t, partie.Register(reg))
	depot := partie.NewDepot(store, reg, regles)
	p, err := partie.Creer(regles, partie.Creation{Match: "x1", Joueurs: [2]string{"ana", "bob"}, Premier: "ana"})
	require.NoError(t, err)
	require.NoError(t, p.Tirer("ana", "AEINRST"))
	require.NoError(t, depot.Enregistrer(ctx, p, eventstore.Metadata{Actor: "ana"}))
	assert.Empty(t, p.Nouveaux())

	a, err := depot.Charger(ctx, "x1")
	require.NoError(t, err)
	b, err := depot.Charger(ctx, "x1")
	require.NoError(t, err)
	assert.Equal(t, p.Chevalet(0), a.Chevalet(0))
	require.NoError(t, a.Tirer("bob", "AEINRSU"))
	require.NoError(t, b.Tirer("bob", "BCDFGHJ"))
	require.NoError(t, depot.Enregistrer(ctx, a, eventstore.Metadata{}))
	err = depot.Enregistrer(ctx, b, eventstore.Metadata{})
	assert.Equal(t, partie.CodeConflict, partie.CodeOf(err), "%v", err)

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
	assert.Equal(t, partie.CodeNotFound, partie.CodeOf(err))
}
