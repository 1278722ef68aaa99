package command_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/idempotency"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/domain/tournoi"
	"arbitre/domain/tournoi/adapters"
	"arbitre/domain/tournoi/command"
)

func setup(t *testing.T) (*command.Application, *adapters.Depot, eventstore.Store) {
	store, err := sqlitestore.OpenDir(context.Background(), t.TempDir(), sqlitestore.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { store.Close() })
	reg := eventstore.NewRegistry()
	require.NoError(t, tournoi.RegisterEvents(reg))
	depot := adapters.NewDepot(store, reg)
	return command.New(depot, eventstore.Metadata{Actor: "directeur"}), depot, store
}

// codeDe is the code of a tournament error; any other error fails the test.
func codeDe(t *testing.T, err error) string {
	t.Helper()
	var e *erreur.Erreur
	require.ErrorAs(t, err, &e)
	return string(e.Code)
}

func TestTournamentLifecycle(t *testing.T) {
	ctx := context.Background()
	app, depot, store := setup(t)
	require.NoError(t, app.Creer(ctx, command.Creer{Tournoi: "T1", Nom: "Festival de Vichy", Homologue: true}))
	require.NoError(t, app.Inscrire(ctx, command.Inscrire{Tournoi: "T1", Joueur: tournoi.Joueur{Licence: "12345", Nom: "Dupont", Club: "Vichy", Serie: "A", Table: 3}}))
	require.NoError(t, app.AjouterPartie(ctx, command.AjouterPartie{Tournoi: "T1", Partie: "T1-1"}))

	before, err := store.ReadAll(ctx, 0, 100)
	require.NoError(t, err)
	for _, bad := range []struct {
		code string
		f    func() error
	}{
		{"INVALID_TOURNAMENT", func() error { return app.Creer(ctx, command.Creer{Tournoi: "T1", Nom: "encore", Homologue: true}) }},
		{"INVALID_PLAYER", func() error {
			return app.Inscrire(ctx, command.Inscrire{Tournoi: "T1", Joueur: tournoi.Joueur{Licence: "12345", Nom: "Autre"}})
		}},
		{"NOT_FOUND", func() error {
			return app.Inscrire(ctx, command.Inscrire{Tournoi: "T2", Joueur: tournoi.Joueur{Licence: "1", Nom: "X"}})
		}},
		{"ALREADY_EXISTS", func() error { return app.AjouterPartie(ctx, command.AjouterPartie{Tournoi: "T1", Partie: "T1-1"}) }},
		{"INVALID_TOURNAMENT", func() error { return app.Creer(ctx, command.Creer{Tournoi: "bad id!", Nom: "x", Homologue: true}) }},
	} {
		assert.Equal(t, bad.code, codeDe(t, bad.f()))
	}
	after, err := store.ReadAll(ctx, 0, 100)
	require.NoError(t, err)
	assert.Equal(t, before, after, "refused commands write nothing")

	tt, err := depot.Charger(ctx, "T1")
	require.NoError(t, err)
	assert.Equal(t, "Festival de Vichy", tt.Nom())
	assert.Equal(t, []string{"T1-1"}, tt.Parties())
	assert.Equal(t, 3, tt.Joueurs()[0].Table)
}

// Two directors registering at once on the same revision: one wins, the
// other gets CONFLICT and writes nothing.
func TestConcurrentWritersConflict(t *testing.T) {
	ctx := context.Background()
	app, depot, _ := setup(t)
	require.NoError(t, app.Creer(ctx, command.Creer{Tournoi: "T1", Nom: "Open", Homologue: true}))
	a, err := depot.Charger(ctx, "T1")
	require.NoError(t, err)
	b, err := depot.Charger(ctx, "T1")
	require.NoError(t, err)
	require.NoError(t, a.Inscrire(tournoi.Joueur{Licence: "1", Nom: "A"}))
	require.NoError(t, b.Inscrire(tournoi.Joueur{Licence: "2", Nom: "B"}))
	require.NoError(t, depot.Enregistrer(ctx, a, eventstore.Metadata{}))
	err = depot.Enregistrer(ctx, b, eventstore.Metadata{})
	assert.ErrorIs(t, err, eventstore.ErrConflict)
	now, err := depot.Charger(ctx, "T1")
	require.NoError(t, err)
	assert.Len(t, now.Joueurs(), 1)
}

// A retried command (same client mutation id) is applied once; a stale
// version is refused with the current version.
func TestIdempotenceAndVersion(t *testing.T) {
	app, depot, store := setup(t)
	base := context.Background()
	require.NoError(t, app.Creer(idempotency.WithCommand(base, idempotency.Command{ID: "m1"}), command.Creer{Tournoi: "T1", Nom: "Open", Homologue: true}))
	one := 1
	ctx := idempotency.WithCommand(base, idempotency.Command{ID: "m2", Version: &one, Author: "directeur"})
	j := tournoi.Joueur{Licence: "1", Nom: "A"}
	require.NoError(t, app.Inscrire(ctx, command.Inscrire{Tournoi: "T1", Joueur: j}))
	require.NoError(t, app.Inscrire(ctx, command.Inscrire{Tournoi: "T1", Joueur: j}), "the retry succeeds")
	tt, err := depot.Charger(base, "T1")
	require.NoError(t, err)
	assert.Len(t, tt.Joueurs(), 1, "and is applied once")

	stale := idempotency.WithCommand(base, idempotency.Command{ID: "m3", Version: &one})
	err = app.Inscrire(stale, command.Inscrire{Tournoi: "T1", Joueur: tournoi.Joueur{Licence: "2", Nom: "B"}})
	require.ErrorIs(t, err, eventstore.ErrConflict)
	v, _ := idempotency.VersionOf(err)
	assert.Equal(t, 2, v)
	events, err := store.ReadAll(base, 0, 10)
	require.NoError(t, err)
	assert.Len(t, events, 2)
	assert.Equal(t, "m2", events[1].Metadata.CausationID)
}

// §6.1: an excluded player is left out of the tournament's later games,
// once, with a reason.
func TestExclusion_Article6_1(t *testing.T) {
	ctx := context.Background()
	app, depot, _ := setup(t)
	require.NoError(t, app.Creer(ctx, command.Creer{Tournoi: "T1", Nom: "Open", Homologue: true}))
	for _, l := range []string{"1", "2", "3"} {
		require.NoError(t, app.Inscrire(ctx, command.Inscrire{Tournoi: "T1", Joueur: tournoi.Joueur{Licence: l, Nom: "J" + l}}))
	}
	assert.Equal(t, "INVALID_SANCTION", codeDe(t, app.Exclure(ctx, command.Exclure{Tournoi: "T1", Licence: "2", Partie: "T1-1"})), "a reason is required")
	assert.Equal(t, "UNKNOWN_PLAYER", codeDe(t, app.Exclure(ctx, command.Exclure{Tournoi: "T1", Licence: "9", Partie: "T1-1", Motif: "fraude"})), "unknown player")
	require.NoError(t, app.Exclure(ctx, command.Exclure{Tournoi: "T1", Licence: "2", Partie: "T1-1", Motif: "fraude avérée"}))
	assert.Equal(t, "EXCLUDED", codeDe(t, app.Exclure(ctx, command.Exclure{Tournoi: "T1", Licence: "2", Partie: "T1-1", Motif: "fraude avérée"})), "once")
	tt, err := depot.Charger(ctx, "T1")
	require.NoError(t, err)
	assert.True(t, tt.Exclu("2"))
	assert.Equal(t, []string{"1", "3"}, tt.Participants())
	assert.Len(t, tt.Joueurs(), 3, "still registered: his past games stay in the archive")
}
