package partie_test

import (
	"context"
	"testing"

	"arbitre/domain/classique/partie"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/eventstoretest"
	"arbitre/domain/eventstore/sqlitestore"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The client's envelope (eventstore.Commande): a retried command is applied
// once, its events carry the command id as causation, a stale version is
// refused with the current version and writes nothing.
func TestDepotHonoursTheCommandEnvelope(t *testing.T) {
	ctx := context.Background()
	store, err := sqlitestore.OpenDir(ctx, t.TempDir(), sqlitestore.Options{Clock: eventstoretest.NewStepClock(eventstoretest.Epoch)})
	require.NoError(t, err)
	defer store.Close()
	reg := eventstore.NewRegistry()
	require.NoError(t, partie.Register(reg))
	depot := partie.NewDepot(store, reg, regles(t))
	p, err := partie.Creer(regles(t), partie.Creation{Match: "m1", Joueurs: [2]string{"ana", "bob"}, Premier: "ana"})
	require.NoError(t, err)
	require.NoError(t, depot.Enregistrer(ctx, p, eventstore.Metadata{}))

	v := 1
	cmd := eventstore.AvecCommande(ctx, eventstore.Commande{ID: "tirage-1", Version: &v, Auteur: "arbitre"})
	runs := 0
	tirer := func(p *partie.Partie) error { runs++; return p.Tirer("ana", "AEIMNOS") }
	require.NoError(t, depot.Executer(cmd, "m1", eventstore.Metadata{Actor: "arbitre"}, tirer))
	require.NoError(t, depot.Executer(cmd, "m1", eventstore.Metadata{Actor: "arbitre"}, tirer), "a retry succeeds")
	assert.Equal(t, 1, runs, "and is not decided again")
	events, err := eventstore.ReadWholeStream(ctx, store, "match-m1")
	require.NoError(t, err)
	require.Len(t, events, 2)
	assert.Equal(t, "tirage-1", events[1].Metadata.CausationID)

	stale := eventstore.AvecCommande(ctx, eventstore.Commande{ID: "forfait-1", Version: &v})
	err = depot.Executer(stale, "m1", eventstore.Metadata{}, func(p *partie.Partie) error { return p.DeclarerForfait("bob") })
	current, ok := eventstore.VersionOf(err)
	require.True(t, ok, "%v", err)
	assert.Equal(t, 2, current)
	p, err = depot.Charger(ctx, "m1")
	require.NoError(t, err)
	assert.Equal(t, 2, p.Version(), "the stale command wrote nothing")
}
