package sqlitestore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/integrity"

	zsqlite "zombiezen.com/go/sqlite"
)

// SealName is the seal file the store keeps beside its file: the position
// and hash of the last event it committed (see eventstore.Seal).
const SealName = "sceau"

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
func (s *Store) seal(head integrity.Seal) {
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
func (s *Store) ecartAuSceau(ctx context.Context, seal integrity.Seal) (string, error) {
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

var _ integrity.Sealed = (*Store)(nil)

// ReadSeal reads the seal file beside the store file at path; found is
// false when there is none (a store that never committed an append).
func ReadSeal(path string) (seal integrity.Seal, found bool, err error) {
	text, err := os.ReadFile(filepath.Join(filepath.Dir(path), SealName))
	if errors.Is(err, os.ErrNotExist) {
		return seal, false, nil
	}
	if err != nil {
		return seal, false, err
	}
	seal, err = integrity.ParseSeal(string(text))
	return seal, err == nil, err
}

// Identity implements eventstore.Chained.
func (s *Store) Identity() string { return s.identity }
