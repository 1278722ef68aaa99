// Package sqlitestore is the embedded event store: one SQLite file, written
// by one writer at a time and read by many readers, all on the SQLite that
// modernc.org/sqlite compiles to Go (no cgo): the writer through its
// database/sql driver, the readers through zombiezen.com/go/sqlite
// connections (lecture.go).
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
package sqlitestore

import (
	"bytes"
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

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
	zsqlite "zombiezen.com/go/sqlite"
	"zombiezen.com/go/sqlite/sqlitex"
)

// FileName is the name of the store file inside the --data directory.
const FileName = "events.db"

// applicationID marks a file as an Arbitre event store ("ARBT").
const applicationID = 0x41524254

// schemaVersion is the layout version kept in PRAGMA user_version.
// Version 2 added the request fingerprint of each event (requete), version
// 3 the hash chaining each event to the previous one and the store's
// identity; an older file is upgraded when opened (see upgrade).
const schemaVersion = 3

const schema = `
CREATE TABLE events (
	position       INTEGER PRIMARY KEY,
	stream         TEXT    NOT NULL,
	revision       INTEGER NOT NULL,
	event_id       BLOB    NOT NULL UNIQUE,
	type           TEXT    NOT NULL,
	version        INTEGER NOT NULL,
	data           BLOB    NOT NULL,
	actor          TEXT    NOT NULL,
	role           TEXT    NOT NULL,
	correlation_id TEXT    NOT NULL,
	causation_id   TEXT    NOT NULL,
	recorded_at    INTEGER NOT NULL,
	requete        TEXT    NOT NULL DEFAULT '',
	hash           BLOB    NOT NULL DEFAULT x'',
	UNIQUE (stream, revision)
);
` + identitySchema

// identitySchema holds the store's identity, one row created with the store.
const identitySchema = `CREATE TABLE identite (id TEXT NOT NULL);
INSERT INTO identite (id) VALUES (lower(hex(randomblob(16))))`

// upgrades[v] brings a file of layout version v to version v+1 inside the
// upgrade's transaction on conn.
var upgrades = map[int]func(conn *zsqlite.Conn) error{
	1: func(conn *zsqlite.Conn) error {
		return sqlitex.ExecuteTransient(conn, `ALTER TABLE events ADD COLUMN requete TEXT NOT NULL DEFAULT ''`, nil)
	},
	2: chainExistingEvents,
}

// chainExistingEvents adds the hash column and the identity, and computes
// the chain over the events already stored, in global order.
func chainExistingEvents(conn *zsqlite.Conn) error {
	if err := sqlitex.ExecuteScript(conn, `ALTER TABLE events ADD COLUMN hash BLOB NOT NULL DEFAULT x''; `+identitySchema, nil); err != nil {
		return err
	}
	var previous []byte
	var from int64
	for {
		var events []eventstore.Event
		var r releve
		err := sqlitex.Execute(conn, lectureJournalApres, &sqlitex.ExecOptions{
			Args: []any{from, eventstore.PageSize},
			ResultFunc: func(stmt *zsqlite.Stmt) error {
				e, err := r.evenement(stmt)
				events = append(events, e)
				return err
			},
		})
		if err != nil {
			return err
		}
		for _, e := range events {
			previous = eventstore.ChainHash(previous, e)
			if err := sqlitex.Execute(conn, `UPDATE events SET hash = ? WHERE position = ?`, &sqlitex.ExecOptions{Args: []any{previous, int64(e.Position)}}); err != nil {
				return err
			}
			from = int64(e.Position)
		}
		if len(events) < eventstore.PageSize {
			return nil
		}
	}
}

const eventColumns = `position, stream, revision, event_id, type, version, data, actor, role, correlation_id, causation_id, recorded_at, requete, hash`

// The reads of events, on the reader connections.
const (
	lectureJournal      = `SELECT ` + eventColumns + ` FROM events WHERE position >= ? ORDER BY position LIMIT ?`
	lectureJournalApres = `SELECT ` + eventColumns + ` FROM events WHERE position > ? ORDER BY position LIMIT ?`
	lectureTranche      = `SELECT ` + eventColumns + ` FROM events WHERE position > ? AND position <= ? ORDER BY position`
	lectureFlux         = `SELECT ` + eventColumns + `, ` + precedent + ` FROM events WHERE stream = ? AND revision >= ? ORDER BY revision LIMIT ?`
	lectureSections     = `SELECT ` + eventColumns + `, ` + precedent + ` FROM events WHERE stream = ? UNION ALL SELECT ` + eventColumns + `, ` + precedent + ` FROM events WHERE stream > ? AND stream < ? ORDER BY position`
	lectureSuite        = `SELECT ` + eventColumns + `, ` + precedent + ` FROM events WHERE position > ? AND (stream = ? OR (stream > ? AND stream < ?)) ORDER BY position`
)

