package acces_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/acces"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/sqlitestore"
)

// magasinDesJetons opens a SQLite store, closed at the end of the test, and
// a registry of the access events.
func magasinDesJetons(t *testing.T) (*sqlitestore.Store, *eventstore.Registry) {
	t.Helper()
	store, err := sqlitestore.OpenDir(context.Background(), t.TempDir(), sqlitestore.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { store.Close() })
	reg := eventstore.NewRegistry()
	require.NoError(t, acces.RegisterEvents(reg))
	return store, reg
}

// A token issued through the store works once the registry has followed
// the log, and stops working when revoked.
func TestServiceThroughTheStore(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	store, reg := magasinDesJetons(t)
	now := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
	registre := acces.NewRegistre()
	svc := &acces.Service{Store: store, Registry: reg, Clock: eventstore.ClockFunc(func() time.Time { return now }), Jetons: registre}

	secret, ev, err := svc.Emettre(ctx, acces.Demande{Role: acces.Arbitre, Tournoi: "T1", Tables: acces.Tables{Min: 1, Max: 40}, Duree: time.Hour},
		eventstore.Metadata{Actor: "directeur", Role: string(acces.Directeur)})
	require.NoError(t, err)

	go func() { _ = suivre(ctx, store, reg, registre) }()
	require.Eventually(t, func() bool { return registre.Existe(ev.ID) }, 5*time.Second, 5*time.Millisecond)
	h, err := registre.Authentifier(ctx, secret, now)
	require.NoError(t, err)
	assert.Equal(t, "T1", h.Tournoi)

	require.NoError(t, svc.Revoquer(ctx, acces.Habilitation{Role: acces.Directeur}, ev.ID, "", eventstore.Metadata{Actor: "directeur"}))
	assert.False(t, registre.Existe(ev.ID), "the revocation works when Revoquer returns")
	_, err = registre.Authentifier(ctx, secret, now)
	assert.ErrorContains(t, err, string(acces.CodeUnauthenticated))

	_, _, err = svc.Emettre(ctx, acces.Demande{Role: "root", Duree: time.Hour}, eventstore.Metadata{})
	var e *erreur.Erreur
	require.ErrorAs(t, err, &e)
	assert.Equal(t, acces.CodeInvalidInput, e.Code)
	assert.Equal(t, "role", e.Details["champ"])
	events, err := store.ReadAll(ctx, 0, 10)
	require.NoError(t, err)
	assert.Len(t, events, 2, "a refused request records nothing")
}

// A token another process records (another store handle, polled once an
// hour here) is known at once: an unknown secret makes the registry catch
// up with the store before refusing.
func TestSecurite_JetonDUnAutreProcessusAussitotConnu(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := t.TempDir()
	server, err := sqlitestore.OpenDir(ctx, dir, sqlitestore.Options{PollInterval: time.Hour})
	require.NoError(t, err)
	defer server.Close()
	cli, err := sqlitestore.OpenDir(ctx, dir, sqlitestore.Options{})
	require.NoError(t, err)
	defer cli.Close()
	reg := eventstore.NewRegistry()
	require.NoError(t, acces.RegisterEvents(reg))
	now := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
	clock := eventstore.ClockFunc(func() time.Time { return now })
	registre := acces.NewRegistre()
	svc := &acces.Service{Store: server, Registry: reg, Clock: clock, Jetons: registre}
	_, first, err := svc.Emettre(ctx, acces.Demande{Role: acces.Directeur, Duree: time.Hour}, eventstore.Metadata{Actor: "test"})
	require.NoError(t, err)
	go func() { _ = suivre(ctx, server, reg, registre) }()
	require.Eventually(t, func() bool { return registre.Existe(first.ID) }, 5*time.Second, 5*time.Millisecond)

	_, err = registre.Authentifier(ctx, "arb_forged", now)
	assert.EqualError(t, err, "UNAUTHENTICATED: jeton inconnu")
	secret, ev, err := (&acces.Service{Store: cli, Registry: reg, Clock: clock}).Emettre(ctx,
		acces.Demande{Role: acces.Arbitre, Tournoi: "T1", Duree: time.Hour}, eventstore.Metadata{Actor: "cli"})
	require.NoError(t, err)
	h, err := registre.Authentifier(ctx, secret, now)
	require.NoError(t, err)
	assert.Equal(t, ev.ID, h.JetonID)
}

// TestSecurite_JetonConnuDesLeDemarrage: a token recorded before the
// server started is known to its very first request, before the registry
// follows the log (acces.Brancher, called by serve before it listens).
func TestSecurite_JetonConnuDesLeDemarrage(t *testing.T) {
	ctx := context.Background()
	store, reg := magasinDesJetons(t)
	now := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
	secret, ev, err := (&acces.Service{Store: store, Registry: reg, Clock: eventstore.ClockFunc(func() time.Time { return now })}).Emettre(ctx,
		acces.Demande{Role: acces.Directeur, Duree: time.Hour}, eventstore.Metadata{Actor: "cli"})
	require.NoError(t, err)

	registre := acces.NewRegistre()
	acces.Brancher(store, reg, registre)
	h, err := registre.Authentifier(ctx, secret, now)
	require.NoError(t, err, "no Suivre yet")
	assert.Equal(t, ev.ID, h.JetonID)
}

// suivre feeds registre with the log of store, history then live, as the
// runner serve's pipeline gives it does.
func suivre(ctx context.Context, store eventstore.Store, reg *eventstore.Registry, registre *acces.Registre) error {
	acces.Brancher(store, reg, registre)
	return store.Subscribe(ctx, 0, registre.Apply)
}
