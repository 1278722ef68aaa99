package simulation_test

import (
	"context"
	"testing"

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
