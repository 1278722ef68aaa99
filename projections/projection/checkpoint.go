package projection

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/integrity"
)

// checkpointSchema: a checkpoint is the position of the last applied event,
// that event's hash and the identity of the store it came from, so a
// checkpoint taken on another store, or on a log that lost its tail, is
// recognized (see CatchUp).
const checkpointSchema = `CREATE TABLE IF NOT EXISTS projection_checkpoints (
	projection TEXT PRIMARY KEY,
	position   INTEGER NOT NULL,
	hash       BLOB    NOT NULL DEFAULT x'',
	magasin    TEXT    NOT NULL DEFAULT ''
)`

// checkpointUpgrade gives a checkpoint table written before checkpoints
// held the store's identity its new columns; such a checkpoint matches no
// store, so its projection is rebuilt once.
const checkpointUpgrade = `ALTER TABLE projection_checkpoints ADD COLUMN hash BLOB NOT NULL DEFAULT x'';
ALTER TABLE projection_checkpoints ADD COLUMN magasin TEXT NOT NULL DEFAULT ''`

// checkpoint is where a projection stands: the last applied event's
// position and hash, and the identity of the store it was read from.
type checkpoint struct {
	position uint64
	hash     []byte
	magasin  string
}

// lectureCheckpoint and ecritureCheckpoint read and write a projection's
// checkpoint; each batch applied runs both, prepared once per runner
// (pointsPrepares) rather than parsed at every batch (issue 34: a hall's
// burst is folded in hundreds of small batches by every read model).
const (
	lectureCheckpoint  = `SELECT position, hash, magasin FROM projection_checkpoints WHERE projection = ?`
	ecritureCheckpoint = `INSERT INTO projection_checkpoints (projection, position, hash, magasin) VALUES (?, ?, ?, ?)
		ON CONFLICT (projection) DO UPDATE SET position = excluded.position, hash = excluded.hash, magasin = excluded.magasin`
)

// avanceeCheckpoint moves a checkpoint on only while it is the one the
// runner committed last (Runner.pointGarde): a batch that took its checkpoint
// from memory rather than reading it finds out, at its write, whether
// something else moved it meanwhile (pointPerime).
const avanceeCheckpoint = `UPDATE projection_checkpoints SET position = ?, hash = ?, magasin = ?
		WHERE projection = ? AND position = ? AND hash = ?`

// pointsPrepares are a runner's checkpoint statements, prepared on its
// database.
type pointsPrepares struct{ lire, ecrire, avancer *sql.Stmt }

// errPointPerime is a batch that took its checkpoint from memory and found
// another in the database at its write: it is applied again after reading
// it.
var errPointPerime = errors.New("the checkpoint moved since the runner last committed it")

func (r *Runner) preparerPoints(ctx context.Context) error {
	var err error
	if r.points.lire, err = r.db.PrepareContext(ctx, lectureCheckpoint); err != nil {
		return err
	}
	if r.points.ecrire, err = r.db.PrepareContext(ctx, ecritureCheckpoint); err != nil {
		return err
	}
	r.points.avancer, err = r.db.PrepareContext(ctx, avanceeCheckpoint)
	return err
}

type queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// identifiedCheckpoints tells whether the checkpoint table exists with the
// columns of the store's identity and hash.
func identifiedCheckpoints(ctx context.Context, q queryer) (bool, error) {
	var found bool
	err := q.QueryRowContext(ctx, `SELECT COUNT(*) > 0 FROM pragma_table_info('projection_checkpoints') WHERE name = 'magasin'`).Scan(&found)
	return found, err
}

func readCheckpoint(ctx context.Context, q queryer, name string) (checkpoint, error) {
	return scanCheckpoint(q.QueryRowContext(ctx, lectureCheckpoint, name))
}

// checkpointDans is the runner's checkpoint for a batch in tx: the one it
// committed last, kept in memory (Runner.pointGarde), which its write
// checks (saveCheckpoint), else read in tx; enMemoire says which.
func (r *Runner) checkpointDans(ctx context.Context, tx *sql.Tx) (cp checkpoint, enMemoire bool, err error) {
	if g := r.pointGarde.Load(); g != nil {
		return *g, true, nil
	}
	cp, err = scanCheckpoint(tx.StmtContext(ctx, r.points.lire).QueryRowContext(ctx, r.proj.Name()))
	return cp, false, err
}

func scanCheckpoint(row *sql.Row) (checkpoint, error) {
	var cp checkpoint
	err := row.Scan(&cp.position, &cp.hash, &cp.magasin)
	if errors.Is(err, sql.ErrNoRows) {
		return checkpoint{}, nil
	}
	return cp, err
}

// Checkpoint returns the position of the last applied event (0 for none).
func (r *Runner) Checkpoint(ctx context.Context) (uint64, error) {
	cp, err := readCheckpoint(ctx, r.db, r.proj.Name())
	if err != nil {
		return 0, fmt.Errorf("projection %s: reading checkpoint: %w", r.proj.Name(), err)
	}
	return cp.position, nil
}

