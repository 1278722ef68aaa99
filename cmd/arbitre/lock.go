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
	file   *os.File
	holder lockHolder
}

// lockHolder is what the lock file holds: the holder's pid, the command it
// runs (empty for serve, in files written before the field) and, for a
// server, its address.
type lockHolder struct {
	PID      int    `json:"pid"`
	Commande string `json:"commande,omitempty"`
	Address  string `json:"address"`
}

// lockDataDir takes dir's lock for a server listening on listen, or says
// in French which command already holds it.
func lockDataDir(dir, listen string) (*dataLock, error) {
	return lockDataDirFor(dir, lockHolder{Address: listen})
}

// lockDataDirFor takes dir's lock for the command h says (its pid is this
// process's), or says in French which command already holds it.
func lockDataDirFor(dir string, h lockHolder) (*dataLock, error) {
	path := filepath.Join(dir, lockFileName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("ouverture du verrou %s : %w", path, err)
	}
	if err := lockFile(f); err != nil {
		defer f.Close()
		if errors.Is(err, errLocked) {
			return nil, fmt.Errorf("le répertoire de données %s est déjà utilisé par %s : "+
				"arrêtez-le ou choisissez un autre --data", dir, describeHolder(f))
		}
		return nil, fmt.Errorf("verrouillage de %s : %w", path, err)
	}
	l := &dataLock{file: f, holder: h}
	if err := l.announce(h.Address); err != nil {
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
		return "un autre « arbitre serve » (détenteur inconnu)"
	}
	if h.Commande != "" {
		return fmt.Sprintf("« arbitre %s » (pid %d)", h.Commande, h.PID)
	}
	return fmt.Sprintf("un autre « arbitre serve » (pid %d, adresse %s)", h.PID, h.Address)
}

// announce records the holder: this process, listening on address.
func (l *dataLock) announce(address string) error {
	h := l.holder
	h.PID, h.Address = os.Getpid(), address
	raw, err := json.Marshal(h)
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
