package projection

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"

	"arbitre/domain/eventstore/sqlitefile"
)

// FileName is the projection database inside the --data directory.
const FileName = "projections.db"

// OpenDB opens (or creates) a projection database. Projections are
// rebuildable, so synchronous=NORMAL is enough: WAL keeps every commit
// atomic, and a transaction lost to a power cut is re-applied from the
// checkpoint that was lost with it.
func OpenDB(path string) (*sql.DB, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("creating %s: %w", filepath.Dir(path), err)
	}
	if err := sqlitefile.CreatePrivate(path); err != nil {
		return nil, fmt.Errorf("creating %s: %w", path, err)
	}
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=busy_timeout(10000)&_txlock=immediate")
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	// One connection: the runners of a database write one after another.
	db.SetMaxOpenConns(1)
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	return db, nil
}

// OpenReadDB opens a projection database for reading only, with a pool of
// connections: in WAL mode readers see the last commit and never wait for
// the runners' writer connection.
func OpenReadDB(path string) (*sql.DB, error) {
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro&_pragma=query_only(1)&_pragma=busy_timeout(10000)")
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	db.SetMaxOpenConns(readers)
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	return db, nil
}

// readers is the size of the read pool.
const readers = 4
