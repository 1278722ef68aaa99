package sqlitestore

import (
	"errors"
	"fmt"

	"arbitre/domain/eventstore"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// incertaine marks err with eventstore.ErrOutcomeUnknown when it is a
// failed fsync: SQLite wrote the commit to the write-ahead log before the
// flush failed, and recovery replays a complete commit found there when
// the store is opened again.
func incertaine(err error) error {
	var se *sqlite.Error
	if errors.As(err, &se) && (se.Code() == sqlite3.SQLITE_IOERR_FSYNC || se.Code() == sqlite3.SQLITE_IOERR_DIR_FSYNC) {
		return fmt.Errorf("%w: %w", eventstore.ErrOutcomeUnknown, err)
	}
	return err
}
