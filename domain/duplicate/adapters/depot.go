// Package adapters stores duplicate games in the event store: one stream
// "partie-<id>" per game and, on a store that keeps sub-streams
// (eventstore.Sections, the SQLite store), one stream
// "partie-<id>-table-<n>" per table for the bulletins and corrections its
// arbiters enter, so that arbiters of different tables never conflict.
// Events are encoded through the registry under their explicit versioned
// names; their types and payloads are the same in either stream.
package adapters

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"

	"arbitre/domain/duplicate"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/idempotency"
	"arbitre/domain/eventstore/repository"
	"arbitre/domain/eventstore/streamname"
)

// Depot loads and saves games. It keeps the last state it read of the
// games it serves and brings it up to date in place with the events
// stored since (repository.Streams.ReadFamilyFrom): a command on a game of
// 1,000 players replays the events stored since, not the whole game, and
// copies the game once, for the command alone (issue 17). The commands
// that come while a game is being read share the next read (issue 34:
// the hundred arbiters of a hall).
type Depot struct {
	flux     repository.Streams
	moteur   duplicate.Moteur
	sections bool

	mu      sync.Mutex
	connues map[string]*connue
}

// connue is the state read of one game, never handed out: Charger copies
// it, Consulter lends it under the read lock.
type connue struct {
	mu sync.RWMutex
	p  *duplicate.Partie // nil until read, and after a replay that failed

	// tours orders the reads of the game (rafraichir): one at a time;
	// the commands that come while one runs cannot use it (it may have
	// started before they came) and all share the next, suivant.
	tours   sync.Mutex
	enCours bool
	suivant *tour
}

// tour is a read of a game that commands wait for: it starts once the
// read running when they came is over.
type tour struct {
	ctx  context.Context // the first waiter's, without its command and its end
	fait chan struct{}   // closed when err is set
	err  error
}

// maxConnues bounds the games kept in memory; beyond, they are all
// forgotten and read again whole.
const maxConnues = 64

// Registre returns a registry holding the duplicate game's event types.
func Registre() (*eventstore.Registry, error) {
	r := eventstore.NewRegistry()
	return r, duplicate.RegisterEvents(r)
}

// NewDepot returns a repository over store; moteur validates tops of the
// games it loads.
func NewDepot(store eventstore.Store, registre *eventstore.Registry, moteur duplicate.Moteur) *Depot {
	_, sections := store.(eventstore.Sections)
	return &Depot{flux: repository.Streams{Store: store, Registry: registre}, moteur: moteur, sections: sections,
		connues: map[string]*connue{}}
}

// Charger replays a game from its stream and its tables' streams, in the
// order their events were stored, into a state of the caller's own. With a
// command envelope in ctx it also reports eventstore.ErrAlreadyApplied when
// the command was applied already, and a conflict when the client's
// version is not the stream's. A game created under a lexicon the engines
// do not hold is LEXICON_NOT_LOADED: nothing is decided on it with another
// list.
func (d *Depot) Charger(ctx context.Context, id string) (*duplicate.Partie, error) {
	var copie *duplicate.Partie
	err := d.Consulter(ctx, id, func(p *duplicate.Partie) error {
		copie = p.Copie()
		return nil
	})
	return copie, err
}

