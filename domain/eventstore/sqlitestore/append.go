package sqlitestore

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/integrity"
	"arbitre/domain/eventstore/streamname"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// instructionsEcriture are the statements of an append besides the insert,
// prepared on the writer.
type instructionsEcriture struct {
	savepoint, release, rollbackTo *sql.Stmt
	revision, evenement, tete      *sql.Stmt
	gardeFlux, gardeSousFlux       *sql.Stmt
}

// instruction is one statement the store prepares on the writer when it
// opens.
type instruction struct {
	stmt **sql.Stmt
	sql  string
}

func (s *Store) instructions() []instruction {
	e := &s.ecriture
	return []instruction{
		{&s.insert, `INSERT INTO events (` + eventColumns + `) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)`},
		{&e.savepoint, `SAVEPOINT ajout`},
		{&e.release, `RELEASE ajout`},
		{&e.rollbackTo, `ROLLBACK TO ajout`},
		{&e.revision, `SELECT MAX(revision) FROM events WHERE stream = ?`},
		{&e.evenement, `SELECT stream, revision FROM events WHERE event_id = ?`},
		{&e.tete, `SELECT position, hash FROM events ORDER BY position DESC LIMIT 1`},
		{&e.gardeSousFlux, `SELECT MAX(position) FROM events WHERE stream > ? AND stream < ?`},
		{&e.gardeFlux, `SELECT MAX(position) FROM events WHERE stream = ? AND revision = (SELECT MAX(revision) FROM events WHERE stream = ?)`},
	}
}

// Append implements eventstore.Store.
func (s *Store) Append(ctx context.Context, stream string, expected eventstore.ExpectedRevision, events ...eventstore.EventData) (eventstore.AppendResult, error) {
	return s.AppendGuarded(ctx, stream, expected, nil, events...)
}

var _ eventstore.Sections = (*Store)(nil)

