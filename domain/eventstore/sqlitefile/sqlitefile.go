// Package sqlitefile creates the SQLite files the process keeps on disk (the
// event store's and the projections'), so that only their owner reads them.
// It imports nothing: the projections use it without depending on the
// event store's backend.
package sqlitefile

import (
	"errors"
	"os"
)

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