// Consulter is Charger without the copy, for reading only: f gets the
// game as stored (up to date when Consulter was called) and must not
// change it; the game is not refreshed while f runs.
func (d *Depot) Consulter(ctx context.Context, id string, f func(p *duplicate.Partie) error) error {
	stream, err := streamname.PartieStream(id)
	if err != nil {
		return &erreur.Erreur{Code: duplicate.CodeNotFound, Message: fmt.Sprintf("identifiant de partie %q invalide", id), Err: err}
	}
	c := d.connue(id)
	if err := d.rafraichir(ctx, c, stream); err != nil {
		return err
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	p := c.p
	if p != nil {
		if err := p.Lecture().Check(ctx); err != nil {
			return d.conflit(ctx, id, err)
		}
	}
	if p == nil || p.Version() == 0 {
		return &erreur.Erreur{Code: duplicate.CodeNotFound, Message: fmt.Sprintf("la partie %s n'existe pas", id)}
	}
	if err := p.ExigerLexique(); err != nil {
		return err
	}
	return f(p)
}

// Tournoi is the tournament of game id, a fact fixed when the game was
// created: taken from the kept state without reading on when the game is
// known (a bulletin's scope, issue 17), read like Consulter otherwise.
func (d *Depot) Tournoi(ctx context.Context, id string) (string, error) {
	d.mu.Lock()
	c := d.connues[id]
	d.mu.Unlock()
	if c != nil {
		c.mu.RLock()
		p := c.p
		connu := p != nil && p.Version() > 0 && p.ExigerLexique() == nil
		tournoi := ""
		if connu {
			tournoi = p.Tournoi()
		}
		c.mu.RUnlock()
		if connu {
			return tournoi, nil
		}
	}
	var tournoi string
	err := d.Consulter(ctx, id, func(p *duplicate.Partie) error { tournoi = p.Tournoi(); return nil })
	return tournoi, err
}

// connue is the state kept of game id, new when there is none.
func (d *Depot) connue(id string) *connue {
	d.mu.Lock()
	defer d.mu.Unlock()
	c := d.connues[id]
	if c == nil {
		if len(d.connues) >= maxConnues {
			clear(d.connues)
		}
		c = &connue{}
		d.connues[id] = c
	}
	return c
}

// rafraichir brings c, the state of the game of stream, up to date with
// every event stored before it was called. With no read running, the
// caller reads; otherwise it waits for the next read, which the commands
// coming meanwhile share (one read for them all instead of one each, in
// turn), or for its ctx to end. A read carries no command (each is
// checked on the state it gets, Consulter) and does not end with the ctx
// it was asked with: others wait for it.
func (d *Depot) rafraichir(ctx context.Context, c *connue, stream string) error {
	c.tours.Lock()
	if c.enCours {
		t := c.suivant
		if t == nil {
			t = &tour{ctx: sansFin(ctx), fait: make(chan struct{})}
			c.suivant = t
		}
		c.tours.Unlock()
		select {
		case <-t.fait:
			return t.err
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	c.enCours = true
	c.tours.Unlock()
	defer d.passer(c, stream)
	return d.lire(sansFin(ctx), c, stream)
}

// sansFin is ctx for a read shared by several commands: without the
// caller's command envelope and without its end.
func sansFin(ctx context.Context) context.Context {
	return context.WithoutCancel(idempotency.WithNoCommand(ctx))
}

// passer ends the read running on c, even one that panicked, and starts
// the next when commands wait for it.
func (d *Depot) passer(c *connue, stream string) {
	c.tours.Lock()
	t := c.suivant
	c.suivant, c.enCours = nil, t != nil
	c.tours.Unlock()
	if t != nil {
		go d.servir(c, stream, t)
	}
}

// servir runs read t for the commands waiting for it, then passes on. It
// runs apart from them: a panic in it (a bug) is their error, with its
// stack, rather than the server's end; the command that reads for itself
// gets its panic as before.
func (d *Depot) servir(c *connue, stream string, t *tour) {
	defer d.passer(c, stream)
	defer close(t.fait)
	defer func() {
		if r := recover(); r != nil {
			t.err = fmt.Errorf("%s, panic: %v\n%s", stream, r, debug.Stack())
		}
	}()
	t.err = d.lire(t.ctx, c, stream)
}

// lire applies to c, in place, the events stored since it was read; the
// store is read outside the lock, which only the replay takes: the reads
// of a game are one at a time (rafraichir), and the commands served by
// the previous one keep reading c meanwhile. A replay that fails (or
// panics) forgets the state: the next read reads the game whole.
func (d *Depot) lire(ctx context.Context, c *connue, stream string) error {
	c.mu.RLock()
	p := c.p
	c.mu.RUnlock()
	lecture := repository.NewFamilyRead(stream)
	if p != nil {
		lecture = p.Lecture()
	}
	evts, lecture, err := d.flux.ReadFamilyFrom(ctx, lecture)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.p = nil // until p is replayed
	if p == nil {
		p = duplicate.Nouvelle(d.moteur)
	}
	if _, err := repository.Replay(p, evts); err != nil {
		return fmt.Errorf("%s, %w", stream, err)
	}
	p.Lue(lecture)
	c.p = p
	return nil
}

// Enregistrer appends the game's new events to the stream they belong to
// (section), expecting it to hold exactly the events the game was loaded
// with and the rest of the game not to have moved: a table's bulletin is
// refused once the game stream moved (a ramassage, a top, an annulled
// coup...), a game event once any table moved. A concurrent writer makes it
// fail with CONFLICT, nothing is written and the events stay new.
func (d *Depot) Enregistrer(ctx context.Context, p *duplicate.Partie, md eventstore.Metadata) error {
	nouveaux := p.Pending()
	if len(nouveaux) == 0 {
		return nil
	}
	lecture := p.Lecture()
	if lecture.Stream == "" { // a new game
		stream, err := streamname.PartieStream(p.ID())
		if err != nil {
			return err
		}
		lecture = repository.NewFamilyRead(stream)
	}
	cible, err := d.section(p.ID(), lecture.Stream, nouveaux)
	if err != nil {
		return err
	}
	apres, err := d.flux.SaveSection(ctx, lecture, cible, nouveaux, md)
	if err != nil {
		return d.conflit(ctx, p.ID(), err)
	}
	p.Lue(apres)
	p.MarkSaved()
	return nil
}

// section is the stream new events go to: the table's when every one is a
// bulletin or a correction of one same table (§4, §5: the arbiter of the
// player's table enters and corrects it) and the store keeps sub-streams;
// the game's otherwise.
func (d *Depot) section(id, stream string, nouveaux []any) (string, error) {
	table := 0
	for _, e := range nouveaux {
		t := 0
		switch e := e.(type) {
		case duplicate.BulletinDepose:
			t = e.Table
		case duplicate.BulletinCorrige:
			t = e.Table
		}
		if t == 0 || (table != 0 && t != table) {
			return stream, nil
		}
		table = t
	}
	if !d.sections {
		return stream, nil
	}
	return streamname.TableStream(id, table)
}

// conflit gives a store conflict the game's CONFLICT code and the game's
// current version, the number of events of its stream and its tables'
// (the conflict itself names one stream); other errors pass through.
func (d *Depot) conflit(ctx context.Context, id string, err error) error {
	if _, ok := idempotency.VersionOf(err); !ok {
		return err
	}
	stream, _ := streamname.PartieStream(id)
	evts, lu := eventstore.ReadFamily(context.WithoutCancel(ctx), d.flux.Store, stream)
	version := len(evts)
	if lu != nil {
		version, _ = idempotency.VersionOf(err)
	}
	conflit := &erreur.Erreur{Code: duplicate.CodeConflict, Message: fmt.Sprintf("la partie %s a été modifiée entre-temps (version %d) : recharger", id, version), Err: err}
	return conflit.Avec("version", version)
}
