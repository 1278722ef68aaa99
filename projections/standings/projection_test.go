package standings_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/duplicate"
	"arbitre/domain/duplicate/adapters"
	"arbitre/domain/duplicate/command"
	"arbitre/domain/duplicate/simulation"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/eventstoretest"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/domain/tournoi"
	"arbitre/engine/correction"
	"arbitre/engine/lexicon/libre"
	"arbitre/projections/pipeline"
	"arbitre/projections/projection"
	"arbitre/projections/standings"
)

func registre(t testing.TB) *eventstore.Registry {
	t.Helper()
	r, err := adapters.Registre()
	require.NoError(t, err)
	require.NoError(t, tournoi.RegisterEvents(r))
	return r
}

func runner(t testing.TB, store eventstore.Reader, r *eventstore.Registry) (*projection.Runner, *sql.DB) {
	t.Helper()
	db, err := projection.OpenDB(filepath.Join(t.TempDir(), projection.FileName))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	p, err := standings.NewProjection(projection.Journal{Store: store, Registry: r})
	require.NoError(t, err)
	run, err := projection.NewRunner(context.Background(), db, p, store)
	require.NoError(t, err)
	return run, db
}

// tournoiSimule records a tournament of n players (tables and arbiters of
// the simulated hall) and plays one game.
func tournoiSimule(t *testing.T, ctx context.Context, store eventstore.Store, r *eventstore.Registry, n int) (*command.Application, []string) {
	t.Helper()
	return tournoiJusquA(t, ctx, store, r, n, 0)
}

// errArret stops a simulated game.
var errArret = errors.New("arrêt de la simulation")

// tournoiJusquA is tournoiSimule stopped once coup arret is topped and
// corrected (the whole game when arret is 0).
func tournoiJusquA(t testing.TB, ctx context.Context, store eventstore.Store, r *eventstore.Registry, n, arret int) (*command.Application, []string) {
	t.Helper()
	lex, err := libre.Lexicon()
	require.NoError(t, err)
	tr := tournoi.Nouveau()
	require.NoError(t, tr.Creer("t1", "Tournoi d'essai", true))
	licences := make([]string, n)
	for i := range licences {
		licences[i] = fmt.Sprintf("%06d", i+1)
		table, arbitre := simulation.Placement(i)
		require.NoError(t, tr.Inscrire(tournoi.Joueur{Licence: licences[i], Nom: licences[i], Serie: fmt.Sprint(1 + i%3), Table: table, Arbitre: arbitre}))
	}
	require.NoError(t, tr.AjouterPartie("t1-1"))
	md := eventstore.Metadata{Actor: "directeur", Role: "directeur"}
	var data []eventstore.EventData
	for i, e := range tr.Pending() {
		d, err := r.NewEventData(uuid.NewSHA1(uuid.NameSpaceOID, fmt.Appendf(nil, "tournoi-t1/%d", i)), e, md)
		require.NoError(t, err)
		data = append(data, d)
	}
	_, err = store.Append(ctx, "tournoi-t1", eventstore.NoStream, data...)
	require.NoError(t, err)
	cfg := duplicate.Config{TempsParCoup: 3 * time.Minute, Source: duplicate.SourceLogiciel, GraineTest: new(uint64(7))}
	sim := simulation.New(lex, cfg)
	depot := adapters.NewDepot(store, r, sim.Moteur())
	_, err = sim.Jouer(simulation.Partie{ID: "t1-1", Tournoi: "t1", Numero: 1, Config: cfg, Joueurs: licences, Graine: 7},
		func(p *duplicate.Partie) error {
			if err := depot.Enregistrer(ctx, p, md); err != nil {
				return err
			}
			if _, ok := p.Top(arret); ok && p.Statut() == duplicate.StatutTop {
				return errArret
			}
			return nil
		})
	if arret == 0 || !errors.Is(err, errArret) {
		require.NoError(t, err)
	}
	return command.New(depot, sim.Moteur(), eventstoretest.NewStepClock(eventstoretest.Epoch), md), licences
}

