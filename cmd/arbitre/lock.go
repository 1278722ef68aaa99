package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// lockFileName is the lock file a server holds in its data directory.
const lockFileName = "arbitre.lock"

// errLocked says another process holds the lock.
var errLocked = errors.New("lock held by another process")

// dataLock is a data directory's lock, held by the one server that writes
// there. The operating system releases it when its holder exits, however
// it exits (kill -9 included), so a dead holder never blocks a restart.
// The file names the holder (pid and address) for the message the next
// server gives.
type dataLock struct {
	file *os.File
}

// lockHolder is what the lock file holds.
type lockHolder struct {
	PID     int    `json:"pid"`
	Address string `json:"address"`
}

// lockDataDir takes dir's lock for a server listening on listen, or says
// in French which server already holds it.
func lockDataDir(dir, listen string) (*dataLock, error) {
	path := filepath.Join(dir, lockFileName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("ouverture du verrou %s : %w", path, err)
	}
	if err := lockFile(f); err != nil {
		defer f.Close()
		if errors.Is(err, errLocked) {
			return nil, fmt.Errorf("le répertoire de données %s est déjà utilisé par un autre « arbitre serve » (%s) : "+
				"arrêtez-le ou choisissez un autre --data", dir, describeHolder(f))
		}
		return nil, fmt.Errorf("verrouillage de %s : %w", path, err)
	}
	l := &dataLock{file: f}
	if err := l.announce(listen); err != nil {
		l.release()
		return nil, err
	}
	return l, nil
}

// describeHolder reads who holds the lock f could not take.
func describeHolder(f *os.File) string {
	var h lockHolder
	raw, err := io.ReadAll(io.LimitReader(f, 4096))
	if err != nil || json.Unmarshal(raw, &h) != nil || h.PID == 0 {
		return "détenteur inconnu"
	}
	return fmt.Sprintf("pid %d, adresse %s", h.PID, h.Address)
}

// announce records the holder: this process, listening on address.
func (l *dataLock) announce(address string) error {
	raw, err := json.Marshal(lockHolder{PID: os.Getpid(), Address: address})
	if err != nil {
		return err
	}
	if err := l.file.Truncate(0); err != nil {
		return fmt.Errorf("écriture du verrou : %w", err)
	}
	if _, err := l.file.WriteAt(append(raw, '\n'), 0); err != nil {
		return fmt.Errorf("écriture du verrou : %w", err)
	}
	return l.file.Sync()
}

// release empties the lock file and lets it go.
func (l *dataLock) release() {
	_ = l.file.Truncate(0)
	_ = unlockFile(l.file)
	_ = l.file.Close()
}
