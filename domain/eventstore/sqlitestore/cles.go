package sqlitestore

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"arbitre/domain/eventstore"

	zsqlite "zombiezen.com/go/sqlite"
)

var _ eventstore.BoundKeys = (*Store)(nil)

// lectureCles reads the idempotency keys of the events between two
// positions (after ?1, up to ?2), with their requests, in global order.
const lectureCles = `SELECT actor, causation_id, requete FROM events WHERE position > ? AND position <= ? AND causation_id <> '' AND requete <> '' ORDER BY position`

// lectureToutesCles reads every key of the log in global order, and its
// last event (whose position is where the keys read are known up to), in
// one statement: one snapshot of the log.
const lectureToutesCles = `SELECT actor, causation_id, requete, position FROM events WHERE (causation_id <> '' AND requete <> '') OR position = (SELECT MAX(position) FROM events) ORDER BY position`

// cles are the idempotency keys of the log, in memory: for each (actor,
// causation id), the request of its first event, known up to position.
// They are read from the log at a server's start (LoadKeys), or else by
// the first append that carries a key or the first KeyReused (an archive
// import, whose events carry none, reads and keeps nothing), then each
// commit adds the keys it wrote. Before, a key
// was looked up by reading the log's tail at each command; looked up by an
// index of the table, it cost as much (every commit in between emptied the
// page cache of the reader connection that looked up the next key), and
// the index's pages added half again to the bytes each bulletin's commit
// wrote (issue 34, docs/charge.md).
type cles struct {
	mu       sync.RWMutex
	lues     bool
	position int64
	requetes map[[2]string]string
	// enCours is closed when the full read of the keys under way
	// (LoadKeys) ends, nil when none is.
	enCours chan struct{}

	// avantLecture, when set (tests), is called before each full read of
	// the keys.
	avantLecture func()
}

// apresCommit adds the keys a transaction wrote, t.cles, once it
// committed: with the keys known up to where it began, they are known up
// to its end.
func (c *cles) apresCommit(t tete) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.lues {
		return
	}
	for k, r := range t.cles {
		garderPremiere(c.requetes, k, r)
	}
	if c.position >= t.depart {
		c.position = t.position
	}
}

// noterCles records in the transaction the keys an append wrote, for the
// store's keys once it commits (cles.apresCommit).
func (t *tete) noterCles(cles map[[2]string]string) {
	for k, r := range cles {
		if t.cles == nil {
			t.cles = map[[2]string]string{}
		}
		garderPremiere(t.cles, k, r)
	}
}

// suivreCles brings the store's keys up to position jusqua of the log in
// tx: all of them the first time, then only those of the events another
// process appended since (none while a server holds its data directory).
// Under the write lock.
func (s *Store) suivreCles(w *ecrivain, jusqua int64) error {
	s.cles.mu.RLock()
	lues, depuis := s.cles.lues, s.cles.position
	s.cles.mu.RUnlock()
	if !lues {
		depuis = 0
	} else if depuis >= jusqua {
		return nil
	}
	lus := map[[2]string]string{}
	ligne := w.colonnes(3)
	err := w.lignes(w.cles, ligne, func() error {
		actor, _ := ligne[0].(string)
		id, _ := ligne[1].(string)
		requete, _ := ligne[2].(string)
		garderPremiere(lus, [2]string{actor, id}, requete)
		return nil
	}, depuis, jusqua)
	if err != nil {
		return classify("reading the idempotency keys", err)
	}
	s.cles.mu.Lock()
	defer s.cles.mu.Unlock()
	if !s.cles.lues {
		s.cles.requetes, s.cles.lues = map[[2]string]string{}, true
	}
	for k, r := range lus {
		garderPremiere(s.cles.requetes, k, r)
	}
	s.cles.position = jusqua
	return nil
}

// KeyReused implements eventstore.BoundKeys: a lookup of the keys in
// memory, read from the log the first time (LoadKeys). It sees every append of this
// store once committed; one of another process since its last append may
// escape it, and is refused all the same by the append's own transaction
// (verifierCles), exactly.
func (s *Store) KeyReused(ctx context.Context, actor, id, request string) (bool, error) {
	if id == "" || request == "" {
		return false, nil
	}
	s.cles.mu.RLock()
	lues := s.cles.lues
	s.cles.mu.RUnlock()
	if !lues {
		if err := s.LoadKeys(ctx); err != nil {
			return false, err
		}
	}
	s.cles.mu.RLock()
	defer s.cles.mu.RUnlock()
	r, ok := s.cles.requetes[[2]string{actor, id}]
	return ok && r != request, nil
}

