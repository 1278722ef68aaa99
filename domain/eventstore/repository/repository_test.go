package repository_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/idempotency"
	"arbitre/domain/eventstore/repository"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/domain/eventstore/streamname"
	"arbitre/domain/tournoi"
)

// TestDepot_ConflitGardeLesNouveaux: the one repository appends an
// aggregate's new events and only then forgets them; a concurrent writer
// gets a conflict, nothing is written and the loser's events stay new.
func TestDepot_ConflitGardeLesNouveaux(t *testing.T) {
	ctx := context.Background()
	store, err := sqlitestore.OpenDir(ctx, t.TempDir(), sqlitestore.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { store.Close() })
	reg := eventstore.NewRegistry()
	require.NoError(t, tournoi.RegisterEvents(reg))
	depot := repository.Repository[*tournoi.Tournoi]{Streams: repository.Streams{Store: store, Registry: reg}, New: tournoi.Nouveau}
	stream, err := streamname.TournoiStream("t1")
	require.NoError(t, err)
	md := eventstore.Metadata{Actor: "directeur"}

	vide, err := depot.Load(ctx, stream)
	require.NoError(t, err)
	assert.Zero(t, vide.Version(), "an empty stream gives a new aggregate")

	tr := tournoi.Nouveau()
	require.NoError(t, tr.Creer("t1", "Open", true))
	require.NoError(t, depot.Save(ctx, stream, tr, md))
	assert.Empty(t, tr.Pending(), "saved, no longer new")

	gagnant, err := depot.Load(ctx, stream)
	require.NoError(t, err)
	perdant, err := depot.Load(ctx, stream)
	require.NoError(t, err)
	require.NoError(t, gagnant.Inscrire(tournoi.Joueur{Licence: "1", Nom: "A"}))
	require.NoError(t, perdant.Inscrire(tournoi.Joueur{Licence: "2", Nom: "B"}))
	require.NoError(t, depot.Save(ctx, stream, gagnant, md))
	require.ErrorIs(t, depot.Save(ctx, stream, perdant, md), eventstore.ErrConflict)
	assert.Len(t, perdant.Pending(), 1, "the refused events stay new")

	relu, err := depot.Load(ctx, stream)
	require.NoError(t, err)
	assert.Equal(t, 2, relu.Version())
	assert.Equal(t, []tournoi.Joueur{{Licence: "1", Nom: "A"}}, relu.Joueurs())
}

// Issue 34 item 3: the repository's save carries the command's key and
// request to the store, which refuses another request under a used key on
// any stream, without the API's check before it (two requests at the same
// instant): the refused aggregate's events stay new, nothing is written.
func TestIssue34_SauvegardeSousUneCleReutiliseeRefusee(t *testing.T) {
	ctx := context.Background()
	store, err := sqlitestore.OpenDir(ctx, t.TempDir(), sqlitestore.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { store.Close() })
	reg := eventstore.NewRegistry()
	require.NoError(t, tournoi.RegisterEvents(reg))
	depot := repository.Repository[*tournoi.Tournoi]{Streams: repository.Streams{Store: store, Registry: reg}, New: tournoi.Nouveau}
	md := eventstore.Metadata{Actor: "jeton:1"}
	creer := func(id, requete string) (*tournoi.Tournoi, error) {
		stream, err := streamname.TournoiStream(id)
		require.NoError(t, err)
		tr := tournoi.Nouveau()
		require.NoError(t, tr.Creer(id, "Open", true))
		return tr, depot.Save(idempotency.WithCommand(ctx, idempotency.Command{ID: "k1", Author: "jeton:1", Request: requete}), stream, tr, md)
	}
	_, err = creer("t1", "creerTournoi:t1")
	require.NoError(t, err)
	perdant, err := creer("t2", "creerTournoi:t2")
	require.ErrorIs(t, err, idempotency.ErrKeyReused)
	assert.Len(t, perdant.Pending(), 1, "the refused events stay new")
	stream, err := streamname.TournoiStream("t2")
	require.NoError(t, err)
	relu, err := depot.Load(ctx, stream)
	require.NoError(t, err)
	assert.Zero(t, relu.Version(), "nothing written")
}
