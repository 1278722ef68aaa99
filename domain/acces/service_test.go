package acces_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/acces"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/projections/projection"
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
	require.NoError(t, brancher(ctx, store, reg, registre))
	h, err := registre.Authentifier(ctx, secret, now)
	require.NoError(t, err, "no Suivre yet")
	assert.Equal(t, ev.ID, h.JetonID)
}

// brancher gives registre its runner on store, as the server does
// (graphql.NewResolver).
func brancher(ctx context.Context, store eventstore.Store, reg *eventstore.Registry, registre *acces.Registre) error {
	run, err := projection.NewRunnerEnMemoire(ctx, registre, store)
	if err != nil {
		return err
	}
	acces.Brancher(reg, run, registre)
	return nil
}

// suivre feeds registre with the log of store, history then live, as the
// runner serve's pipeline gives it does.
func suivre(ctx context.Context, store eventstore.Store, reg *eventstore.Registry, registre *acces.Registre) error {
	if err := brancher(ctx, store, reg, registre); err != nil {
		return err
	}
	return store.Subscribe(ctx, 0, registre.Apply)
}

// lectures counts the reads of the log a runner makes to catch up.
type lectures struct {
	eventstore.Store
	n atomic.Int64
}

func (l *lectures) ReadAllAfter(ctx context.Context, after uint64, limit int) ([]eventstore.Event, error) {
	l.n.Add(1)
	return l.Store.ReadAllAfter(ctx, after, limit)
}

// TestSecurite_JetonsInconnusEnRafale: a flood of forged tokens does not
// make each request read the log. The registry catches up through its
// runner, as every read model does, at most once per IntervalleRattrapage,
// and a catch-up that began after a caller arrived answers it: 64 callers
// at once cost a few reads, not 64.
func TestSecurite_JetonsInconnusEnRafale(t *testing.T) {
	ctx := context.Background()
	store, reg := magasinDesJetons(t)
	now := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
	_, _, err := (&acces.Service{Store: store, Registry: reg, Clock: eventstore.ClockFunc(func() time.Time { return now })}).Emettre(ctx,
		acces.Demande{Role: acces.Directeur, Duree: time.Hour}, eventstore.Metadata{Actor: "cli"})
	require.NoError(t, err)
	compte := &lectures{Store: store}
	registre := acces.NewRegistre()
	require.NoError(t, brancher(ctx, compte, reg, registre))

	const appelants = 64
	var wg sync.WaitGroup
	for i := range appelants {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := registre.Authentifier(ctx, fmt.Sprintf("arb_forged%d", i), now)
			assert.EqualError(t, err, "UNAUTHENTICATED: jeton inconnu")
		}()
	}
	wg.Wait()
	assert.LessOrEqual(t, compte.n.Load(), int64(appelants/4), "the log is read once per interval, not once per request")
	assert.Positive(t, compte.n.Load(), "an unknown token makes the registry catch up")
}