// LoadKeys implements eventstore.BoundKeys: it reads the keys of the log
// once, on a read connection, without holding back the appends; those
// committed meanwhile are read by the next append under a key
// (suivreCles). The lookups that arrive during the read wait for it
// rather than read the keys each (a server's restart, its clients
// retrying); one that fails, its caller gone, leaves the next waiter to
// read them again.
func (s *Store) LoadKeys(ctx context.Context) error {
	for {
		s.cles.mu.Lock()
		if s.cles.lues {
			s.cles.mu.Unlock()
			return nil
		}
		if enCours := s.cles.enCours; enCours != nil {
			s.cles.mu.Unlock()
			select {
			case <-enCours:
				continue
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		fin := make(chan struct{})
		s.cles.enCours = fin
		s.cles.mu.Unlock()
		requetes, position, err := s.lireToutesCles(ctx)
		s.cles.mu.Lock()
		if err == nil && !s.cles.lues {
			s.cles.requetes, s.cles.position, s.cles.lues = requetes, position, true
		}
		s.cles.enCours = nil
		s.cles.mu.Unlock()
		close(fin)
		return err
	}
}

// lireToutesCles reads every key of the log on a read connection, and the
// position they are known up to.
func (s *Store) lireToutesCles(ctx context.Context) (map[[2]string]string, int64, error) {
	if s.cles.avantLecture != nil {
		s.cles.avantLecture()
	}
	var tete int64
	lus := map[[2]string]string{}
	err := s.reader.lire(ctx, "reading the idempotency keys", lectureToutesCles, nil, func(stmt *zsqlite.Stmt) error {
		tete = stmt.ColumnInt64(3)
		k := [2]string{stmt.ColumnText(0), stmt.ColumnText(1)}
		if k[1] != "" && stmt.ColumnText(2) != "" {
			garderPremiere(lus, k, stmt.ColumnText(2))
		}
		return nil
	})
	return lus, tete, err
}

// garderPremiere records r as the request of key k unless k already has
// one: a key is bound to the request of its first event.
func garderPremiere(cles map[[2]string]string, k [2]string, r string) {
	if _, ok := cles[k]; !ok {
		cles[k] = r
	}
}

// errCleDuLot is the cause of a refusal under a key that an append of the
// same transaction wrote: it stands only if the transaction commits
// (ecrireLot).
var errCleDuLot = errors.New("the key was written by another append of the same transaction")

// errLotInterrompu answers the appends of a group commit that panicked:
// it may have panicked after the commit (ecrireLot).
var errLotInterrompu = fmt.Errorf("%w: the group commit that held these events panicked", eventstore.ErrOutcomeUnknown)

// verifierCles refuses, in the append's transaction, events under an
// idempotency key that already served another request — in the log up to
// where the transaction began (suivreCles) or in an append of the same
// transaction, t — and returns the keys the events carry. Events without
// a key or a request look nothing up.
func (s *Store) verifierCles(w *ecrivain, t *tete, events []eventstore.EventData) (map[[2]string]string, error) {
	var cles map[[2]string]string
	for _, e := range events {
		md := e.Metadata
		if md.CausationID == "" || md.Request == "" {
			continue
		}
		k := [2]string{md.Actor, md.CausationID}
		if cles == nil {
			if err := s.suivreCles(w, t.depart); err != nil {
				return nil, err
			}
			cles = map[[2]string]string{}
		}
		r, ok := cles[k]
		var cause error
		if !ok {
			if r, ok = t.cles[k]; ok {
				cause = errCleDuLot
			}
		}
		if !ok {
			s.cles.mu.RLock()
			r, ok = s.cles.requetes[k]
			s.cles.mu.RUnlock()
		}
		if ok && r != md.Request {
			return nil, eventstore.NewError(eventstore.CodeKeyReused,
				fmt.Sprintf("client mutation id %q of %s already used for another request than %s", md.CausationID, md.Actor, md.Request), cause)
		}
		cles[k] = md.Request
	}
	return cles, nil
}