// precedent selects, beside an event of a stream, the hash of the event
// before it in the global log (NULL for the first): one seek of the
// table's B-tree. A read that selects it checks each event's chain
// (lecteurs.evenements), so an aggregate is never loaded from an event
// altered in the file; a read of the global log checks its own chain from
// page to page (projections, verify) and does not select it.
const precedent = `(SELECT avant.hash FROM events AS avant WHERE avant.position < events.position ORDER BY avant.position DESC LIMIT 1)`

// lectureBorne gives, for a page of the log after position ?1 of at most
// ?2 positions, its last event and the first event after it (NULL: none),
// each by one seek of the table's B-tree (Borne).
const lectureBorne = `SELECT
	(SELECT position FROM events WHERE position > ?1 AND position <= ?2 ORDER BY position DESC LIMIT 1),
	(SELECT position FROM events WHERE position > ?2 ORDER BY position LIMIT 1)`

// SealName is the seal file the store keeps beside its file: the position
// and hash of the last event it committed (see eventstore.Sceau).
const SealName = "sceau"

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

	// Prepared once: the driver keeps a prepared statement compiled, where
	// a statement passed as text is parsed and planned at every execution
	// (a fifth of the server's CPU while fifty arbiters enter bulletins).
	insert    *sql.Stmt
	ecriture  instructionsEcriture
	writeLock sync.Mutex
	changes   notifier
	// attente are the appends waiting for writeLock: the next holder
	// writes them all (AppendGuarded).
	attenteMu sync.Mutex
	attente   []*ajout

	// sealed receives each committed head for the seal writer (see
	// writeSeals), which writes the last one once Close closes sealEnd
	// (no append commits after that) and then closes sealDone.
	sealed   chan eventstore.Sceau
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
	if err := CreatePrivate(path); err != nil {
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
	s := &Store{path: path, clock: opts.Clock, poll: opts.PollInterval, closed: make(chan struct{}), changes: newNotifier(),
		sealed: make(chan eventstore.Sceau, 1), sealEnd: make(chan struct{}), sealDone: make(chan struct{})}
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
	if s.writer, err = sql.Open("sqlite", dsn(s.path, fmt.Sprintf("_txlock=immediate&_pragma=cache_size(-%d)", writerCache))); err != nil {
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
	for _, p := range s.instructions() {
		if *p.stmt, err = s.writer.PrepareContext(ctx, p.sql); err != nil {
			return classify("preparing "+p.sql, err)
		}
	}
	return nil
}

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

// upgrade brings an existing file to schemaVersion, one transaction per
// step: a crash leaves the file at a version this build still opens.
func (s *Store) upgrade(ctx context.Context) error {
	conn, err := zsqlite.OpenConn("file:"+s.path, zsqlite.OpenReadWrite|zsqlite.OpenURI)
	if err != nil {
		return classify("upgrading "+s.path, err)
	}
	defer conn.Close()
	conn.SetBusyTimeout(10 * time.Second)
	conn.SetInterrupt(ctx.Done())
	for {
		version, err := monter(conn)
		if err != nil {
			return unavailable(fmt.Sprintf("upgrading %s from schema version %d", s.path, version), contextOr(ctx, err))
		}
		if version == schemaVersion {
			return nil
		}
	}
}

// contextOr is ctx's error when ctx is done (an interrupted upgrade), else err.
func contextOr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// monter brings the file one layout version up, in one transaction, and
// returns the version it found.
func monter(conn *zsqlite.Conn) (version int, err error) {
	end, err := sqlitex.ImmediateTransaction(conn)
	if err != nil {
		return 0, err
	}
	defer end(&err)
	err = sqlitex.ExecuteTransient(conn, `PRAGMA user_version`, &sqlitex.ExecOptions{ResultFunc: func(stmt *zsqlite.Stmt) error {
		version = stmt.ColumnInt(0)
		return nil
	}})
	if err != nil || version == schemaVersion {
		return version, err
	}
	if err := upgrades[version](conn); err != nil {
		return version, err
	}
	return version, sqlitex.ExecuteTransient(conn, fmt.Sprintf("PRAGMA user_version = %d", version+1), nil)
}

// CreatePrivate creates an empty database file at path that only its owner
// may read and write (0600), unless something exists there already. SQLite
// gives the -wal and -shm files it creates beside it the same mode, so the
// events and everything derived from them stay private.
func CreatePrivate(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return f.Close()
}

// dsn builds the connection string. journal_mode=WAL is persistent in the
// file; synchronous=FULL and the busy timeout are per connection.
func dsn(path string, extra string) string {
	return "file:" + path + "?_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_pragma=busy_timeout(10000)&" + extra
}

func hasContent(path string) (bool, error) {
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return false, nil
	case err != nil:
		return false, unavailable("inspecting "+path, err)
	case info.IsDir():
		return false, eventstore.NewError(eventstore.CodeInvalidArgument, path+" is a directory, not a store file", nil)
	}
	return info.Size() > 0, nil
}

