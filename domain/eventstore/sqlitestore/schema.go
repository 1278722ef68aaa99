package sqlitestore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"time"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/integrity"

	zsqlite "zombiezen.com/go/sqlite"
	"zombiezen.com/go/sqlite/sqlitex"
)

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
			previous = integrity.ChainHash(previous, e)
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
