package sqlitestore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"

	"arbitre/domain/eventstore"

	zsqlite "zombiezen.com/go/sqlite"
)

var _ eventstore.BoundKeys = (*Store)(nil)

// cleReutilisee finds an event under the idempotency key (actor ?1,
// causation ?2) recorded for another request than ?3, by the keys' index
// (keysIndex), whose condition it repeats for SQLite to take it. The
// unary + keeps SQLite from matching `requete <> ?` against the index's
// own term on requete, which made the plan depend on the bound request: the
// statement was compiled again whenever the request changed, at every
// command (issue 34).
const cleReutilisee = `SELECT 1 FROM events WHERE actor = ? AND causation_id = ? AND +requete <> ? AND causation_id <> '' AND requete <> '' LIMIT 1`

// lectureCles reads every key of the log with its request and position,
// by the keys' index alone: the events without a key are not read.
const lectureCles = `SELECT actor, causation_id, requete, position FROM events WHERE causation_id <> '' AND requete <> ''`

// cles are the idempotency keys of the log in memory: for each (actor,
// causation id), the request of its first event. They are read from the
// keys' index at the first KeyReused (a store opened by a command that
// asks none reads nothing), then each commit adds its own. A lookup in
// SQLite, even by its index, cost as much as the read of the log's tail it
// replaced: every commit in between empties a reader connection's page
// cache, and each lookup read the index's pages again (issue 34).
type cles struct {
	mu       sync.RWMutex
	lues     bool
	requetes map[[2]string]string
}

// retenir adds the keys of events just committed, once the keys are read.
func (c *cles) retenir(events []eventstore.EventData) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.lues {
		return
	}
	for _, e := range events {
		md := e.Metadata
		k := [2]string{md.Actor, md.CausationID}
		if _, ok := c.requetes[k]; !ok && md.CausationID != "" && md.Request != "" {
			c.requetes[k] = md.Request
		}
	}
}

// KeyReused implements eventstore.BoundKeys: a lookup of the keys in
// memory. It sees every append of this store once committed; an append of
// another process is refused all the same by its own transaction
// (verifierCles), exactly.
func (s *Store) KeyReused(ctx context.Context, actor, id, request string) (bool, error) {
	if id == "" || request == "" {
		return false, nil
	}
	if err := s.lireCles(ctx); err != nil {
		return false, err
	}
	s.cles.mu.RLock()
	defer s.cles.mu.RUnlock()
	r, ok := s.cles.requetes[[2]string{actor, id}]
	return ok && r != request, nil
}

// lireCles reads the keys of the log once, under the write lock so that no
// commit falls between the read and the keys it adds.
func (s *Store) lireCles(ctx context.Context) error {
	s.cles.mu.RLock()
	dejaLues := s.cles.lues
	s.cles.mu.RUnlock()
	if dejaLues {
		return nil
	}
	s.writeLock.Lock()
	defer s.writeLock.Unlock()
	s.cles.mu.Lock()
	defer s.cles.mu.Unlock()
	if s.cles.lues {
		return nil
	}
	// The index is in key order: a key's first request is that of its
	// first position.
	type premiere struct {
		requete  string
		position int64
	}
	lues := map[[2]string]premiere{}
	err := s.reader.lire(ctx, "reading the idempotency keys", lectureCles, nil, func(stmt *zsqlite.Stmt) error {
		k, p := [2]string{stmt.ColumnText(0), stmt.ColumnText(1)}, premiere{stmt.ColumnText(2), stmt.ColumnInt64(3)}
		if avant, ok := lues[k]; !ok || p.position < avant.position {
			lues[k] = p
		}
		return nil
	})
	if err != nil {
		return err
	}
	s.cles.requetes = make(map[[2]string]string, len(lues))
	for k, p := range lues {
		s.cles.requetes[k] = p.requete
	}
	s.cles.lues = true
	return nil
}

// verifierCles refuses, in the append's transaction, events under an
// idempotency key that already served another request: one lookup in the
// keys' index (keysIndex) per key of the append, the events of one command
// sharing theirs, on the writer, whose page cache no other connection's
// commit empties. Events without a key or a request look nothing up.
func (s *Store) verifierCles(ctx context.Context, tx *sql.Tx, events []eventstore.EventData) error {
	var vue eventstore.Metadata
	for _, e := range events {
		md := e.Metadata
		if md.CausationID == "" || md.Request == "" || (md.Actor == vue.Actor && md.CausationID == vue.CausationID && md.Request == vue.Request) {
			continue
		}
		vue = md
		var trouve int
		err := tx.StmtContext(ctx, s.ecriture.cle).QueryRowContext(ctx, md.Actor, md.CausationID, md.Request).Scan(&trouve)
		switch {
		case err == nil:
			return eventstore.NewError(eventstore.CodeKeyReused,
				fmt.Sprintf("client mutation id %q of %s already used for another request than %s", md.CausationID, md.Actor, md.Request), nil)
		case !errors.Is(err, sql.ErrNoRows):
			return classify("looking up an idempotency key", err)
		}
	}
	return nil
}
