package sqlitestore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"arbitre/domain/eventstore"

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
type lecteurs struct {
	pool *sqlitex.Pool
}

// ouvrirLecteurs opens n read connections to the store file at path, which
// exists and is in WAL mode.
func ouvrirLecteurs(path string, n int) (*lecteurs, error) {
	pool, err := sqlitex.NewPool("file:"+path, sqlitex.PoolOptions{
		Flags:    sqlite.OpenReadWrite | sqlite.OpenURI,
		PoolSize: n,
		PrepareConn: func(conn *sqlite.Conn) error {
			conn.SetBusyTimeout(10 * time.Second)
			return sqlitex.ExecuteTransient(conn, `PRAGMA query_only = 1`, nil)
		},
	})
	if err != nil {
		return nil, err
	}
	return &lecteurs{pool: pool}, nil
}

func (l *lecteurs) close() error {
	return l.pool.Close()
}

// lire runs query with args on a read connection and hands each row to
// row; it stops at the first error row returns (an *eventstore.Error,
// returned as it is).
func (l *lecteurs) lire(ctx context.Context, what, query string, args []any, row func(*sqlite.Stmt) error) error {
	conn, err := l.pool.Take(ctx)
	if err != nil {
		return classify(what, contextOr(ctx, err))
	}
	defer l.pool.Put(conn)
	err = sqlitex.Execute(conn, query, &sqlitex.ExecOptions{Args: args, ResultFunc: row})
	var stored *eventstore.Error
	if err == nil || errors.As(err, &stored) {
		return err
	}
	return classify(what, contextOr(ctx, err))
}

// contextOr is ctx's error when ctx is done (an interrupted read), else err.
func contextOr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// evenements reads the events query (which selects eventColumns) returns,
// in capacity size.
func (l *lecteurs) evenements(ctx context.Context, what, query string, size int, args ...any) ([]eventstore.Event, error) {
	out := make([]eventstore.Event, 0, size)
	var r releve
	err := l.lire(ctx, what, query, args, func(stmt *sqlite.Stmt) error {
		e, err := r.evenement(stmt)
		if err != nil {
			return err
		}
		out = append(out, e)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// chunk is the size of the blocks a read copies its payloads and hashes
// into: some hundred events share one allocation, and an event kept after
// its page holds at most one block.
const chunk = 64 << 10

// releve turns rows into events: its strings are interned
// (eventstore.Interne), its payloads and hashes copied into shared blocks.
type releve struct {
	block []byte
}

// chaine is column col as a string, interned.
func (r *releve) chaine(stmt *sqlite.Stmt, col int) string {
	var buf [128]byte
	b := buf[:0]
	if n := stmt.ColumnLen(col); n > len(buf) {
		b = make([]byte, n)
	} else {
		b = buf[:n]
	}
	stmt.ColumnBytes(col, b)
	return eventstore.Interne(b)
}

// copie is column col's bytes (nil when empty), copied into the current
// block.
func (r *releve) copie(stmt *sqlite.Stmt, col int) []byte {
	n := stmt.ColumnLen(col)
	switch {
	case n == 0:
		return nil
	case n > chunk/4:
		b := make([]byte, n)
		stmt.ColumnBytes(col, b)
		return b
	}
	if cap(r.block)-len(r.block) < n {
		r.block = make([]byte, 0, chunk)
	}
	start := len(r.block)
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
		Requete:    r.chaine(stmt, 12),
	}
	e.Hash = r.copie(stmt, 13)
	return e, nil
}
