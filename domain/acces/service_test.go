package acces_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/acces"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/sqlitestore"
)

// A token issued through the store works once the registry has followed
// the log, and stops working when revoked.
func TestServiceThroughTheStore(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	store, err := sqlitestore.OpenDir(ctx, t.TempDir(), sqlitestore.Options{})
	require.NoError(t, err)
	defer store.Close()
	reg := eventstore.NewRegistry()
	require.NoError(t, acces.RegisterEvents(reg))
	now := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
	svc := &acces.Service{Store: store, Registry: reg, Clock: eventstore.ClockFunc(func() time.Time { return now })}

	secret, ev, err := svc.Emettre(ctx, acces.Demande{Role: acces.Arbitre, Tournoi: "T1", Tables: acces.Tables{Min: 1, Max: 40}, Duree: time.Hour},
		eventstore.Metadata{Actor: "directeur", Role: string(acces.Directeur)})
	require.NoError(t, err)

	registre := acces.NewRegistre()
	go func() { _ = acces.Suivre(ctx, store, reg, registre) }()
	require.Eventually(t, func() bool { return registre.Existe(ev.ID) }, 5*time.Second, 5*time.Millisecond)
	h, err := registre.Authentifier(secret, now)
	require.NoError(t, err)
	assert.Equal(t, "T1", h.Tournoi)

	require.NoError(t, svc.Revoquer(ctx, "T1", ev.ID, eventstore.Metadata{Actor: "directeur"}))
	require.Eventually(t, func() bool { return !registre.Existe(ev.ID) }, 5*time.Second, 5*time.Millisecond)
	_, err = registre.Authentifier(secret, now)
	assert.Error(t, err)

	_, _, err = svc.Emettre(ctx, acces.Demande{Role: "root", Duree: time.Hour}, eventstore.Metadata{})
	assert.Error(t, err)
	events, err := store.ReadAll(ctx, 0, 10)
	require.NoError(t, err)
	assert.Len(t, events, 2, "a refused request records nothing")
}
