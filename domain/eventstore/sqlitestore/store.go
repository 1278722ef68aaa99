// Package sqlitestore is the embedded event store: one SQLite file, written
// by one writer at a time and read by many readers, all on the SQLite that
// modernc.org/sqlite compiles to Go (no cgo): the writer through its
// database/sql driver's connection, driven directly (ecrivain.go), the
// readers through zombiezen.com/go/sqlite connections (lecture.go).
//
// Durability: the database runs in WAL mode with synchronous=FULL, so each
// append transaction fsyncs the write-ahead log before Append returns. An
// acknowledged event therefore survives a process crash and a power loss
// (NORMAL would only survive a process crash). Appends are serialized by a
// mutex in the process, those waiting for it written together in one
// transaction (group commit), and by BEGIN IMMEDIATE between processes;
// readers use their own connections and never block the writer.
//
// Global positions are assigned inside the writer transaction as
// MAX(position)+1, so they are gapless: a rolled-back append consumes none.
//
// One concern a file: store.go opens and closes the store, schema.go the
// file's layout and its upgrades, append.go the writer (group commit,
// guards, idempotent retries), ecrivain.go its connection and statements,
// lot.go batches of streams, read.go the reads, lecture.go the reader
// connections, subscribe.go subscriptions, seal.go the seal file beside
// the store, cles.go the idempotency keys.
package sqlitestore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/integrity"
	"arbitre/domain/eventstore/sqlitefile"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
	zsqlite "zombiezen.com/go/sqlite"
)

// FileName is the name of the store file inside the --data directory.
const FileName = "events.db"

// Options tune a Store.
type Options struct {
	// Clock stamps RecordedAt; the system clock when nil.
	Clock eventstore.Clock
	// PollInterval bounds how long a live subscription may miss an append
	// made by another process; appends of this process wake subscribers at
	// once. One second when zero.
	PollInterval time.Duration
	// Readers is the size of the reader connection pool; 4 when zero.
	Readers int
}

// Store is the SQLite event store. It is safe for concurrent use.
type Store struct {
	path     string
	identity string
	clock    eventstore.Clock
	poll     time.Duration
	writer   *sql.DB
	reader   *lecteurs

	// ecriture is the writer's connection and its statements, prepared
	// once (ecrivain.go): a statement passed as text is parsed and planned
	// at every execution (a fifth of the server's CPU while fifty arbiters
	// enter bulletins). Under writeLock.
	ecriture  *ecrivain
	writeLock sync.Mutex
	changes   notifier
	// attente are the appends waiting to be written: the next group's
	// leader, which holds meneur (a token, capacity one) and then
	// writeLock, writes them all (AppendGuarded).
	attenteMu sync.Mutex
	attente   []*ajout
	meneur    chan struct{}
	// cles are the log's idempotency keys, in memory (KeyReused).
	cles cles

	// sealed receives each committed head for the seal writer (see
	// writeSeals), which writes the last one once Close closes sealEnd
	// (no append commits after that) and then closes sealDone.
	sealed   chan integrity.Seal
	sealEnd  chan struct{}
	sealDone chan struct{}
	// rupture is why the log does not extend the seal file (see Rupture),
	// nil while it does.
	rupture   atomic.Pointer[error]
	closeOnce sync.Once
	closed    chan struct{}
}

var _ eventstore.Store = (*Store)(nil)

// OpenDir opens or creates the store file FileName in dir.
func OpenDir(ctx context.Context, dir string, opts Options) (*Store, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, eventstore.NewError(eventstore.CodeUnavailable, "creating data directory "+dir, err)
	}
	return Open(ctx, filepath.Join(dir, FileName), opts)
}

