package parties_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/duplicate"
	"arbitre/domain/duplicate/adapters"
	"arbitre/domain/duplicate/simulation"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/eventstoretest"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/domain/eventstore/streamname"
	"arbitre/engine/lexicon/libre"
	"arbitre/projections/parties"
	"arbitre/projections/pipeline"
	"arbitre/projections/projection"
)

// errArret stops a simulated game.
var errArret = errors.New("arrêt de la simulation")

// jouer records a simulated game of n players in store, stopped right after
// the tirage of coup arret (the whole game when arret is 0).
func jouer(t testing.TB, ctx context.Context, store eventstore.Store, r *eventstore.Registry, id string, n, arret int) {
	t.Helper()
	lex, err := libre.Lexicon()
	require.NoError(t, err)
	licences := make([]string, n)
	for i := range licences {
		licences[i] = fmt.Sprintf("%06d", i+1)
	}
	cfg := duplicate.Config{TempsParCoup: 3 * time.Minute, Source: duplicate.SourceLogiciel, GraineTest: new(uint64(7))}
	sim := simulation.New(lex, cfg)
	depot := adapters.NewDepot(store, r, sim.Moteur())
	md := eventstore.Metadata{Actor: "directeur", Role: "directeur"}
	_, err = sim.Jouer(simulation.Partie{ID: id, Tournoi: "t1", Numero: 1, Config: cfg, Joueurs: licences, Graine: 7},
		func(p *duplicate.Partie) error {
			if err := depot.Enregistrer(ctx, p, md); err != nil {
				return err
			}
			if p.Statut() == duplicate.StatutTirage && p.ProchainCoup() == arret {
				return errArret
			}
			return nil
		})
	if arret == 0 {
		require.NoError(t, err)
	} else {
		require.ErrorIs(t, err, errArret)
	}
}

func ouvrir(t testing.TB, ctx context.Context) (*sqlitestore.Store, *eventstore.Registry) {
	t.Helper()
	return ouvrirDans(t, ctx, t.TempDir())
}

// ouvrirDans opens the store of directory dir.
func ouvrirDans(t testing.TB, ctx context.Context, dir string) (*sqlitestore.Store, *eventstore.Registry) {
	t.Helper()
	store, err := sqlitestore.OpenDir(ctx, dir, sqlitestore.Options{Clock: eventstoretest.NewStepClock(eventstoretest.Epoch)})
	require.NoError(t, err)
	t.Cleanup(func() { store.Close() })
	r, err := adapters.Registre()
	require.NoError(t, err)
	return store, r
}

func runner(t *testing.T, store eventstore.Reader, r *eventstore.Registry) (*projection.Runner, *sql.DB) {
	t.Helper()
	db, err := projection.OpenDB(filepath.Join(t.TempDir(), projection.FileName))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	p, err := parties.NewProjection(projection.Journal{Store: store, Registry: r})
	require.NoError(t, err)
	run, err := projection.NewRunner(context.Background(), db, p, store)
	require.NoError(t, err)
	return run, db
}

func dump(t *testing.T, db *sql.DB) string {
	t.Helper()
	out, err := projection.Dump(context.Background(), db)
	require.NoError(t, err)
	return string(out)
}

// lireVue reads the stored view of a game.
func lireVue(t *testing.T, db *sql.DB, id string) parties.Vue {
	t.Helper()
	v, _, err := parties.Lire(context.Background(), db, id, 0)
	require.NoError(t, err)
	require.NotNil(t, v)
	return *v
}