// AppendGuarded implements eventstore.Sections: the guards are checked in
// the append's transaction, under the store's write lock.
//
// Group commit (issue 17): appends that arrive while another is being
// written wait for the write lock together, and the first to take it writes
// every one waiting in one transaction, so that fifty arbiters' bulletins
// cost one fsync instead of fifty. Each append runs under a savepoint of its
// own: one that fails (a conflict, a guard, a duplicate id) is rolled back
// alone and fails alone, the others are committed. Each caller is answered
// only after the commit that holds its events: an acknowledged append is
// durable as before.
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
	s.writeLock.Lock()
	select {
	case <-a.fait: // written by the append that held the lock before
	default:
		s.attenteMu.Lock()
		lot := s.attente
		s.attente = nil
		s.attenteMu.Unlock()
		s.ecrireLot(lot)
	}
	s.writeLock.Unlock()
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
// own savepoint, commits once and answers each; under the write lock.
func (s *Store) ecrireLot(lot []*ajout) {
	defer func() {
		for _, a := range lot {
			close(a.fait)
		}
	}()
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
	ctx := context.Background()
	tx, err := s.writer.BeginTx(ctx, nil)
	if err != nil {
		echouer(classify("starting an append", err))
		return
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	t, err := s.lireTete(ctx, tx)
	if err != nil {
		echouer(err)
		return
	}
	var dernier *ajout
	for _, a := range lot {
		if a.err = a.ctx.Err(); a.err != nil {
			continue
		}
		if _, err := tx.StmtContext(ctx, s.ecriture.savepoint).ExecContext(ctx); err != nil {
			a.err = classify("appending to "+a.stream, err)
			continue
		}
		a.res, a.head, a.err = s.appendInTx(ctx, tx, &t, a.stream, a.expected, a.gardes, a.events)
		fin := []*sql.Stmt{s.ecriture.release}
		if a.err != nil {
			fin = []*sql.Stmt{s.ecriture.rollbackTo, s.ecriture.release}
		} else if a.head != nil {
			dernier = a
		}
		for _, st := range fin {
			if _, err := tx.StmtContext(ctx, st).ExecContext(ctx); err != nil {
				echouer(classify("appending to "+a.stream, err))
				return
			}
		}
	}
	if dernier == nil {
		return // nothing written: idempotent retries and refusals only
	}
	if err := tx.Commit(); err != nil {
		echouer(classify("committing appends", err))
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

// lireTete reads the log's last event in tx (zero when the log is empty).
func (s *Store) lireTete(ctx context.Context, tx *sql.Tx) (tete, error) {
	var t tete
	err := tx.StmtContext(ctx, s.ecriture.tete).QueryRowContext(ctx).Scan(&t.position, &t.hash)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return tete{}, classify("reading global position", err)
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
func (s *Store) appendInTx(ctx context.Context, tx *sql.Tx, t *tete, stream string, expected eventstore.ExpectedRevision, gardes []eventstore.Guard, events []eventstore.EventData) (eventstore.AppendResult, []byte, error) {
	refus := func(err error) (eventstore.AppendResult, []byte, error) {
		res, retried, rerr := s.idempotentRetry(ctx, tx, stream, expected, events)
		if rerr != nil || retried {
			return res, nil, rerr
		}
		return eventstore.AppendResult{}, nil, err
	}
	var current sql.NullInt64
	if err := tx.StmtContext(ctx, s.ecriture.revision).QueryRowContext(ctx, stream).Scan(&current); err != nil {
		return eventstore.AppendResult{}, nil, classify("reading revision of "+stream, err)
	}
	for _, g := range gardes {
		if err := s.verifierGarde(ctx, tx, g); err != nil {
			return refus(err)
		}
	}
	if !expected.Check(uint64(current.Int64), current.Valid) {
		return refus(&eventstore.ConflictError{Stream: stream, Expected: expected, Current: uint64(current.Int64), StreamExists: current.Valid})
	}
	cles, err := s.verifierCles(ctx, tx, t, events)
	if err != nil {
		return eventstore.AppendResult{}, nil, err
	}
	revision := uint64(current.Int64 + 1)
	if !current.Valid {
		revision = 0
	}
	position := uint64(t.position) + 1
	head := t.hash
	now := s.clock.Now().UTC().UnixNano()
	insert := tx.StmtContext(ctx, s.insert)
	for i, e := range events {
		md := e.Metadata
		md.RecordedAt = time.Unix(0, now).UTC()
		head = integrity.ChainHash(head, eventstore.Event{ID: e.ID, Stream: stream, Revision: revision + uint64(i), Position: position + uint64(i),
			Type: e.Type, Version: e.Version, Data: e.Data, Metadata: md})
		_, err := insert.ExecContext(ctx, position+uint64(i), stream, revision+uint64(i), e.ID[:], e.Type, e.Version, []byte(e.Data),
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

// verifierGarde checks one guard of an append in its transaction: a
// guarded stream (or sub-streams) that moved past the position the command
// read is a conflict on that stream.
func (s *Store) verifierGarde(ctx context.Context, tx *sql.Tx, g eventstore.Guard) error {
	var last sql.NullInt64
	var err error
	if g.Sections {
		de, a := streamname.SectionBounds(g.Stream)
		err = tx.StmtContext(ctx, s.ecriture.gardeSousFlux).QueryRowContext(ctx, de, a).Scan(&last)
	} else {
		err = tx.StmtContext(ctx, s.ecriture.gardeFlux).QueryRowContext(ctx, g.Stream, g.Stream).Scan(&last)
	}
	if err != nil {
		return classify("checking "+g.String(), err)
	}
	if last.Valid && uint64(last.Int64) > g.After {
		return &eventstore.ConflictError{Stream: g.Stream, Expected: eventstore.Any, Current: uint64(last.Int64), StreamExists: true}
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
func (s *Store) idempotentRetry(ctx context.Context, tx *sql.Tx, stream string, expected eventstore.ExpectedRevision, events []eventstore.EventData) (eventstore.AppendResult, bool, error) {
	var storedStream string
	var first int64
	err := tx.StmtContext(ctx, s.ecriture.evenement).QueryRowContext(ctx, events[0].ID[:]).Scan(&storedStream, &first)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return eventstore.AppendResult{}, false, nil
	case err != nil:
		return eventstore.AppendResult{}, false, classify("looking up event id", err)
	case storedStream != stream:
		return eventstore.AppendResult{}, false, eventstore.NewError(eventstore.CodeDuplicateEventID,
			fmt.Sprintf("event id %s is already stored in %s, not %s", events[0].ID, storedStream, stream), nil)
	}
	conflict := func() error {
		var current int64
		if err := tx.StmtContext(ctx, s.ecriture.revision).QueryRowContext(ctx, stream).Scan(&current); err != nil {
			return classify("reading revision of "+stream, err)
		}
		return &eventstore.ConflictError{Stream: stream, Expected: expected, Current: uint64(current), StreamExists: true}
	}
	if want, exact := expected.Exact(); (exact && uint64(first) != want+1) || (expected.IsNoStream() && first != 0) {
		return eventstore.AppendResult{}, false, conflict()
	}
	rows, err := tx.QueryContext(ctx, `SELECT event_id, position FROM events WHERE stream = ? AND revision >= ? ORDER BY revision LIMIT ?`, stream, first, len(events))
	if err != nil {
		return eventstore.AppendResult{}, false, classify("reading "+stream, err)
	}
	defer rows.Close()
	matched := 0
	var position uint64
	for rows.Next() {
		var id []byte
		if err := rows.Scan(&id, &position); err != nil {
			return eventstore.AppendResult{}, false, classify("reading "+stream, err)
		}
		if !bytes.Equal(id, events[matched].ID[:]) {
			break
		}
		matched++
	}
	if err := rows.Err(); err != nil {
		return eventstore.AppendResult{}, false, classify("reading "+stream, err)
	}
	if matched != len(events) {
		return eventstore.AppendResult{}, false, conflict()
	}
	return eventstore.AppendResult{Revision: uint64(first) + uint64(matched) - 1, Position: position}, true, nil
}

func isUniqueViolation(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE
}
