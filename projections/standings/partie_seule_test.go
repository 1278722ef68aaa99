package standings_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/duplicate"
	"arbitre/domain/duplicate/command"
	"arbitre/domain/eventstore"
	"arbitre/domain/tournoi"
	"arbitre/projections/standings"
)

// TestIssue34_ClassementDUnePartieSansLesAutres: the standings of one game
// are read without the bulletins of the tournament's other games (a hall's
// live game no longer decodes the 2,000 players' decisions of the games
// before it at each change), and give the figures of the in-memory fold
// all the same — an exclusion decided in game 1 that annuls the player's
// earlier games (§6.1) does not annul his game 2, which needs game 1's
// number while its bulletins are not read.
func TestIssue34_ClassementDUnePartieSansLesAutres(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Second)
	defer cancel()
	store, r, live, _, stop := enDirect(t, ctx)

	app, licences := tournoiJusquA(t, ctx, store, r, 8, 2)
	fraudeur := licences[0]
	require.NoError(t, app.CreerPartie(ctx, command.CreerPartie{Partie: "t1-2", Tournoi: "t1", Numero: 2, Joueurs: licences,
		Config: duplicate.Config{TempsParCoup: 3 * time.Minute, Source: duplicate.SourceLogiciel, GraineTest: new(uint64(8))}}))
	require.NoError(t, app.Tirer(ctx, command.Tirer{Partie: "t1-2"}))
	d, err := r.NewEventData(uuid.NewSHA1(uuid.NameSpaceOID, []byte("tournoi-t1/exclusion")), tournoi.JoueurExclu{Licence: fraudeur, Partie: "t1-1",
		Motif: "fraude avérée", AnnulerParties: true}, eventstore.Metadata{Actor: "directeur", Role: "directeur"})
	require.NoError(t, err)
	_, err = store.Append(ctx, "tournoi-t1", eventstore.Any, d)
	require.NoError(t, err)
	attendreTete(t, ctx, store, live)
	require.NoError(t, stop())

	fold, err := standings.Reconstruire(ctx, store, r)
	require.NoError(t, err)
	for _, tt := range []struct {
		partie string
		exclu  bool
	}{{"t1-1", true}, {"t1-2", false}} {
		lues, err := standings.NewLecteur(live).Partie(ctx, tt.partie, standings.Public)
		require.NoError(t, err)
		memoire, err := fold.Partie(tt.partie)
		require.NoError(t, err)
		assert.Equal(t, memoire, lues, tt.partie)
		assert.Equal(t, tt.exclu, ligneDe(t, lues, fraudeur).Exclu, tt.partie)
	}
}

// BenchmarkIssue34_ClassementDUnePartieEnDirect: the standings of a live
// game read from the projection (what the displays' classementChange reads
// at each change), beside a whole game of 400 players played before it in
// the same tournament.
func BenchmarkIssue34_ClassementDUnePartieEnDirect(b *testing.B) {
	ctx := context.Background()
	store, r, live, _, stop := enDirect(b, ctx)
	app, licences := tournoiJusquA(b, ctx, store, r, 400, 0)
	require.NoError(b, app.CreerPartie(ctx, command.CreerPartie{Partie: "t1-2", Tournoi: "t1", Numero: 2, Joueurs: licences,
		Config: duplicate.Config{TempsParCoup: 3 * time.Minute, Source: duplicate.SourceLogiciel, GraineTest: new(uint64(8))}}))
	require.NoError(b, app.Tirer(ctx, command.Tirer{Partie: "t1-2"}))
	attendreTete(b, ctx, store, live)
	require.NoError(b, stop())
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		lignes, err := standings.NewLecteur(live).Partie(ctx, "t1-2", standings.Public)
		if err != nil || len(lignes) != len(licences) {
			b.Fatal(err, len(lignes))
		}
	}
}
