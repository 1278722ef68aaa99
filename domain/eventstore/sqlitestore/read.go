package sqlitestore

import (
	"context"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/streamname"

	zsqlite "zombiezen.com/go/sqlite"
)

// The reads of events, on the reader connections.
const (
	lectureJournal      = `SELECT ` + eventColumns + ` FROM events WHERE position >= ? ORDER BY position LIMIT ` + limite
	lectureJournalApres = `SELECT ` + eventColumns + ` FROM events WHERE position > ? ORDER BY position LIMIT ` + limite
	lectureTranche      = `SELECT ` + eventColumns + ` FROM events WHERE position > ? AND position <= ? ORDER BY position`
	lectureFlux         = `SELECT ` + eventColumns + `, ` + precedent + ` FROM events WHERE stream = ? AND revision >= ? ORDER BY revision LIMIT ` + limite
	lectureSections     = `SELECT ` + eventColumns + `, ` + precedent + ` FROM events WHERE stream = ? UNION ALL SELECT ` + eventColumns + `, ` + precedent + ` FROM events WHERE stream > ? AND stream < ? ORDER BY position`
	// lectureSuite walks the log from the position: the unary + keeps
	// SQLite from planning it over the streams' index, every event of the
	// game and its tables sorted again at each read (issue 34).
	lectureSuite = `SELECT ` + eventColumns + `, ` + precedent + ` FROM events WHERE position > ? AND (+stream = ? OR (+stream > ? AND +stream < ?)) ORDER BY position`
)

// limite is a read's LIMIT: a bound value the planner cannot read. It
// read a bare ? as it planned, and SQLite then compiled the statement again
// at its first execution with another value on the same connection
// (sqlite3Reprepare): the log's reads with pages of 1,000 (idempotency
// keys), 999 (read models following the log) and 512 (subscriptions) took
// turns on each connection, a stream's first event and its whole read too
// (issue 34). Every plan here follows an index in order and stops at the
// limit whatever it is.
const limite = `CAST(? AS INTEGER)`

// precedent selects, beside an event of a stream, the hash of the event
// before it in the global log (NULL for the first): one seek of the
// table's B-tree. A read that selects it checks each event's chain
// (lecteurs.evenements), so an aggregate is never loaded from an event
// altered in the file; a read of the global log checks its own chain from
// page to page (projections, verify) and does not select it.
const precedent = `(SELECT avant.hash FROM events AS avant WHERE avant.position < events.position ORDER BY avant.position DESC LIMIT 1)`

// lectureBorne gives, for a page of the log after position ?1 of at most
// ?2 positions, its last event and the first event after it (NULL: none),
// each by one seek of the table's B-tree (Bound).
const lectureBorne = `SELECT
	(SELECT position FROM events WHERE position > ?1 AND position <= ?2 ORDER BY position DESC LIMIT 1),
	(SELECT position FROM events WHERE position > ?2 ORDER BY position LIMIT 1)`

// ReadSections implements eventstore.Sections: the stream and its
// sub-streams after a position, in global order. A whole read goes through
// the streams' index; a read on from a position (a repository's cached
// aggregate) walks the global log from there, which holds few events.
func (s *Store) ReadSections(ctx context.Context, stream string, after uint64) ([]eventstore.Event, error) {
	de, a := streamname.SectionBounds(stream)
	if after > 0 {
		return s.reader.evenements(ctx, "reading "+stream+" and its tables", lectureSuite, 0, int64(after), stream, de, a)
	}
	return s.reader.evenements(ctx, "reading "+stream+" and its tables", lectureSections, 0, stream, de, a)
}

// ReadStream implements eventstore.Reader.
func (s *Store) ReadStream(ctx context.Context, stream string, from uint64, limit int) ([]eventstore.Event, error) {
	if err := eventstore.ValidateLimit(limit); err != nil {
		return nil, err
	}
	return s.reader.evenements(ctx, "reading "+stream, lectureFlux, min(limit, room), stream, int64(from), limit)
}

// ReadAll implements eventstore.Reader.
func (s *Store) ReadAll(ctx context.Context, from uint64, limit int) ([]eventstore.Event, error) {
	if err := eventstore.ValidateLimit(limit); err != nil {
		return nil, err
	}
	return s.reader.evenements(ctx, "reading the global log", lectureJournal, min(limit, room), int64(from), limit)
}

// ReadAllAfter implements eventstore.Reader.
func (s *Store) ReadAllAfter(ctx context.Context, after uint64, limit int) ([]eventstore.Event, error) {
	if err := eventstore.ValidateLimit(limit); err != nil {
		return nil, err
	}
	return s.reader.evenements(ctx, "reading the global log", lectureJournalApres, min(limit, room), int64(after), limit)
}

// Bound implements eventstore.Ranges. The store's positions are its
// table's keys: a page ends at the last event of the n positions after
// after, n events unless some are missing, found by one seek. (Stepping
// over the page's rows instead read the leaves of the table, the events,
// a second time: 5 % of a rebuild's CPU.)
func (s *Store) Bound(ctx context.Context, after uint64, n int) (uint64, bool, error) {
	if err := eventstore.ValidateLimit(n); err != nil {
		return 0, false, err
	}
	var fin, suivant int64
	err := s.reader.lire(ctx, "reading the global log", lectureBorne, []any{int64(after), int64(after + uint64(n))}, func(stmt *zsqlite.Stmt) error {
		fin, suivant = stmt.ColumnInt64(0), stmt.ColumnInt64(1)
		return nil
	})
	switch {
	case err != nil || suivant == 0:
		// Every event after after is in (after, after+n]: n at most.
		return 0, false, err
	case fin == 0:
		// No event in (after, after+n]: the page is the next one alone.
		return uint64(suivant), true, nil
	}
	return uint64(fin), true, nil
}

// ReadAllUpTo implements eventstore.Ranges.
func (s *Store) ReadAllUpTo(ctx context.Context, after, upTo uint64) ([]eventstore.Event, error) {
	return s.reader.evenements(ctx, "reading the global log", lectureTranche, room, int64(after), int64(upTo))
}

// LastPosition returns the global position of the last event (0 when empty).
func (s *Store) LastPosition(ctx context.Context) (uint64, error) {
	var last uint64
	err := s.reader.lire(ctx, "reading the last position", `SELECT COALESCE(MAX(position), 0) FROM events`, nil, func(stmt *zsqlite.Stmt) error {
		last = uint64(stmt.ColumnInt64(0))
		return nil
	})
	return last, err
}