// Open opens the store file at path, creating it when it does not exist or
// is empty. An existing file that is not a healthy Arbitre store (not
// SQLite, truncated, corrupted, another application's database) is refused
// with ErrCorruptStore and left untouched.
func Open(ctx context.Context, path string, opts Options) (*Store, error) {
	if err := sqlitefile.CreatePrivate(path); err != nil {
		return nil, unavailable("creating "+path, err)
	}
	existing, err := hasContent(path)
	if err != nil {
		return nil, err
	}
	if existing {
		if existing, err = checkExisting(ctx, path); err != nil {
			return nil, err
		}
	}
	s := &Store{path: path, clock: opts.Clock, poll: opts.PollInterval, closed: make(chan struct{}), changes: newNotifier(), meneur: make(chan struct{}, 1),
		sealed: make(chan integrity.Seal, 1), sealEnd: make(chan struct{}), sealDone: make(chan struct{})}
	if s.clock == nil {
		s.clock = eventstore.SystemClock
	}
	if s.poll <= 0 {
		s.poll = time.Second
	}
	readers := opts.Readers
	if readers <= 0 {
		readers = 4
	}
	err = s.openPools(ctx, existing, readers)
	if err == nil {
		err = s.verifierSceau(ctx)
	}
	if err != nil {
		s.closePools()
		return nil, err
	}
	go s.writeSeals()
	return s, nil
}

// writerCache is the writer's page cache, in KiB (SQLite's negative
// cache_size): an event's id is a hash, so each insert lands at a random
// place of the id index, and SQLite's default 2 MiB made most inserts read
// and write index pages back and forth (simulate classique 1,000 × 11:
// the appends' CPU 9.9 s with the default, 8.2–8.4 s with 64 MiB). The
// cache fills as pages are used: a small store does not take it all.
const writerCache = 64 << 10

func (s *Store) openPools(ctx context.Context, existing bool, readers int) error {
	var err error
	if s.writer, err = sql.Open("sqlite", dsn(s.path, fmt.Sprintf("_pragma=cache_size(-%d)", writerCache))); err != nil {
		return unavailable("opening "+s.path, err)
	}
	s.writer.SetMaxOpenConns(1)
	s.writer.SetMaxIdleConns(1)
	s.writer.SetConnMaxLifetime(0)
	if !existing {
		// One transaction: a crash leaves either no table or a complete store.
		create := fmt.Sprintf("BEGIN IMMEDIATE; %s; PRAGMA application_id = %d; PRAGMA user_version = %d; COMMIT;", schema, applicationID, schemaVersion)
		if _, err := s.writer.ExecContext(ctx, create); err != nil {
			return unavailable("creating schema in "+s.path, err)
		}
	} else if err := s.upgrade(ctx); err != nil {
		return err
	}
	if s.reader, err = ouvrirLecteurs(s.path, readers); err != nil {
		return classify("opening "+s.path, err)
	}
	err = s.reader.lire(ctx, "reading the identity of "+s.path, `SELECT id FROM identite`, nil, func(stmt *zsqlite.Stmt) error {
		s.identity = stmt.ColumnText(0)
		return nil
	})
	if err != nil {
		return err
	}
	return s.preparerEcrivain(ctx)
}

// Path returns the store file.
func (s *Store) Path() string { return s.path }

// Close closes the store; running subscriptions return ErrClosed.
func (s *Store) Close() error {
	var err error
	s.closeOnce.Do(func() {
		close(s.closed)
		s.writeLock.Lock()
		defer s.writeLock.Unlock()
		close(s.sealEnd)
		<-s.sealDone
		err = s.closePools()
	})
	return err
}

func (s *Store) closePools() error {
	errs := []error{s.fermerEcrivain()}
	if s.reader != nil {
		errs = append(errs, s.reader.close())
	}
	if s.writer != nil {
		errs = append(errs, s.writer.Close())
	}
	return errors.Join(errs...)
}

func (s *Store) isClosed() bool {
	select {
	case <-s.closed:
		return true
	default:
		return false
	}
}

// classify maps driver errors to store codes: a damaged file is
// ErrCorruptStore, anything else ErrUnavailable.
func classify(what string, err error) error {
	var se *sqlite.Error
	code := int(zsqlite.ErrCode(err).ToPrimary())
	if errors.As(err, &se) {
		code = se.Code() & 0xff
	}
	switch code {
	case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
		return eventstore.NewError(eventstore.CodeCorruptStore, what, err)
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return unavailable(what, incertaine(err))
}

func unavailable(what string, err error) error {
	return eventstore.NewError(eventstore.CodeUnavailable, what, err)
}