// The games' views maintained live through the watermill pipeline, on two
// simulated games recorded side by side (one whole, one stopped during an
// open coup), equal the views of the replayed games, and a rebuild from
// position zero is byte-identical.
func TestPartiesLiveEgalReconstruction(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Second)
	defer cancel()
	store, r := ouvrir(t, ctx)
	live, liveDB := runner(t, store, r)
	runCtx, stop := context.WithCancel(ctx)
	ready, done := make(chan struct{}), make(chan error, 1)
	go func() { done <- pipeline.Run(runCtx, store, []*projection.Runner{live}, pipeline.Config{}, ready) }()
	<-ready

	jouer(t, ctx, store, r, "t1-1", 12, 0)
	jouer(t, ctx, store, r, "t1-2", 12, 3)
	last, err := store.LastPosition(ctx)
	require.NoError(t, err)
	wait, cancelWait := context.WithTimeout(ctx, 20*time.Second)
	defer cancelWait()
	require.NoError(t, live.Attendre(wait, last), "the live projection reaches the head")
	stop()
	require.NoError(t, <-done)

	depot := adapters.NewDepot(store, r, nil)
	for _, id := range []string{"t1-1", "t1-2"} {
		p, err := depot.Charger(ctx, id)
		require.NoError(t, err)
		assert.Equal(t, parties.VueDe(p), lireVue(t, liveDB, id), "the view of %s is the replayed game's", id)
	}
	fin := lireVue(t, liveDB, "t1-1")
	require.NotNil(t, fin.Fin, "the whole game is over")
	require.NotEmpty(t, fin.Tops)

	rebuilt, rebuiltDB := runner(t, store, r)
	_, err = rebuilt.Rebuild(ctx, nil)
	require.NoError(t, err)
	assert.Equal(t, dump(t, liveDB), dump(t, rebuiltDB), "rebuild from position zero is byte-identical")

	// Issue 16, item 10: folded in memory, the finished game dropped at its
	// end, each game's final view written once: the same rows.
	for _, oublier := range []bool{false, true} {
		if oublier {
			// Dropped after each event, the finished game is replayed from
			// the store for each correction that comes after its end.
			defer parties.OublierAussitot()()
		}
		folded, foldedDB := runner(t, store, r)
		_, err = projection.RebuildAll(ctx, store, r, []*projection.Runner{folded}, nil)
		require.NoError(t, err)
		assert.Equal(t, dump(t, liveDB), dump(t, foldedDB), "the rebuild folded in memory is byte-identical (finished games dropped at once: %v)", oublier)
	}

	all, err := store.ReadAll(ctx, 0, 100000)
	require.NoError(t, err)
	n, err := rebuilt.Apply(ctx, all)
	require.NoError(t, err)
	assert.Zero(t, n, "idempotent: a redelivered log applies nothing")
	assert.Equal(t, dump(t, liveDB), dump(t, rebuiltDB))
}

// During an open coup the view shows the tirage and only the tops already
// retained: the coup's top is not published before the director retains it.
func TestPartiesVueCoupOuvertSansTop(t *testing.T) {
	ctx := context.Background()
	store, r := ouvrir(t, ctx)
	jouer(t, ctx, store, r, "t1-1", 4, 3)
	run, db := runner(t, store, r)
	_, err := run.CatchUp(ctx, nil)
	require.NoError(t, err)

	v := lireVue(t, db, "t1-1")
	assert.Equal(t, duplicate.StatutTirage, v.Statut)
	assert.Equal(t, 3, v.Coup)
	assert.NotEmpty(t, v.Tirage, "the tirage is on the easel")
	require.Len(t, v.Tops, 2, "the tops of coups 1 and 2 only")
	for _, top := range v.Tops {
		assert.Less(t, top.Coup, 3)
	}
}

// A batch rolled back after the projection folded some of its events (here
// an event whose chain does not hold), and a restart that forgets the games
// in memory, leave the views exactly those of a rebuild: the projection
// replays a game from the store when its memory is not exactly the events
// before the one applied.
func TestPartiesRepriseApresAnnulationEtRedemarrage(t *testing.T) {
	ctx := context.Background()
	store, r := ouvrir(t, ctx)
	jouer(t, ctx, store, r, "t1-1", 6, 0)
	all, err := store.ReadAll(ctx, 0, 100000)
	require.NoError(t, err)
	require.Greater(t, len(all), 20)

	run, db := runner(t, store, r)
	moitie := len(all) / 2
	_, err = run.Apply(ctx, all[:moitie])
	require.NoError(t, err)
	avant := dump(t, db)
	altere := all[moitie+5]
	altere.Hash = []byte("altéré")
	lot := append(append([]eventstore.Event{}, all[moitie:moitie+5]...), altere)
	_, err = run.Apply(ctx, lot)
	require.Error(t, err, "the altered event fails the batch")
	assert.Equal(t, avant, dump(t, db), "the batch wrote nothing")

	_, err = run.CatchUp(ctx, nil)
	require.NoError(t, err, "the projection goes on from its checkpoint")
	apresAnnulation := dump(t, db)

	redemarre, redemarreDB := runner(t, store, r)
	_, err = redemarre.Apply(ctx, all[:moitie])
	require.NoError(t, err)
	p, err := parties.NewProjection(projection.Journal{Store: store, Registry: r})
	require.NoError(t, err)
	redemarre, err = projection.NewRunner(ctx, redemarreDB, p, store)
	require.NoError(t, err)
	_, err = redemarre.CatchUp(ctx, nil)
	require.NoError(t, err)

	rebuilt, rebuiltDB := runner(t, store, r)
	_, err = rebuilt.Rebuild(ctx, nil)
	require.NoError(t, err)
	assert.Equal(t, dump(t, rebuiltDB), apresAnnulation, "after the rolled back batch")
	assert.Equal(t, dump(t, rebuiltDB), dump(t, redemarreDB), "after a restart")
}

