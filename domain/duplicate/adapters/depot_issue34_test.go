package adapters_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/duplicate"
	"arbitre/domain/duplicate/adapters"
	"arbitre/domain/duplicate/command"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/eventstoretest"
	"arbitre/domain/eventstore/idempotency"
	"arbitre/domain/eventstore/repository"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/engine/lexicon/libre"
)

// patience bounds every wait of these tests: reached only when the
// awaited thing never happens (a failure), never on a passing run.
const patience = 10 * time.Second

// magasinRetenu is the SQLite store recording where each read of a game
// started (0: the game whole), holding the next read once retenir was
// called until liberer, and panicking in the read numbered panique (from
// 1, 0: none).
type magasinRetenu struct {
	*sqlitestore.Store
	mu      sync.Mutex
	depuis  []uint64
	retenue chan struct{} // closed when the held read is reached
	libre   chan struct{} // closed to let it go on
	panique int
}

func (m *magasinRetenu) ReadSections(ctx context.Context, stream string, after uint64) ([]eventstore.Event, error) {
	m.mu.Lock()
	m.depuis = append(m.depuis, after)
	retenue, libre, panique := m.retenue, m.libre, len(m.depuis) == m.panique
	m.retenue = nil
	m.mu.Unlock()
	if retenue != nil {
		close(retenue)
		<-libre
	}
	if panique {
		panic("lecture " + stream)
	}
	return m.Store.ReadSections(ctx, stream, after)
}

// retenir holds the next read; the returned channel is closed once it is
// reached.
func (m *magasinRetenu) retenir() <-chan struct{} {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.retenue, m.libre = make(chan struct{}), make(chan struct{})
	return m.retenue
}

func (m *magasinRetenu) liberer() {
	m.mu.Lock()
	defer m.mu.Unlock()
	close(m.libre)
}

func (m *magasinRetenu) lectures() []uint64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]uint64(nil), m.depuis...)
}

// arrivee is a caller's context telling when the caller waits on it:
// a command that cannot read yet waits for a read to come, or for its
// context to end.
type arrivee struct {
	context.Context
	une     sync.Once
	arrivee chan struct{}
}

func (a *arrivee) Done() <-chan struct{} {
	a.une.Do(func() { close(a.arrivee) })
	return a.Context.Done()
}

type salle struct {
	magasin *magasinRetenu
	depot   *adapters.Depot
	version int // the game's events
}

var arbitre = eventstore.Metadata{Actor: "JA", Role: "arbitre"}

// nouvelleSalle stores game p1, created and drawn under two commands of
// JA ("creer", "tirer"), and a depot over it that read nothing yet.
func nouvelleSalle(t *testing.T) *salle {
	t.Helper()
	ctx := context.Background()
	store, err := sqlitestore.OpenDir(ctx, t.TempDir(), sqlitestore.Options{Clock: eventstoretest.NewStepClock(eventstoretest.Epoch)})
	require.NoError(t, err)
	t.Cleanup(func() { store.Close() })
	r, err := adapters.Registre()
	require.NoError(t, err)
	lex, err := libre.Lexicon()
	require.NoError(t, err)
	cfg := duplicate.Config{TempsParCoup: 3 * time.Minute, Source: duplicate.SourceLogiciel, GraineTest: new(uint64(11))}
	m := duplicate.NewMoteur(lex, cfg.Variant())
	app := command.New(adapters.NewDepot(store, r, m), m, eventstoretest.NewStepClock(eventstoretest.Epoch), arbitre)
	require.NoError(t, app.CreerPartie(idempotency.WithCommand(ctx, idempotency.Command{ID: "creer", Author: "JA", Request: "creerPartie"}),
		command.CreerPartie{Partie: "p1", Tournoi: "t1", Numero: 1, Config: cfg, Joueurs: []string{"L1", "L2", "L3"}}))
	require.NoError(t, app.Tirer(idempotency.WithCommand(ctx, idempotency.Command{ID: "tirer", Author: "JA", Request: "tirer"}), command.Tirer{Partie: "p1"}))
	magasin := &magasinRetenu{Store: store}
	s := &salle{magasin: magasin, depot: adapters.NewDepot(magasin, r, m)}
	p, err := s.depot.Charger(idempotency.WithNoCommand(ctx), "p1")
	require.NoError(t, err)
	s.version = p.Version()
	s.depot = adapters.NewDepot(magasin, r, m)
	magasin.depuis = nil
	return s
}

// attendre waits for c to be closed, failing the test after patience.
func attendre(t *testing.T, c <-chan struct{}, quoi string) {
	t.Helper()
	select {
	case <-c:
	case <-time.After(patience):
		t.Fatalf("%s: still waiting after %s", quoi, patience)
	}
}

