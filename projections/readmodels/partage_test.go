package readmodels_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"arbitre/domain/catalogue"
	"arbitre/domain/duplicate"
	"arbitre/domain/duplicate/adapters"
	"arbitre/domain/duplicate/simulation"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/eventstoretest"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/engine/lexicon/libre"
	"arbitre/projections/projection"
	"arbitre/projections/readmodels"
)

// Issue 34 item 3: the read models are handed the same events, decoded
// once for all of them (feed.Livraison) and read ahead once for all of them
// (projection.Avance). An Event is handed by value, so only the bytes of
// its Data and Hash are shared: no read model may write into them. Every
// read model folds a whole simulated game, then a fresh copy of the log
// must still be what it was handed.
func TestIssue34_LesLecturesNeModifientPasLesEvenementsPartages(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	joueurs := make([]string, 6)
	for i := range joueurs {
		joueurs[i] = fmt.Sprintf("%06d", i+1)
	}
	store, registry := partieSimulee(t, ctx, dir, joueurs)

	events, err := store.ReadAll(ctx, 0, 100_000)
	require.NoError(t, err)
	require.NotEmpty(t, events)
	db, err := projection.OpenDB(filepath.Join(dir, projection.FileName))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	runners, err := readmodels.Runners(ctx, db, registry, store)
	require.NoError(t, err)
	for _, r := range runners {
		_, err := r.Apply(ctx, events)
		require.NoError(t, err, r.Name())
	}
	relus, err := store.ReadAll(ctx, 0, 100_000)
	require.NoError(t, err)
	require.Len(t, events, len(relus))
	for i, e := range events {
		require.True(t, bytes.Equal(relus[i].Data, e.Data) && bytes.Equal(relus[i].Hash, e.Hash), "the event at position %d was changed", e.Position)
	}
}

// partieSimulee is a store in dir holding a simulated duplicate game p1 of
// tournament t1 played to its end by joueurs, and the catalogue's registry.
func partieSimulee(t *testing.T, ctx context.Context, dir string, joueurs []string) (*sqlitestore.Store, *eventstore.Registry) {
	t.Helper()
	store, err := sqlitestore.OpenDir(ctx, dir, sqlitestore.Options{Clock: eventstoretest.NewStepClock(eventstoretest.Epoch)})
	require.NoError(t, err)
	t.Cleanup(func() { store.Close() })
	registry, err := catalogue.Registre()
	require.NoError(t, err)
	lex, err := libre.Lexicon()
	require.NoError(t, err)
	cfg := duplicate.Config{TempsParCoup: 3 * time.Minute, Source: duplicate.SourceLogiciel, GraineTest: new(uint64(7))}
	sim := simulation.New(lex, cfg)
	depot := adapters.NewDepot(store, registry, sim.Moteur())
	md := eventstore.Metadata{Actor: "directeur", Role: "directeur"}
	_, err = sim.Jouer(simulation.Partie{ID: "p1", Tournoi: "t1", Numero: 1, Config: cfg, Joueurs: joueurs, Graine: 7},
		func(p *duplicate.Partie) error { return depot.Enregistrer(ctx, p, md) })
	require.NoError(t, err)
	return store, registry
}
