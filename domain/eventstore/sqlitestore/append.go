package sqlitestore

import (
	"bytes"
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"time"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/integrity"
	"arbitre/domain/eventstore/streamname"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Append implements eventstore.Store.
func (s *Store) Append(ctx context.Context, stream string, expected eventstore.ExpectedRevision, events ...eventstore.EventData) (eventstore.AppendResult, error) {
	return s.AppendGuarded(ctx, stream, expected, nil, events...)
}

var _ eventstore.Sections = (*Store)(nil)

// AppendGuarded implements eventstore.Sections: the guards are checked in
// the append's transaction, under the store's write lock.
//
// Group commit (issue 17): appends that arrive while another is being
// written wait together, and the one that leads next takes the write lock
// and writes every one waiting in one transaction, so that fifty arbiters'
// bulletins cost one fsync instead of fifty. Each append runs under a
// savepoint of its own: one that fails (a conflict, a guard, a duplicate
// id) is rolled back alone and fails alone, the others are committed.
// Each caller is answered only after the commit that holds its events: an
// acknowledged append is durable as before.
func (s *Store) AppendGuarded(ctx context.Context, stream string, expected eventstore.ExpectedRevision, gardes []eventstore.Guard, events ...eventstore.EventData) (eventstore.AppendResult, error) {
	if err := eventstore.ValidateAppend(stream, events); err != nil {
		return eventstore.AppendResult{}, err
	}
	if err := s.Rupture(); err != nil {
		return eventstore.AppendResult{}, err
	}
	a := &ajout{ctx: ctx, stream: stream, expected: expected, gardes: gardes, events: events, fait: make(chan struct{})}
	s.attenteMu.Lock()
	s.attente = append(s.attente, a)
	s.attenteMu.Unlock()
	// One append at a time holds the token (meneur): it takes the write
	// lock (held only by AppendBatch or Close besides) and writes every
	// append waiting. The others wait for whichever comes first, their
	// group's commit or the token. Before, every append of a group took
	// the write lock in turn after its commit, to find its events
	// written: one handoff per append, during which the next group could
	// not begin (issue 34).
	select {
	case <-a.fait: // written by the group of another append
		return a.res, a.err
	case s.meneur <- struct{}{}:
	}
	defer func() { <-s.meneur }()
	s.writeLock.Lock()
	defer s.writeLock.Unlock() // even when the lot panics
	select {
	case <-a.fait: // written by the group led before
	default:
		s.attenteMu.Lock()
		lot := s.attente
		s.attente = nil
		s.attenteMu.Unlock()
		s.ecrireLot(lot)
	}
	return a.res, a.err
}

// ajout is one append waiting for the write lock, and its outcome.
type ajout struct {
	ctx      context.Context
	stream   string
	expected eventstore.ExpectedRevision
	gardes   []eventstore.Guard
	events   []eventstore.EventData

	res  eventstore.AppendResult
	head []byte
	err  error
	fait chan struct{}
}

// ecrireLot writes the appends of lot in one transaction, each under its
// own savepoint, commits once and answers each, even when it panics;
// under the write lock.
func (s *Store) ecrireLot(lot []*ajout) {
	repondu := false
	defer func() {
		if !repondu {
			// A panic, which goes on up the append that wrote the lot:
			// the others are not told their events were written.
			for _, a := range lot {
				a.res, a.err = eventstore.AppendResult{}, unavailable("appending to "+a.stream, errLotInterrompu)
			}
		}
		for _, a := range lot {
			close(a.fait)
		}
	}()
	s.ecrireTransaction(lot)
	repondu = true
}

// ecrireTransaction is ecrireLot's transaction: it answers each append of
// lot.
func (s *Store) ecrireTransaction(lot []*ajout) {
	// An append refused under a key another append of the lot wrote
	// fails as the lot does: the key was never written.
	echouer := func(err error) {
		for _, a := range lot {
			if a.err == nil || errors.Is(a.err, errCleDuLot) {
				a.res, a.err = eventstore.AppendResult{}, err
			}
		}
	}
	if s.isClosed() {
		echouer(eventstore.ErrClosed)
		return
	}
	// The transaction outlives any one caller: a caller that gives up
	// fails alone, before its turn.
	var t tete
	var dernier *ajout
	err := s.transaction(context.Background(), "appends", func(w *ecrivain) (bool, error) {
		var err error
		if t, err = w.lireTete(); err != nil {
			return false, err
		}
		for _, a := range lot {
			if a.err = a.ctx.Err(); a.err != nil {
				continue
			}
			if err := w.executer(w.savepoint); err != nil {
				return false, classify("appending to "+a.stream, err)
			}
			a.res, a.head, a.err = s.appendInTx(w, &t, a.stream, a.expected, a.gardes, a.events)
			fin := []driver.Stmt{w.release}
			if a.err != nil {
				fin = []driver.Stmt{w.rollbackTo, w.release}
			} else if a.head != nil {
				dernier = a
			}
			for _, st := range fin {
				if err := w.executer(st); err != nil {
					return false, classify("appending to "+a.stream, err)
				}
			}
		}
		// Nothing written: idempotent retries and refusals only.
		return dernier != nil, nil
	})
	if err != nil {
		echouer(err)
		return
	}
	if dernier == nil {
		return
	}
	s.cles.apresCommit(t)
	s.committed(integrity.Seal{Position: dernier.res.Position, Hash: dernier.head})
}

// tete is the last event of the log as a write transaction sees it: the
// position and the hash the next event chains to. The writer is the log's
// only writer and holds the write lock: a transaction reads it once
// (lireTete) and each append it writes moves it on. depart is the position
// the transaction began at, cles the idempotency keys its appends wrote
// (verifierCles), for the store's keys once it commits.
type tete struct {
	position int64
	hash     []byte
	depart   int64
	cles     map[[2]string]string
}

// lireTete reads the log's last event in the transaction (zero when the
// log is empty).
func (w *ecrivain) lireTete() (tete, error) {
	var t tete
	ligne := w.colonnes(2)
	lue, err := w.ligne(w.tete, ligne)
	if err != nil {
		return tete{}, classify("reading global position", err)
	}
	if lue {
		t.position, _ = entier(ligne[0])
		t.hash, _ = ligne[1].([]byte)
	}
	t.depart = t.position
	return t, nil
}

// appendInTx checks the expectation and writes, chaining each event to the
// log's last one, t, which it moves to its own last event; it returns the
// hash of that event, nil for an idempotent retry, which returns the
// original result and leaves t as it was.
//
// An append is looked up as a retry of one already stored (idempotentRetry)
// only when its expectation or a guard refuses it, or when its first id is
// already stored: a retry always meets one of those, since ids are unique
// across the store, and an ordinary append reads nothing for it (issue 34).
func (s *Store) appendInTx(w *ecrivain, t *tete, stream string, expected eventstore.ExpectedRevision, gardes []eventstore.Guard, events []eventstore.EventData) (eventstore.AppendResult, []byte, error) {
	refus := func(err error) (eventstore.AppendResult, []byte, error) {
		res, retried, rerr := idempotentRetry(w, stream, expected, events)
		if rerr != nil || retried {
			return res, nil, rerr
		}
		return eventstore.AppendResult{}, nil, err
	}
	current, existe, err := w.revisionDe(stream)
	if err != nil {
		return eventstore.AppendResult{}, nil, err
	}
	for _, g := range gardes {
		if err := verifierGarde(w, g); err != nil {
			return refus(err)
		}
	}
	if !expected.Check(uint64(current), existe) {
		return refus(&eventstore.ConflictError{Stream: stream, Expected: expected, Current: uint64(current), StreamExists: existe})
	}
	cles, err := s.verifierCles(w, t, events)
	if err != nil {
		return eventstore.AppendResult{}, nil, err
	}
	revision := uint64(current + 1)
	if !existe {
		revision = 0
	}
	position := uint64(t.position) + 1
	head := t.hash
	now := s.clock.Now().UTC().UnixNano()
	for i, e := range events {
		md := e.Metadata
		md.RecordedAt = time.Unix(0, now).UTC()
		head = integrity.ChainHash(head, eventstore.Event{ID: e.ID, Stream: stream, Revision: revision + uint64(i), Position: position + uint64(i),
			Type: e.Type, Version: e.Version, Data: e.Data, Metadata: md})
		err := w.executer(w.insert, int64(position+uint64(i)), stream, int64(revision+uint64(i)), e.ID[:], e.Type, int64(e.Version), []byte(e.Data),
			md.Actor, md.Role, md.CorrelationID, md.CausationID, now, md.Request, head)
		if err != nil {
			if isUniqueViolation(err) {
				doublon := eventstore.NewError(eventstore.CodeDuplicateEventID,
					fmt.Sprintf("event id %s is already stored elsewhere than %s", e.ID, stream), err)
				if i == 0 {
					return refus(doublon)
				}
				return eventstore.AppendResult{}, nil, doublon
			}
			return eventstore.AppendResult{}, nil, classify("inserting into "+stream, err)
		}
	}
	n := uint64(len(events))
	t.position, t.hash = int64(position+n-1), head
	t.noterCles(cles)
	return eventstore.AppendResult{Revision: revision + n - 1, Position: position + n - 1}, head, nil
}

// revisionDe is the revision of stream's last event in the transaction,
// false when the stream has none.
func (w *ecrivain) revisionDe(stream string) (int64, bool, error) {
	ligne := w.colonnes(1)
	if _, err := w.ligne(w.revision, ligne, stream); err != nil {
		return 0, false, classify("reading revision of "+stream, err)
	}
	current, existe := entier(ligne[0])
	return current, existe, nil
}

// verifierGarde checks one guard of an append in its transaction: a
// guarded stream (or sub-streams) that moved past the position the command
// read is a conflict on that stream.
func verifierGarde(w *ecrivain, g eventstore.Guard) error {
	ligne := w.colonnes(1)
	var err error
	if g.Sections {
		de, a := streamname.SectionBounds(g.Stream)
		_, err = w.ligne(w.gardeSousFlux, ligne, de, a)
	} else {
		_, err = w.ligne(w.gardeFlux, ligne, g.Stream, g.Stream)
	}
	if err != nil {
		return classify("checking "+g.String(), err)
	}
	if last, ok := entier(ligne[0]); ok && uint64(last) > g.After {
		return &eventstore.ConflictError{Stream: g.Stream, Expected: eventstore.Any, Current: uint64(last), StreamExists: true}
	}
	return nil
}

// idempotentRetry recognizes a batch that is already stored. When the first
// event id is found in the same stream, at the revision the expectation
// points to (any revision for Any and StreamExists), and the following
// revisions hold the following ids, the append is a retry and succeeds
// without writing. A partial match is a conflict. An id stored in another
// stream is ErrDuplicateEventID: unlike EventStoreDB, ids are unique across
// the whole SQLite store.
func idempotentRetry(w *ecrivain, stream string, expected eventstore.ExpectedRevision, events []eventstore.EventData) (eventstore.AppendResult, bool, error) {
	ligne := w.colonnes(2)
	lue, err := w.ligne(w.evenement, ligne, events[0].ID[:])
	switch {
	case err != nil:
		return eventstore.AppendResult{}, false, classify("looking up event id", err)
	case !lue:
		return eventstore.AppendResult{}, false, nil
	}
	storedStream, _ := ligne[0].(string)
	first, _ := entier(ligne[1])
	if storedStream != stream {
		return eventstore.AppendResult{}, false, eventstore.NewError(eventstore.CodeDuplicateEventID,
			fmt.Sprintf("event id %s is already stored in %s, not %s", events[0].ID, storedStream, stream), nil)
	}
	conflict := func() error {
		current, _, err := w.revisionDe(stream)
		if err != nil {
			return err
		}
		return &eventstore.ConflictError{Stream: stream, Expected: expected, Current: uint64(current), StreamExists: true}
	}
	if want, exact := expected.Exact(); (exact && uint64(first) != want+1) || (expected.IsNoStream() && first != 0) {
		return eventstore.AppendResult{}, false, conflict()
	}
	matched := 0
	var position int64
	err = w.lignes(w.suite, ligne, func() error {
		if id, _ := ligne[0].([]byte); !bytes.Equal(id, events[matched].ID[:]) {
			return io.EOF
		}
		position, _ = entier(ligne[1])
		matched++
		return nil
	}, stream, first, int64(len(events)))
	if err != nil {
		return eventstore.AppendResult{}, false, classify("reading "+stream, err)
	}
	if matched != len(events) {
		return eventstore.AppendResult{}, false, conflict()
	}
	return eventstore.AppendResult{Revision: uint64(first) + uint64(matched) - 1, Position: uint64(position)}, true, nil
}

func isUniqueViolation(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE
}