// arrivees waits until every caller waits, or patience passed: today's
// depot makes them wait on the game's lock, where no context tells.
func arrivees(arr []*arrivee) {
	fin := time.After(patience)
	for _, a := range arr {
		select {
		case <-a.arrivee:
		case <-fin:
			return
		}
	}
}

// appel is one caller of the depot: Charger, or Consulter when consulter.
type appel struct {
	commande  *idempotency.Command // nil: no envelope
	consulter bool
	verifier  func(t *testing.T, err error)
}

// lancer calls the depot for a, telling on the returned channel its
// error, or its panic.
func (s *salle) lancer(ctx context.Context, a appel) <-chan error {
	ctx = idempotency.WithNoCommand(ctx)
	if a.commande != nil {
		ctx = idempotency.WithCommand(ctx, *a.commande)
	}
	fin := make(chan error, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				fin <- fmt.Errorf("panic: %v", r)
			}
		}()
		if a.consulter {
			fin <- s.depot.Consulter(ctx, "p1", func(p *duplicate.Partie) error { return nil })
			return
		}
		_, err := s.depot.Charger(ctx, "p1")
		fin <- err
	}()
	return fin
}

// Issue 34 item 3: the commands that come while a game is being read do
// not read it each in turn: they share the next read, which starts after
// they came, and each is still checked, on the state it gets, against its
// own envelope: a command applied already, a key reused for another
// request, a client's version the game no longer has (CONFLICT carrying
// the current version, read whole once more), as when each read alone.
func TestIssue34_LesCommandesDUnePartiePartagentLeurLecture(t *testing.T) {
	ok := func(t *testing.T, err error) { assert.NoError(t, err) }
	version := func(v int) *int { return &v }
	cas := []struct {
		nom    string
		appels func(v int) []appel
		// lectures are the reads after the one held: the shared one, and
		// the whole one of each conflict.
		lectures int
	}{
		{"vingt commandes sans enveloppe", func(int) []appel {
			var a []appel
			for i := range 20 {
				a = append(a, appel{consulter: i%2 == 0, verifier: ok})
			}
			return a
		}, 1},
		{"chacune son enveloppe", func(v int) []appel {
			return []appel{
				{commande: &idempotency.Command{ID: "tirer", Author: "JA", Request: "tirer"}, verifier: func(t *testing.T, err error) {
					assert.ErrorIs(t, err, idempotency.ErrAlreadyApplied)
				}},
				{commande: &idempotency.Command{ID: "tirer", Author: "JA", Request: "rejeter"}, consulter: true, verifier: func(t *testing.T, err error) {
					assert.ErrorIs(t, err, idempotency.ErrKeyReused)
				}},
				{commande: &idempotency.Command{ID: "tirer", Author: "JB", Request: "rejeter"}, verifier: ok},
				{commande: &idempotency.Command{ID: "b1", Author: "JA", Request: "bulletin", Version: version(v - 1)}, verifier: func(t *testing.T, err error) {
					var e *erreur.Erreur
					require.True(t, errors.As(err, &e), "%v", err)
					assert.Equal(t, duplicate.CodeConflict, e.Code)
					assert.Equal(t, v, e.Details["version"])
					assert.ErrorIs(t, err, eventstore.ErrConflict)
				}},
				{commande: &idempotency.Command{ID: "b2", Author: "JA", Request: "bulletin", Version: version(v)}, consulter: true, verifier: ok},
				{commande: &idempotency.Command{ID: "b3", Author: "JA", Request: "bulletin"}, verifier: ok},
				{verifier: ok},
			}
		}, 2},
	}
	for _, c := range cas {
		t.Run(c.nom, func(t *testing.T) {
			s := nouvelleSalle(t)
			ctx := context.Background()
			retenue := s.magasin.retenir()
			premier := s.lancer(ctx, appel{})
			attendre(t, retenue, "the first read")
			appels := c.appels(s.version)
			fins := make([]<-chan error, len(appels))
			arr := make([]*arrivee, len(appels))
			for i, a := range appels {
				arr[i] = &arrivee{Context: ctx, arrivee: make(chan struct{})}
				fins[i] = s.lancer(arr[i], a)
			}
			arrivees(arr)
			s.magasin.liberer()
			require.NoError(t, <-premier)
			for i, a := range appels {
				a.verifier(t, <-fins[i])
			}
			lectures := s.magasin.lectures()
			assert.Len(t, lectures, 1+c.lectures, "reads, each from: %v", lectures)
		})
	}
}