// The standings maintained live through the watermill pipeline equal a
// rebuild from position zero byte for byte, and give exactly the figures
// of the in-memory fold, including after a commission decision on appeal
// (§6.3) that changes a score only through a new event.
func TestStandingsLiveEgalReconstruction(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Second)
	defer cancel()
	store, r, live, liveDB, stop := enDirect(t, ctx)

	app, licences := tournoiSimule(t, ctx, store, r, 20)
	attendre := func() { attendreTete(t, ctx, store, live) }
	attendre()
	avant, err := standings.NewLecteur(live).Cumul(ctx, "t1", standings.Public)
	require.NoError(t, err)

	// §6.3: the commission pays the top of coup 1 to a player paid less.
	p, err := adapters.NewDepot(store, r, nil).Charger(ctx, "t1-1")
	require.NoError(t, err)
	top, _ := p.Top(1)
	cible := ""
	var ancienne correction.Decision
	for _, l := range licences {
		if d, ok := p.Decision(1, l); ok && d.Sanction == correction.None && d.Paid < top.Score && cible == "" {
			cible, ancienne = l, d
		}
	}
	require.NotEmpty(t, cible)
	paye := top.Score
	nouvelle := correction.Decision{Paid: top.Score, Sanction: correction.None, Reasons: []correction.Reason{}, Place: top.Ref, ScoreWrittenBack: &paye}
	require.NoError(t, app.DeciderAppel(ctx, command.DeciderAppel{Tournoi: "t1", Partie: "t1-1", Coup: 1, Licence: cible, Appel: "ap1",
		Issue: duplicate.AppelAccueilli, Decision: &nouvelle, Motif: "le mot est valable"}))
	attendre()
	require.NoError(t, stop())

	apres, err := standings.NewLecteur(live).Cumul(ctx, "t1", standings.Public)
	require.NoError(t, err)
	assert.Equal(t, score(avant, cible)+top.Score-ancienne.Paid, score(apres, cible),
		"§6.3 the commission's decision changes the score through a new event")

	fold, err := standings.Reconstruire(ctx, store, r)
	require.NoError(t, err)
	memoire, err := fold.Cumul()
	require.NoError(t, err)
	assert.Equal(t, memoire, apres, "projection and in-memory fold give the same figures")
	parPartie, err := standings.NewLecteur(live).Partie(ctx, "t1-1", standings.Public)
	require.NoError(t, err)
	memPartie, err := fold.Partie("t1-1")
	require.NoError(t, err)
	assert.Equal(t, memPartie, parPartie)

	rebuilt, rebuiltDB := runner(t, store, r)
	_, err = rebuilt.Rebuild(ctx, nil)
	require.NoError(t, err)
	assert.Equal(t, dump(t, liveDB), dump(t, rebuiltDB), "rebuild from position zero is byte-identical")
	enMemoireEgal(t, ctx, store, r, liveDB)

	all, err := store.ReadAll(ctx, 0, 100000)
	require.NoError(t, err)
	n, err := rebuilt.Apply(ctx, all)
	require.NoError(t, err)
	assert.Zero(t, n, "idempotent: a redelivered log applies nothing")
	assert.Equal(t, dump(t, liveDB), dump(t, rebuiltDB))
}

// enMemoireEgal rebuilds the standings in one pass folded in memory
// (projection.RebuildAll, issue 16 item 10), with the events decoded once
// by the rebuild or, given no registry, by the projection, and checks that
// it writes the tables of liveDB byte for byte.
func enMemoireEgal(t *testing.T, ctx context.Context, store eventstore.Reader, r *eventstore.Registry, liveDB *sql.DB) {
	t.Helper()
	for _, decodeur := range []*eventstore.Registry{r, nil} {
		folded, foldedDB := runner(t, store, r)
		_, err := projection.RebuildAll(ctx, store, decodeur, []*projection.Runner{folded}, nil)
		require.NoError(t, err)
		assert.Equal(t, dump(t, liveDB), dump(t, foldedDB), "the rebuild folded in memory is byte-identical (decoded by the rebuild: %v)", decodeur != nil)
	}
}