// A game replayed from the store after a restart is checked like the
// runner checks what it applies: an event of the game altered in the file
// since the projection applied it is never folded (eventstore.ErrTampered).
func TestPartiesRepriseRefuseUnEvenementAltere(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	store, r := ouvrirDans(t, ctx, dir)
	jouer(t, ctx, store, r, "t1-1", 2, 0)
	all, err := store.ReadAll(ctx, 0, 100000)
	require.NoError(t, err)
	run, db := runner(t, store, r)
	_, err = run.Apply(ctx, all[:len(all)/2])
	require.NoError(t, err)

	fichier, err := sql.Open("sqlite", filepath.Join(dir, sqlitestore.FileName))
	require.NoError(t, err)
	res, err := fichier.Exec(`UPDATE events SET data = data || ' ' WHERE stream = 'partie-t1-1' AND revision = 1`)
	require.NoError(t, err)
	n, err := res.RowsAffected()
	require.NoError(t, err)
	require.EqualValues(t, 1, n)
	require.NoError(t, fichier.Close())

	p, err := parties.NewProjection(projection.Journal{Store: store, Registry: r})
	require.NoError(t, err)
	redemarre, err := projection.NewRunner(ctx, db, p, store)
	require.NoError(t, err)
	_, err = redemarre.CatchUp(ctx, nil)
	require.ErrorIs(t, err, eventstore.ErrTampered)
}

// Lire answers one row: CodeNotFound for a game the projection does not
// hold, no view when the caller's copy is current, the view otherwise.
func TestPartiesLire(t *testing.T) {
	ctx := context.Background()
	store, r := ouvrir(t, ctx)
	jouer(t, ctx, store, r, "t1-1", 2, 2)
	run, db := runner(t, store, r)
	_, err := run.CatchUp(ctx, nil)
	require.NoError(t, err)

	_, _, err = parties.Lire(ctx, db, "inconnue", 0)
	assert.Equal(t, duplicate.CodeNotFound, erreur.CodeOf(err))

	v, position, err := parties.Lire(ctx, db, "t1-1", 0)
	require.NoError(t, err)
	require.NotNil(t, v)
	assert.Equal(t, run.Position(), position, "the game's last event is the log's")
	inchangee, meme, err := parties.Lire(ctx, db, "t1-1", position)
	require.NoError(t, err)
	assert.Nil(t, inchangee, "a current copy is not read again")
	assert.Equal(t, position, meme)
}

// relecteur is a store that counts the reads of a game's streams
// (eventstore.ReadFamily), beside the pages of the global log.
type relecteur struct {
	*sqlitestore.Store
	relectures int
}

func (s *relecteur) ReadSections(ctx context.Context, stream string, after uint64) ([]eventstore.Event, error) {
	s.relectures++
	return s.Store.ReadSections(ctx, stream, after)
}

func (s *relecteur) ReadStream(ctx context.Context, stream string, from uint64, n int) ([]eventstore.Event, error) {
	s.relectures++
	return s.Store.ReadStream(ctx, stream, from, n)
}