// Anchors returns the checkpoints of a projection database taken on the
// store whose identity is magasin, as anchors of its log for store verify:
// each names a position and the hash its projection saw there. A database
// whose checkpoints predate identities has none.
func Anchors(ctx context.Context, db *sql.DB, magasin string) ([]integrity.Anchor, error) {
	if found, err := identifiedCheckpoints(ctx, db); err != nil || !found {
		return nil, err
	}
	rows, err := db.QueryContext(ctx, `SELECT projection, position, hash FROM projection_checkpoints WHERE magasin = ? AND position > 0 ORDER BY projection`, magasin)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []integrity.Anchor
	for rows.Next() {
		var a integrity.Anchor
		if err := rows.Scan(&a.Source, &a.Position, &a.Hash); err != nil {
			return nil, err
		}
		a.Source = "projection " + a.Source
		out = append(out, a)
	}
	return out, rows.Err()
}

// saveCheckpoint moves the checkpoint to last in tx; when the batch took
// it from memory (attendu, the one it took), only from there: another is
// errPointPerime. A store that does not chain (nil hashes) writes an
// empty hash: the column refuses NULL.
func (r *Runner) saveCheckpoint(ctx context.Context, tx *sql.Tx, last eventstore.Event, attendu *checkpoint) error {
	if attendu == nil {
		_, err := tx.StmtContext(ctx, r.points.ecrire).ExecContext(ctx, r.proj.Name(), last.Position, hashStocke(last.Hash), r.identity)
		return err
	}
	res, err := tx.StmtContext(ctx, r.points.avancer).ExecContext(ctx, last.Position, hashStocke(last.Hash), r.identity,
		r.proj.Name(), attendu.position, hashStocke(attendu.hash))
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return errors.Join(errPointPerime, err)
	}
	return nil
}

// deplace tells whether the database's checkpoint is no longer g, the one
// the runner kept (a failed read says no).
func (r *Runner) deplace(ctx context.Context, g *checkpoint) bool {
	cp, err := readCheckpoint(ctx, r.db, r.proj.Name())
	return err == nil && (cp.position != g.position || !bytes.Equal(cp.hash, g.hash))
}

// hashStocke is hash as the checkpoint table holds it, to write and to
// compare with: an empty blob for none (a store that does not chain its
// events).
func hashStocke(hash []byte) []byte {
	if hash == nil {
		return []byte{}
	}
	return hash
}

// garderPoint keeps in memory the checkpoint at last the runner just committed
// (nil: none known), which its next batch takes rather than reading it;
// the checkpoint it had reached past the one it kept is forgotten.
func (r *Runner) garderPoint(last *eventstore.Event) {
	r.atteint.Store(nil)
	if last == nil {
		r.pointGarde.Store(nil)
		return
	}
	r.pointGarde.Store(&checkpoint{position: last.Position, hash: last.Hash, magasin: r.identity})
}

// foreign tells why a checkpoint does not belong to the store's log: taken
// on another store, or at an event the log no longer holds (an older copy
// restored, the tail cut, the event altered). Empty when it belongs.
func (r *Runner) foreign(ctx context.Context) (string, error) {
	cp, autre, perdu, err := r.rattachement(ctx)
	switch {
	case err != nil:
		return "", err
	case autre:
		return fmt.Sprintf("its checkpoint was taken on store %q, not on this one (%s)", cp.magasin, r.identity), nil
	case perdu:
		return fmt.Sprintf("the log no longer holds the event at its checkpoint (position %d): an older copy of the store was restored or the log was altered", cp.position), nil
	}
	return "", nil
}

// rattachement reads the checkpoint and tells whether it was taken on
// another store (autre) or on this one at an event its log no longer holds
// (perdu): one read of the event at the checkpoint.
func (r *Runner) rattachement(ctx context.Context) (cp checkpoint, autre, perdu bool, err error) {
	cp, err = readCheckpoint(ctx, r.db, r.proj.Name())
	if err != nil || cp.position == 0 || !r.chained {
		return cp, false, false, err
	}
	if cp.magasin != r.identity {
		return cp, true, false, nil
	}
	page, err := r.store.ReadAll(ctx, cp.position, 1)
	if err != nil {
		return cp, false, false, err
	}
	perdu = len(page) == 0 || page[0].Position != cp.position || !bytes.Equal(page[0].Hash, cp.hash)
	return cp, false, perdu, nil
}

// Prolonge checks that the store's log extends the projection's
// checkpoint taken on this very store: the event the projection saw last
// is still there with the same hash. Otherwise the tail was cut, an older
// copy of the store restored or that event altered, and it returns an
// eventstore.ErrTampered saying so in French (serve refuses to start on
// it rather than rebuild from the shorter log). A checkpoint taken on
// another store says nothing of this log: CatchUp rebuilds it.
func (r *Runner) Prolonge(ctx context.Context) error {
	cp, _, perdu, err := r.rattachement(ctx)
	if err != nil || !perdu {
		return err
	}
	return eventstore.NewError(eventstore.CodeTampered, fmt.Sprintf("la projection %s a vu le journal jusqu'à la position %d, que le journal ne prolonge plus (empreinte %x) : des événements ont été retirés ou modifiés, ou une copie plus ancienne du magasin a été restaurée ; « arbitre store verify » détaille", r.proj.Name(), cp.position, cp.hash), nil)
}

// Recommencer deletes the checkpoint of projection name in tx: it starts
// again from position zero. A projection's Setup calls it, with its own
// Reset, when it replaces a layout its tables held before.
func Recommencer(ctx context.Context, tx *sql.Tx, name string) error {
	_, err := tx.ExecContext(ctx, `DELETE FROM projection_checkpoints WHERE projection = ?`, name)
	return err
}