// Issue 34 item 3: a command whose context ends while it waits for a
// read returns at once with its context's error; the read it was to
// share (which it started) still serves the others.
func TestIssue34_UneCommandeQuiRenonceNAttendPasLaLecture(t *testing.T) {
	s := nouvelleSalle(t)
	retenue := s.magasin.retenir()
	ctxPremier, annulerPremier := context.WithCancel(context.Background())
	premier := s.lancer(ctxPremier, appel{})
	attendre(t, retenue, "the first read")
	ctxRenonce, renoncer := context.WithCancel(context.Background())
	arr := &arrivee{Context: ctxRenonce, arrivee: make(chan struct{})}
	renonce := s.lancer(arr, appel{})
	attendre(t, arr.arrivee, "the command that gives up waiting")
	autre := &arrivee{Context: context.Background(), arrivee: make(chan struct{})}
	patiente := s.lancer(autre, appel{consulter: true})
	attendre(t, autre.arrivee, "the patient command waiting")
	renoncer()
	annulerPremier()
	select {
	case err := <-renonce:
		assert.ErrorIs(t, err, context.Canceled)
	case <-time.After(patience):
		t.Fatal("the command whose context ended still waits for the held read")
	}
	s.magasin.liberer()
	assert.NoError(t, <-premier, "the read runs for the game, whoever gave up")
	assert.NoError(t, <-patiente)
	assert.Len(t, s.magasin.lectures(), 2)
}

// Issue 34 item 3: a replay that fails forgets the state: every command
// that waited for that read gets an error, and the next reads the game
// whole.
func TestIssue34_UnRejeuQuiEchoueEchoueATousSesAttendants(t *testing.T) {
	s := nouvelleSalle(t)
	ctx := idempotency.WithNoCommand(context.Background())
	p, err := s.depot.Charger(ctx, "p1")
	require.NoError(t, err)
	r, err := adapters.Registre()
	require.NoError(t, err)
	_, err = repository.Streams{Store: s.magasin.Store, Registry: r}.SaveSection(ctx, p.Lecture(), p.Lecture().Stream,
		[]any{duplicate.PartieCreee{Partie: "p1", Joueurs: []string{"L9"}}}, arbitre)
	require.NoError(t, err, "a second creation, which no replay takes")
	retenue := s.magasin.retenir()
	premier := s.lancer(ctx, appel{})
	attendre(t, retenue, "the held read")
	var fins []<-chan error
	var arr []*arrivee
	for i := range 5 {
		arr = append(arr, &arrivee{Context: ctx, arrivee: make(chan struct{})})
		fins = append(fins, s.lancer(arr[i], appel{consulter: i%2 == 0}))
	}
	arrivees(arr)
	s.magasin.liberer()
	assert.ErrorContains(t, <-premier, "partie déjà créée")
	for _, fin := range fins {
		assert.ErrorContains(t, <-fin, "partie déjà créée")
	}
	_, err = s.depot.Charger(ctx, "p1")
	assert.ErrorContains(t, err, "partie déjà créée")
	lectures := s.magasin.lectures()
	require.Len(t, lectures, 4, "the first, the held one, the shared one, the last: %v", lectures)
	assert.Zero(t, lectures[0])
	assert.NotZero(t, lectures[1])
	assert.Equal(t, []uint64{0, 0}, lectures[2:], "after a replay that failed, the game is read whole")
}

// Issue 34 item 3: a read that panics (a bug) fails the commands that
// waited for it, never the server, and never leaves the game without
// reads: the command that read for itself gets its panic back, and the
// commands that came meanwhile the next read; those that shared a read
// that panicked get an error, and the next command reads on.
func TestIssue34_UneLectureQuiPaniqueNeBloquePasLaPartie(t *testing.T) {
	cas := []struct {
		nom string
		// panique is the read that panics: 1 the held one, 2 the shared one.
		panique             int
		premier, attendants string // the error each gets ("": none)
	}{
		{"la lecture du premier", 1, "panic: lecture partie-p1", ""},
		{"la lecture partagée", 2, "", "panic: lecture partie-p1"},
	}
	for _, c := range cas {
		t.Run(c.nom, func(t *testing.T) {
			s := nouvelleSalle(t)
			ctx := context.Background()
			s.magasin.panique = c.panique
			retenue := s.magasin.retenir()
			premier := s.lancer(ctx, appel{})
			attendre(t, retenue, "the held read")
			var fins []<-chan error
			var arr []*arrivee
			for i := range 4 {
				arr = append(arr, &arrivee{Context: ctx, arrivee: make(chan struct{})})
				fins = append(fins, s.lancer(arr[i], appel{consulter: i%2 == 0}))
			}
			arrivees(arr)
			s.magasin.liberer()
			attendu := func(quoi string, err error) {
				if quoi == "" {
					assert.NoError(t, err)
				} else {
					assert.ErrorContains(t, err, quoi)
				}
			}
			attendu(c.premier, <-premier)
			for _, fin := range fins {
				select {
				case err := <-fin:
					attendu(c.attendants, err)
				case <-time.After(patience):
					t.Fatal("a command still waits for a read after one panicked")
				}
			}
			_, err := s.depot.Charger(idempotency.WithNoCommand(ctx), "p1")
			assert.NoError(t, err)
			assert.Len(t, s.magasin.lectures(), 3)
		})
	}
}