// checkExisting refuses a file that is not an intact Arbitre store, through
// a connection that only reads. It returns false for a valid SQLite file
// without any table (a creation interrupted before its transaction), which
// is safe to initialize.
func checkExisting(ctx context.Context, path string) (bool, error) {
	err := checkStoreFile(ctx, path)
	if errors.Is(err, errEmptyDatabase) {
		return false, nil
	}
	return err == nil, err
}

var errEmptyDatabase = errors.New("database has no table")

func checkStoreFile(ctx context.Context, path string) error {
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)&_pragma=query_only(1)")
	if err != nil {
		return unavailable("opening "+path, err)
	}
	defer db.Close()
	corrupt := func(detail string, cause error) error {
		return eventstore.NewError(eventstore.CodeCorruptStore, path+": "+detail, cause)
	}
	var app, version int
	if err := db.QueryRowContext(ctx, `PRAGMA application_id`).Scan(&app); err != nil {
		return corrupt("not a readable SQLite database", err)
	}
	if app == 0 {
		var tables int
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_master`).Scan(&tables); err != nil {
			return corrupt("not a readable SQLite database", err)
		}
		if tables == 0 {
			return errEmptyDatabase
		}
	}
	if app != applicationID {
		return corrupt(fmt.Sprintf("not an Arbitre event store (application id %#x)", app), nil)
	}
	if err := db.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&version); err != nil {
		return corrupt("reading the schema version", err)
	}
	if version < 1 || version > schemaVersion {
		return corrupt(fmt.Sprintf("schema version %d, this build reads %d", version, schemaVersion), nil)
	}
	rows, err := db.QueryContext(ctx, `PRAGMA quick_check`)
	if err != nil {
		return corrupt("integrity check failed to run", err)
	}
	defer rows.Close()
	var findings []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return corrupt("integrity check failed", err)
		}
		if line != "ok" {
			findings = append(findings, line)
		}
	}
	if err := rows.Err(); err != nil {
		return corrupt("integrity check failed", err)
	}
	if len(findings) > 0 {
		return corrupt(fmt.Sprintf("integrity check: %q", findings), nil)
	}
	return nil
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
	var errs []error
	for _, p := range s.instructions() {
		if *p.stmt != nil {
			errs = append(errs, (*p.stmt).Close())
		}
	}
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
func (s *Store) AppendGuarded(ctx context.Context, stream string, expected eventstore.ExpectedRevision, gardes []eventstore.Garde, events ...eventstore.EventData) (eventstore.AppendResult, error) {
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
	gardes   []eventstore.Garde
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
	echouer := func(err error) {
		for _, a := range lot {
			if a.err == nil {
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
	var dernier *ajout
	for _, a := range lot {
		if a.err = a.ctx.Err(); a.err != nil {
			continue
		}
		if _, err := tx.StmtContext(ctx, s.ecriture.savepoint).ExecContext(ctx); err != nil {
			a.err = classify("appending to "+a.stream, err)
			continue
		}
		a.res, a.head, a.err = s.appendInTx(ctx, tx, a.stream, a.expected, a.gardes, a.events)
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
	s.committed(eventstore.Sceau{Position: dernier.res.Position, Hash: dernier.head})
}

// sealInterval is the least time between two seals: replacing a file makes
// ext4 flush it with the next fsync, which doubled the cost of an append
// when every append moved the seal.
const sealInterval = time.Second

// writeSeals keeps the seal file beside the store at the last committed
// head, off the append path and at most once per sealInterval: heads
// committed in between are coalesced into the next seal, and Close writes
// the last one. The events
// are durable before their head reaches the seal, so the seal never names a
// head the file lacks; it may lag (a crash just after a commit, another
// process appending at the same time), which only makes it a shorter
// prefix.
func (s *Store) writeSeals() {
	defer close(s.sealDone)
	for {
		select {
		case head := <-s.sealed:
			s.seal(head)
			select {
			case <-time.After(sealInterval):
			case <-s.sealEnd:
			}
		case <-s.sealEnd:
			select {
			case head := <-s.sealed:
				s.seal(head)
			default:
			}
			return
		}
	}
}

// seal replaces the seal file with head, and only when head extends it:
// the log still holds the sealed event at its position, and head is at or
// after it. A seal another process moved past head stays; a seal the log no
// longer extends stays too, and the store refuses appends from then on
// (Rupture). The file is written to a temporary file, then renamed over
// the seal, so a reader sees the old seal or the new one, never a mix. A
// seal that cannot be written leaves the old one: the append is done all
// the same.
func (s *Store) seal(head eventstore.Sceau) {
	current, found, err := ReadSeal(s.path)
	if err != nil {
		s.rompre(sceauIllisible(err))
		return
	}
	if found {
		ecart, err := s.ecartAuSceau(context.Background(), current)
		if err != nil {
			return
		}
		if ecart != "" {
			s.rompre(ecart)
			return
		}
		if current.Position >= head.Position {
			return
		}
	}
	dir := filepath.Dir(s.path)
	f, err := os.CreateTemp(dir, SealName+".*")
	if err != nil {
		return
	}
	_, err = f.WriteString(head.String() + "\n")
	if err = errors.Join(err, f.Close()); err == nil {
		err = os.Rename(f.Name(), filepath.Join(dir, SealName))
	}
	if err != nil {
		os.Remove(f.Name())
	}
}

// verifierSceau checks, as the store opens, that its log extends the seal
// file beside it; when it does not, or the seal cannot be read, the store
// opens for reading only (Rupture).
func (s *Store) verifierSceau(ctx context.Context) error {
	seal, found, err := ReadSeal(s.path)
	if err != nil {
		s.rompre(sceauIllisible(err))
		return nil
	}
	if !found {
		return nil
	}
	ecart, err := s.ecartAuSceau(ctx, seal)
	if ecart != "" {
		s.rompre(ecart)
	}
	return err
}

// sceauIllisible says that the seal file cannot be read or parsed: the
// store cannot tell whether its log extends it, and takes it as not.
func sceauIllisible(err error) string {
	return fmt.Sprintf("le fichier de sceau est illisible (%v) : on ne peut plus savoir si le journal le prolonge. Rien n'est ajouté à ce journal : « arbitre store verify » détaille", err)
}

// rompre records the first reason the log does not extend its seal.
func (s *Store) rompre(ecart string) {
	err := eventstore.NewError(eventstore.CodeTampered, ecart, nil)
	s.rupture.CompareAndSwap(nil, &err)
}

// ecartAuSceau says, in French, how the log fails to extend seal, "" when
// it extends it: the event at the seal's position
// still has the seal's hash (one lookup by position; the chain fixes every
// event before it).
func (s *Store) ecartAuSceau(ctx context.Context, seal eventstore.Sceau) (string, error) {
	var hash []byte
	err := s.reader.lire(ctx, fmt.Sprintf("reading the event at position %d", seal.Position), `SELECT hash FROM events WHERE position = ?`, []any{int64(seal.Position)}, func(stmt *zsqlite.Stmt) error {
		hash = make([]byte, stmt.ColumnLen(0))
		stmt.ColumnBytes(0, hash)
		return nil
	})
	if err != nil || (hash != nil && bytes.Equal(hash, seal.Hash)) {
		return "", err
	}
	constat := fmt.Sprintf("il a vu à la position %d un autre événement (empreinte %x)", seal.Position, seal.Hash)
	if hash == nil {
		last, err := s.LastPosition(ctx)
		if err != nil {
			return "", err
		}
		constat = fmt.Sprintf("il a vu la position %d, et le journal finit à %d", seal.Position, last)
	}
	return fmt.Sprintf("le journal ne prolonge plus le fichier de sceau : %s ; des événements ont été retirés ou modifiés, ou une copie plus ancienne du magasin a été restaurée. Rien n'est ajouté à ce journal : « arbitre store verify --data %s » détaille, et le magasin qui prolonge le sceau est à restaurer", constat, filepath.Dir(s.path)), nil
}

// Rupture is why the log does not extend the seal file beside it (an
// eventstore.ErrTampered), found as the store opened or as it sealed a
// head; nil while it does. A store in rupture refuses every append with
// that error, so no append moves the seal over a log cut or rolled back,
// and serve refuses to start on it.
func (s *Store) Rupture() error {
	if p := s.rupture.Load(); p != nil {
		return *p
	}
	return nil
}

var _ eventstore.Scelle = (*Store)(nil)

// ReadSeal reads the seal file beside the store file at path; found is
// false when there is none (a store that never committed an append).
func ReadSeal(path string) (seal eventstore.Sceau, found bool, err error) {
	text, err := os.ReadFile(filepath.Join(filepath.Dir(path), SealName))
	if errors.Is(err, os.ErrNotExist) {
		return seal, false, nil
	}
	if err != nil {
		return seal, false, err
	}
	seal, err = eventstore.ParseSceau(string(text))
	return seal, err == nil, err
}

// Identity implements eventstore.Chained.
func (s *Store) Identity() string { return s.identity }

// appendInTx checks the expectation and writes, chaining each event to the
// last one of the log; head is the hash of the last event written, nil for
// an idempotent retry, which returns the original result.
func (s *Store) appendInTx(ctx context.Context, tx *sql.Tx, stream string, expected eventstore.ExpectedRevision, gardes []eventstore.Garde, events []eventstore.EventData) (eventstore.AppendResult, []byte, error) {
	var current sql.NullInt64
	if err := tx.StmtContext(ctx, s.ecriture.revision).QueryRowContext(ctx, stream).Scan(&current); err != nil {
		return eventstore.AppendResult{}, nil, classify("reading revision of "+stream, err)
	}
	res, retried, err := s.idempotentRetry(ctx, tx, stream, expected, events)
	if err != nil || retried {
		return res, nil, err
	}
	for _, g := range gardes {
		if err := s.verifierGarde(ctx, tx, g); err != nil {
			return eventstore.AppendResult{}, nil, err
		}
	}
	if !expected.Check(uint64(current.Int64), current.Valid) {
		return eventstore.AppendResult{}, nil, &eventstore.ConflictError{Stream: stream, Expected: expected, Current: uint64(current.Int64), StreamExists: current.Valid}
	}
	var last int64
	var head []byte
	err = tx.StmtContext(ctx, s.ecriture.tete).QueryRowContext(ctx).Scan(&last, &head)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return eventstore.AppendResult{}, nil, classify("reading global position", err)
	}
	revision := uint64(current.Int64 + 1)
	if !current.Valid {
		revision = 0
	}
	position := uint64(last) + 1
	now := s.clock.Now().UTC().UnixNano()
	insert := tx.StmtContext(ctx, s.insert)
	for i, e := range events {
		md := e.Metadata
		md.RecordedAt = time.Unix(0, now).UTC()
		head = eventstore.ChainHash(head, eventstore.Event{ID: e.ID, Stream: stream, Revision: revision + uint64(i), Position: position + uint64(i),
			Type: e.Type, Version: e.Version, Data: e.Data, Metadata: md})
		_, err := insert.ExecContext(ctx, position+uint64(i), stream, revision+uint64(i), e.ID[:], e.Type, e.Version, []byte(e.Data),
			md.Actor, md.Role, md.CorrelationID, md.CausationID, now, md.Requete, head)
		if err != nil {
			if isUniqueViolation(err) {
				return eventstore.AppendResult{}, nil, eventstore.NewError(eventstore.CodeDuplicateEventID,
					fmt.Sprintf("event id %s is already stored elsewhere than %s", e.ID, stream), err)
			}
			return eventstore.AppendResult{}, nil, classify("inserting into "+stream, err)
		}
	}
	n := uint64(len(events))
	return eventstore.AppendResult{Revision: revision + n - 1, Position: position + n - 1}, head, nil
}

// verifierGarde checks one guard of an append in its transaction: a
// guarded stream (or sub-streams) that moved past the position the command
// read is a conflict on that stream.
func (s *Store) verifierGarde(ctx context.Context, tx *sql.Tx, g eventstore.Garde) error {
	var last sql.NullInt64
	var err error
	if g.SousFlux {
		de, a := eventstore.BornesSousFlux(g.Stream)
		err = tx.StmtContext(ctx, s.ecriture.gardeSousFlux).QueryRowContext(ctx, de, a).Scan(&last)
	} else {
		err = tx.StmtContext(ctx, s.ecriture.gardeFlux).QueryRowContext(ctx, g.Stream, g.Stream).Scan(&last)
	}
	if err != nil {
		return classify("checking "+g.String(), err)
	}
	if last.Valid && uint64(last.Int64) > g.Apres {
		return &eventstore.ConflictError{Stream: g.Stream, Expected: eventstore.Any, Current: uint64(last.Int64), StreamExists: true}
	}
	return nil
}

// ReadSections implements eventstore.Sections: the stream and its
// sub-streams after a position, in global order. A whole read goes through
// the streams' index; a read on from a position (a repository's cached
// aggregate) walks the global log from there, which holds few events.
func (s *Store) ReadSections(ctx context.Context, stream string, after uint64) ([]eventstore.Event, error) {
	de, a := eventstore.BornesSousFlux(stream)
	if after > 0 {
		return s.reader.evenements(ctx, "reading "+stream+" and its tables", lectureSuite, 0, int64(after), stream, de, a)
	}
	return s.reader.evenements(ctx, "reading "+stream+" and its tables", lectureSections, 0, stream, de, a)
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

// Borne implements eventstore.Tranches. The store's positions are its
// table's keys: a page ends at the last event of the n positions after
// after, n events unless some are missing, found by one seek. (Stepping
// over the page's rows instead read the leaves of the table, the events,
// a second time: 5 % of a rebuild's CPU.)
func (s *Store) Borne(ctx context.Context, after uint64, n int) (uint64, bool, error) {
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

// ReadAllUpTo implements eventstore.Tranches.
func (s *Store) ReadAllUpTo(ctx context.Context, after, upTo uint64) ([]eventstore.Event, error) {
	return s.reader.evenements(ctx, "reading the global log", lectureTranche, room, int64(after), int64(upTo))
}

// room is the capacity a page of the log is read into at first: growing
// 4,096 events' slice from zero cost 8 % of a rebuild's reading.
const room = 4096

// Subscribe implements eventstore.Store. It reads pages of the global log
// after the last delivered position and, once caught up, waits for the next
// append of this process (or the poll interval, for other processes). The
// wake-up channel is taken before each read, so an append that commits
// between the read and the wait is never missed; reading by position makes
// the history→live boundary free of gaps and duplicates.
func (s *Store) Subscribe(ctx context.Context, checkpoint uint64, h eventstore.Handler) error {
	const page = 512
	timer := time.NewTimer(s.poll)
	defer timer.Stop()
	last := checkpoint
	for {
		wake := s.changes.wait()
		events, err := s.ReadAllAfter(ctx, last, page)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return err
		}
		for _, e := range events {
			if err := h(ctx, e); err != nil {
				return err
			}
			last = e.Position
		}
		if len(events) == page {
			continue
		}
		timer.Reset(s.poll)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-s.closed:
			return eventstore.ErrClosed
		case <-wake:
		case <-timer.C:
		}
	}
}

// notifier wakes every waiter when an append commits.
type notifier struct {
	mu sync.Mutex
	ch chan struct{}
}

func newNotifier() notifier { return notifier{ch: make(chan struct{})} }

func (n *notifier) wait() <-chan struct{} {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.ch
}

func (n *notifier) broadcast() {
	n.mu.Lock()
	defer n.mu.Unlock()
	close(n.ch)
	n.ch = make(chan struct{})
}

func isUniqueViolation(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE
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

// LastPosition returns the global position of the last event (0 when empty).
func (s *Store) LastPosition(ctx context.Context) (uint64, error) {
	var last uint64
	err := s.reader.lire(ctx, "reading the last position", `SELECT COALESCE(MAX(position), 0) FROM events`, nil, func(stmt *zsqlite.Stmt) error {
		last = uint64(stmt.ColumnInt64(0))
		return nil
	})
	return last, err
}
