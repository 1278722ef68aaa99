package graphql

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/domain/tournoi"
	tadapters "arbitre/domain/tournoi/adapters"
	tcommand "arbitre/domain/tournoi/command"
)

// lecturesEntieres is the store, counting the reads of a stream from its
// first event (a tournament replayed whole).
type lecturesEntieres struct {
	*sqlitestore.Store
	n atomic.Int32
}

func (s *lecturesEntieres) ReadStream(ctx context.Context, stream string, from uint64, limit int) ([]eventstore.Event, error) {
	if from == 0 {
		s.n.Add(1)
	}
	return s.Store.ReadStream(ctx, stream, from, limit)
}

// Issue 17: the fifty arbiters who start a coup together find the
// tournament's tables missing together; one replays the tournament, the
// others wait for it, and every one gets the tables (a bulletin's scope).
// A player registered later is seen at once.
func TestTablesDe_UneLecturePourLesArbitresQuiCommencentEnsemble(t *testing.T) {
	ctx := context.Background()
	store, err := sqlitestore.OpenDir(ctx, t.TempDir(), sqlitestore.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { store.Close() })
	reg := eventstore.NewRegistry()
	require.NoError(t, tournoi.RegisterEvents(reg))
	magasin := &lecturesEntieres{Store: store}
	depot := tadapters.NewDepot(magasin, reg)
	app := tcommand.New(depot, eventstore.Metadata{Actor: "JA"})
	require.NoError(t, app.Creer(ctx, tcommand.Creer{Tournoi: "t1", Nom: "Tournoi", Homologue: true}))
	var joueurs []tournoi.Joueur
	for i := range 200 {
		joueurs = append(joueurs, tournoi.Joueur{Licence: fmt.Sprintf("L%03d", i), Nom: "Joueur", Table: i/4 + 1})
	}
	require.NoError(t, app.InscrireTous(ctx, tcommand.InscrireTous{Tournoi: "t1", Joueurs: joueurs}))
	r := &Resolver{Journal: magasin, TournoiDepot: depot}
	magasin.n.Store(0)

	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			tables, err := r.tablesDe(ctx, "t1", []string{"L199"})
			assert.NoError(t, err)
			assert.Len(t, tables, 200)
			assert.Equal(t, 50, tables["L199"])
		})
	}
	wg.Wait()
	assert.Equal(t, int32(1), magasin.n.Load(), "one replay of the tournament for the fifty")

	require.NoError(t, app.Inscrire(ctx, tcommand.Inscrire{Tournoi: "t1", Joueur: tournoi.Joueur{Licence: "L200", Nom: "Tardif", Table: 51}}))
	tables, err := r.tablesDe(ctx, "t1", []string{"L200"})
	require.NoError(t, err)
	assert.Equal(t, 51, tables["L200"], "a later registration is read")
}
