package sqlitestore

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"time"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/integrity"
	"arbitre/domain/eventstore/intern"

	"github.com/google/uuid"
	"zombiezen.com/go/sqlite"
	"zombiezen.com/go/sqlite/sqlitex"
)

// lecteurs is the store's pool of read connections. Reads go through
// zombiezen's connections rather than database/sql: the same SQLite, but
// opened without its per-call mutex, each column read in place and copied
// once into the page's memory, where database/sql boxed every value of every
// row and copied each BLOB twice. Reading the 1,066,724 events of the
// 1,000-player, 23-game store on one core: 5.8–7.3 s through database/sql,
// 2.4–3.0 s this way (issue 16, item 10). Appends stay on the writer, a
// database/sql connection.
//
// The pool is its own rather than sqlitex.Pool, for two reasons (with
// sqlitex.Pool, arbitre charge entered a coup's bulletins in 1.6–2.6 s
// against 1.3–1.8 s through database/sql; docs/charge.md): a read checks
// its context between rows rather than through SetInterrupt, which starts
// a goroutine per read and waits for it when the connection comes back;
// and a prepared statement is run again as it is, where zombiezen's Prepare
// clears the bindings of the statement it finds cached, after which SQLite
// compiles again, at its next step, a statement whose plan looked at a
// parameter (a LIMIT ?, a range on an index): a quarter of the CPU of
// every read of a stream went to that. Connections are handed out in turn
// (handing out the one returned last was no faster under arbitre charge).
type lecteurs struct {
	// libres are the idle connections; ferme is closed when the pool
	// closes, after which no connection is handed out.
	libres chan *lecteur
	ferme  chan struct{}
	tous   []*lecteur
}

// lecteur is one read connection and the statements it prepared.
type lecteur struct {
	conn         *sqlite.Conn
	instructions map[string]*sqlite.Stmt
}

// ouvrirLecteurs opens n read connections to the store file at path, which
// exists and is in WAL mode.
func ouvrirLecteurs(path string, n int) (*lecteurs, error) {
	l := &lecteurs{libres: make(chan *lecteur, n), ferme: make(chan struct{})}
	for range n {
		conn, err := sqlite.OpenConn("file:"+path, sqlite.OpenReadWrite|sqlite.OpenURI)
		if err == nil {
			conn.SetBusyTimeout(10 * time.Second)
			if err = sqlitex.ExecuteTransient(conn, `PRAGMA query_only = 1`, nil); err != nil {
				conn.Close()
			}
		}
		if err != nil {
			return nil, errors.Join(err, l.close())
		}
		lc := &lecteur{conn: conn, instructions: map[string]*sqlite.Stmt{}}
		l.tous = append(l.tous, lc)
		l.libres <- lc
	}
	return l, nil
}

// close waits for every connection to come back and closes them.
func (l *lecteurs) close() error {
	close(l.ferme)
	var errs []error
	for range l.tous {
		errs = append(errs, (<-l.libres).conn.Close())
	}
	return errors.Join(errs...)
}