// Issue 16, item 10: a rebuild reads the log once. A game the fold meets
// for the first time has no event before it in the log, so its state starts
// empty rather than being read again from the store (which read each game's
// 46,000 events a second time on the 1.07M-event store: 5.8 s of 21 s); only
// a finished game dropped from memory is replayed when an event comes to it.
func TestPartiesReconstructionNeRelitPasUnePartieNouvelle(t *testing.T) {
	ctx := context.Background()
	sqlite, r := ouvrir(t, ctx)
	jouer(t, ctx, sqlite, r, "t1-1", 4, 0)
	jouer(t, ctx, sqlite, r, "t1-2", 4, 3)
	store := &relecteur{Store: sqlite}
	live, liveDB := runner(t, store, r)
	_, err := live.CatchUp(ctx, nil)
	require.NoError(t, err)

	store.relectures = 0
	folded, foldedDB := runner(t, store, r)
	_, err = projection.RebuildAll(ctx, store, r, []*projection.Runner{folded}, nil)
	require.NoError(t, err)
	assert.Zero(t, store.relectures, "no game read again from the store")
	assert.Equal(t, dump(t, liveDB), dump(t, foldedDB))
}

// Issue 34 item 3: during a burst of bulletins the view of a game of 2,000
// players is written again for each batch (its version moves), while what
// it shows changes only with a game's event. A batch of one bulletin
// allocates the row it writes (the view marshalled, and its copy bound as
// text: 2× the view, plus the transaction) and not more than 3× the view;
// before, the view was worked out again from the game for each batch (the
// players listed and sorted, 32 KB of strings for 2,000 licences, and the
// grid): 73 KB for a view of 18.8 KB, 40 KB after. The view written after
// the bulletins is the game's as replayed.
func TestIssue34_VueDUnePartieNonRefaiteAChaqueBulletin(t *testing.T) {
	ctx := context.Background()
	store, r := ouvrir(t, ctx)
	jouer(t, ctx, store, r, "t1-1", 2000, 1)
	evts, err := eventstore.ReadFamily(ctx, store, "partie-t1-1")
	require.NoError(t, err)
	db, err := projection.OpenDB(filepath.Join(t.TempDir(), projection.FileName))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	p, err := parties.NewProjection(projection.Journal{Store: store, Registry: r})
	require.NoError(t, err)
	appliquer := func(lot []projection.Decoded) {
		tx, err := db.BeginTx(ctx, nil)
		require.NoError(t, err)
		require.NoError(t, p.ApplyBatch(ctx, tx, lot))
		require.NoError(t, tx.Commit())
	}
	tx, err := db.BeginTx(ctx, nil)
	require.NoError(t, err)
	require.NoError(t, p.Setup(ctx, tx))
	require.NoError(t, tx.Commit())
	lot := make([]projection.Decoded, len(evts))
	for i := range evts {
		lot[i] = projection.Decoded{Event: &evts[i]}
	}
	appliquer(lot)

	// The views count a bulletin's event without reading it.
	const bulletins = 50
	table, err := streamname.TableStream("t1-1", 1)
	require.NoError(t, err)
	derniere := evts[len(evts)-1].Position
	lots := make([][]projection.Decoded, bulletins)
	for i := range lots {
		lots[i] = []projection.Decoded{{Event: &eventstore.Event{Stream: table, Revision: uint64(i), Position: derniere + 1 + uint64(i),
			Type: duplicate.TypeBulletinDepose, Version: 1}}}
	}
	appliquer(lots[0])
	var avant, apres runtime.MemStats
	runtime.ReadMemStats(&avant)
	for _, l := range lots[1:] {
		appliquer(l)
	}
	runtime.ReadMemStats(&apres)
	parLot := (apres.TotalAlloc - avant.TotalAlloc) / (bulletins - 1)

	v := lireVue(t, db, "t1-1")
	rejouee := duplicate.Nouvelle(nil)
	for _, e := range evts {
		payload, err := r.Decode(e)
		require.NoError(t, err)
		require.NoError(t, rejouee.Apply(payload))
	}
	for _, l := range lots {
		require.NoError(t, rejouee.Passer(l[0].Event.Type))
	}
	assert.Equal(t, parties.VueDe(rejouee), v)
	ecrite, err := json.Marshal(v)
	require.NoError(t, err)
	assert.Less(t, parLot, 3*uint64(len(ecrite)), "bytes allocated by a batch of one bulletin, for a view of %d bytes", len(ecrite))
}