func score(ls []standings.Ligne, licence string) int {
	for _, l := range ls {
		if l.Licence == licence {
			return l.Score
		}
	}
	return -1
}

func dump(t *testing.T, db *sql.DB) string {
	t.Helper()
	out, err := projection.Dump(context.Background(), db)
	require.NoError(t, err)
	return string(out)
}

// attendreTete waits until the live projection has applied the store's last
// event.
func attendreTete(t testing.TB, ctx context.Context, store *sqlitestore.Store, live *projection.Runner) {
	t.Helper()
	last, err := store.LastPosition(ctx)
	require.NoError(t, err)
	wait, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	require.NoError(t, live.Attendre(wait, last), "the live projection reaches the head")
}

// magasin opens a SQLite store on a step clock, closed at the end of the
// test.
func magasin(t testing.TB, ctx context.Context) *sqlitestore.Store {
	t.Helper()
	store, err := sqlitestore.OpenDir(ctx, t.TempDir(), sqlitestore.Options{Clock: eventstoretest.NewStepClock(eventstoretest.Epoch)})
	require.NoError(t, err)
	t.Cleanup(func() { store.Close() })
	return store
}

// enDirect opens a store and runs the standings projection live on it
// through the watermill pipeline; stop ends the pipeline and returns its
// error. The store is closed at the end of the test.
func enDirect(t testing.TB, ctx context.Context) (*sqlitestore.Store, *eventstore.Registry, *projection.Runner, *sql.DB, func() error) {
	t.Helper()
	store := magasin(t, ctx)
	r := registre(t)
	live, liveDB := runner(t, store, r)
	runCtx, cancel := context.WithCancel(ctx)
	ready, done := make(chan struct{}), make(chan error, 1)
	go func() { done <- pipeline.Run(runCtx, store, []*projection.Runner{live}, pipeline.Config{}, ready) }()
	<-ready
	return store, r, live, liveDB, func() error {
		cancel()
		return <-done
	}
}

// Issue 16, item 10: the standings read no fact in a deposited bulletin;
// once a deposit showed it, a rebuild's fold neither asks for the deposits'
// payloads (projection.PayloadUser) nor decodes them itself (it did, on the
// one goroutine that folds: a tenth of the rebuild's time).
func TestRepli_LesDepotsNeSontPlusDecodesUneFoisSansFait(t *testing.T) {
	r := registre(t)
	p, err := standings.NewProjection(projection.Journal{Registry: r})
	require.NoError(t, err)
	fold := p.Fold()
	lecteur, ok := fold.(projection.PayloadUser)
	require.True(t, ok)
	depot := func(licence string) *eventstore.Event {
		return &eventstore.Event{Position: 1, Stream: "partie-T1-1", Type: duplicate.TypeBulletinDepose, Version: 2,
			Data: []byte(`{"coup":1,"licence":"` + licence + `","bulletin":{"solutions":[{"word":"VENDRA","written":"h","ref":"H4","score":28}]}}`)}
	}
	assert.True(t, lecteur.UsesPayload(duplicate.TypeBulletinDepose), "before any deposit")
	require.NoError(t, fold.Add(context.Background(), projection.Decoded{Event: depot("000001")}))
	assert.False(t, lecteur.UsesPayload(duplicate.TypeBulletinDepose), "after one")
	assert.True(t, lecteur.UsesPayload(duplicate.TypeBulletinCorrige))

	suivant := projection.Decoded{Event: depot("000002")}
	allocs := testing.AllocsPerRun(100, func() {
		require.NoError(t, fold.Add(context.Background(), suivant))
	})
	assert.Zero(t, allocs, "a deposit is not decoded")
}