// prendre takes an idle connection, waiting for one if need be.
func (l *lecteurs) prendre(ctx context.Context) (*lecteur, error) {
	select {
	case <-l.ferme:
		return nil, eventstore.ErrClosed
	default:
	}
	select {
	case lc := <-l.libres:
		return lc, nil
	case <-l.ferme:
		return nil, eventstore.ErrClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (l *lecteurs) rendre(lc *lecteur) {
	l.libres <- lc
}

// instruction is query prepared on lc's connection, once: the connection
// keeps it (zombiezen's cache) and finalizes it when it closes.
func (lc *lecteur) instruction(query string) (*sqlite.Stmt, error) {
	if stmt, ok := lc.instructions[query]; ok {
		return stmt, nil
	}
	stmt, err := lc.conn.Prepare(query)
	if err != nil {
		return nil, err
	}
	lc.instructions[query] = stmt
	return stmt, nil
}

// lire runs query with args on a read connection and hands each row to
// row; it stops at the first error row returns (an *eventstore.Error,
// returned as it is), and between rows once ctx is done.
func (l *lecteurs) lire(ctx context.Context, what, query string, args []any, row func(*sqlite.Stmt) error) error {
	lc, err := l.prendre(ctx)
	if err != nil {
		return err
	}
	defer l.rendre(lc)
	stmt, err := lc.instruction(query)
	if err != nil {
		return classify(what, err)
	}
	defer stmt.Reset()
	for i, a := range args {
		switch v := a.(type) {
		case int64:
			stmt.BindInt64(i+1, v)
		case int:
			stmt.BindInt64(i+1, int64(v))
		case string:
			stmt.BindText(i+1, v)
		default:
			panic(fmt.Sprintf("sqlitestore: cannot bind a %T", a))
		}
	}
	for n := 0; ; n++ {
		if n%256 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		ok, err := stmt.Step()
		if err != nil {
			return classify(what, err)
		}
		if !ok {
			return nil
		}
		if err := row(stmt); err != nil {
			return err
		}
	}
}

// evenements reads the events query (which selects eventColumns) returns,
// with room for size of them. A query that also selects the hash of the
// event before each (precedent: the reads of streams) has each event
// checked against it: an event altered in the file, or one removed,
// inserted or moved before it, is eventstore.ErrTampered.
//
// A few events are given room first, the rest of size once they are
// found: most reads of a page find a few (every command's catch-up of the
// idempotency keys asks a page of 1,000 and finds two or three), and a
// room of 1,000 events was 240 KB zeroed each time (issue 34).
func (l *lecteurs) evenements(ctx context.Context, what, query string, size int, args ...any) ([]eventstore.Event, error) {
	out := make([]eventstore.Event, 0, min(size, premiersEvenements))
	var r releve
	err := l.lire(ctx, what, query, args, func(stmt *sqlite.Stmt) error {
		if len(out) == cap(out) && size > cap(out) {
			out = slices.Grow(out, size-len(out))
		}
		e, err := r.evenement(stmt)
		if err != nil {
			return err
		}
		if stmt.ColumnCount() > colonnesLues {
			var avant [sha256.Size]byte
			n := stmt.ColumnBytes(colonnesLues, avant[:])
			if err := integrity.NewChainLink(avant[:n]).Check(e); err != nil {
				return err
			}
		}
		out = append(out, e)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// premiersEvenements is the room a read first gives the events it finds.
const premiersEvenements = 16

// The blocks a read copies its payloads and hashes into start at
// premierBloc bytes and double up to dernierBloc: a read of one stream
// allocates little, a page of the log's thousands of events share a few
// dozen allocations, and an event kept after its read holds at most one
// block.
const (
	premierBloc = 4 << 10
	dernierBloc = 64 << 10
)

// releve turns rows into events: its strings are interned
// (eventstore.Intern), its payloads and hashes copied into shared blocks.
// A value is copied out without asking its length first whenever the room
// given can tell it is whole (one call into SQLite per column instead of
// two).
type releve struct {
	block []byte
	// precedents are the strings of the row before, by column: metadata
	// and streams repeat from one event to the next, and a column equal to
	// the one before is not looked up in the cache.
	precedents [colonnesLues]string
}

// colonnesLues is the number of eventColumns.
const colonnesLues = 14

// chaine is column col as a string, interned.
func (r *releve) chaine(stmt *sqlite.Stmt, col int) string {
	var buf [128]byte
	b := buf[:stmt.ColumnBytes(col, buf[:])]
	if len(b) == len(buf) {
		if n := stmt.ColumnLen(col); n > len(b) {
			b = make([]byte, n)
			stmt.ColumnBytes(col, b)
		}
	}
	if p := r.precedents[col]; p == string(b) {
		return p
	}
	s := intern.Intern(b)
	r.precedents[col] = s
	return s
}

// copie is column col's bytes (nil when empty), copied into the current
// block.
func (r *releve) copie(stmt *sqlite.Stmt, col int) []byte {
	start := len(r.block)
	libre := r.block[start:cap(r.block)]
	if n := stmt.ColumnBytes(col, libre); n < len(libre) {
		if n == 0 {
			return nil
		}
		r.block = r.block[:start+n]
		return r.block[start : start+n : start+n]
	}
	n := stmt.ColumnLen(col)
	if n > dernierBloc/4 {
		b := make([]byte, n)
		stmt.ColumnBytes(col, b)
		return b
	}
	if cap(r.block)-start < n {
		r.block = make([]byte, 0, max(min(max(2*cap(r.block), premierBloc), dernierBloc), n))
		start = 0
	}
	r.block = r.block[:start+n]
	stmt.ColumnBytes(col, r.block[start:])
	return r.block[start : start+n : start+n]
}

// evenement reads the row of stmt, whose columns are eventColumns.
func (r *releve) evenement(stmt *sqlite.Stmt) (eventstore.Event, error) {
	e := eventstore.Event{
		Position: uint64(stmt.ColumnInt64(0)),
		Stream:   r.chaine(stmt, 1),
		Revision: uint64(stmt.ColumnInt64(2)),
	}
	var id [16]byte
	if stmt.ColumnLen(3) != len(id) {
		return e, eventstore.NewError(eventstore.CodeCorruptStore, fmt.Sprintf("event at position %d has a malformed id", e.Position), nil)
	}
	stmt.ColumnBytes(3, id[:])
	e.ID = uuid.UUID(id)
	e.Type = r.chaine(stmt, 4)
	e.Version = stmt.ColumnInt(5)
	e.Data = r.copie(stmt, 6)
	e.Metadata = eventstore.Metadata{
		Actor: r.chaine(stmt, 7), Role: r.chaine(stmt, 8),
		CorrelationID: r.chaine(stmt, 9), CausationID: r.chaine(stmt, 10),
		RecordedAt: time.Unix(0, stmt.ColumnInt64(11)).UTC(),
		Request:    r.chaine(stmt, 12),
	}
	e.Hash = r.copie(stmt, 13)
	return e, nil
}
