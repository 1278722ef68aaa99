// Package projection is the framework that maintains read models from the
// global log: a Runner applies events to one Projection in SQLite
// transactions that also record the projection's checkpoint, so state and
// checkpoint never disagree, replays are idempotent and a rebuild from
// position zero gives a byte-identical database.
package projection

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/integrity"
	"arbitre/domain/eventstore/sqlitefile"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// Projection is one read model. The runner calls its methods inside
// transactions it owns; a projection never commits.
type Projection interface {
	// Name identifies the projection and its checkpoint; it must not change.
	Name() string
	// Setup creates the projection's tables when missing.
	Setup(ctx context.Context, tx *sql.Tx) error
	// Reset deletes all of the projection's state.
	Reset(ctx context.Context, tx *sql.Tx) error
	// Apply folds one event into the state. It must depend only on the
	// event and the current state (no clock, no randomness), so replays
	// are exact.
	Apply(ctx context.Context, tx *sql.Tx, e eventstore.Event) error
}

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

// Runner applies events to one projection.
type Runner struct {
	db    *sql.DB
	proj  Projection
	store eventstore.Reader
	page  int
	// identity is the store's identity when it chains its events (see
	// eventstore.Chained); chained says whether it does.
	identity string
	chained  bool
	// Log receives the rebuilds a foreign checkpoint triggers and the
	// parking of the projection; slog.Default() unless set.
	Log *slog.Logger
	// Avance, when set, is the read-ahead this runner shares with the
	// other live runners of its pipeline (HandleMessage); nil reads alone.
	Avance *Avance
	// arret is set while the projection is parked (see Garer, Reprendre).
	arret atomic.Pointer[Arret]
	// applique serializes the live handler (HandleMessage) and the
	// resumption of a parked projection (Reprendre).
	applique sync.Mutex
	// position is the checkpoint as of the last commit, for readers that
	// must not query the database to know how far the projection is; moved
	// is closed (and replaced) whenever it advances.
	position atomic.Uint64
	mu       sync.Mutex
	moved    chan struct{}
}

// NewRunner prepares the checkpoint table and the projection's tables.
// store is read to fill gaps, catch up and rebuild.
func NewRunner(ctx context.Context, db *sql.DB, p Projection, store eventstore.Reader) (*Runner, error) {
	r := &Runner{db: db, proj: p, store: store, page: eventstore.PageSize, moved: make(chan struct{}), Log: slog.Default()}
	if c, ok := store.(integrity.Chained); ok {
		r.identity, r.chained = c.Identity(), true
	}
	err := r.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, checkpointSchema); err != nil {
			return err
		}
		upgraded, err := identifiedCheckpoints(ctx, tx)
		if err != nil {
			return err
		}
		if !upgraded {
			if _, err := tx.ExecContext(ctx, checkpointUpgrade); err != nil {
				return err
			}
		}
		return p.Setup(ctx, tx)
	})
	if err != nil {
		return nil, fmt.Errorf("projection %s: setting up: %w", p.Name(), err)
	}
	cp, err := r.Checkpoint(ctx)
	if err != nil {
		return nil, err
	}
	r.position.Store(cp)
	return r, nil
}

// Position is the global position of the last event applied and committed
// (0 for none), read without touching the database.
func (r *Runner) Position() uint64 { return r.position.Load() }

// Attendre waits until the projection has applied the event at position
// pos, or ctx is done, or the projection is parked (an error then).
func (r *Runner) Attendre(ctx context.Context, pos uint64) error {
	for {
		r.mu.Lock()
		moved := r.moved
		r.mu.Unlock()
		if r.position.Load() >= pos {
			return nil
		}
		if a := r.Arret(); a != nil {
			return a
		}
		select {
		case <-moved:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// avancer records a committed checkpoint and wakes the waiters.
func (r *Runner) avancer(pos uint64) {
	r.position.Store(pos)
	r.reveiller()
}

// Name is the projection's name.
func (r *Runner) Name() string { return r.proj.Name() }

// checkpoint is where a projection stands: the last applied event's
// position and hash, and the identity of the store it was read from.
type checkpoint struct {
	position uint64
	hash     []byte
	magasin  string
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
	var cp checkpoint
	err := q.QueryRowContext(ctx, `SELECT position, hash, magasin FROM projection_checkpoints WHERE projection = ?`, name).Scan(&cp.position, &cp.hash, &cp.magasin)
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

// ApplyError is an event a projection could not apply.
type ApplyError struct {
	Position uint64
	Type     string
	Err      error
}

func (e *ApplyError) Error() string {
	return fmt.Sprintf("applying %s at position %d: %v", e.Type, e.Position, e.Err)
}

func (e *ApplyError) Unwrap() error { return e.Err }

// Batcher is a projection that can also fold several consecutive events at
// once (ApplyBatch), with exactly the result of applying them one by one,
// so that it writes each row once per batch rather than once per event.
type Batcher interface {
	Projection
	// ApplyBatch folds events, in global order, in tx.
	ApplyBatch(ctx context.Context, tx *sql.Tx, events []eventstore.Event) error
}

// Apply applies events in global order in one transaction with the new
// checkpoint. Events at or before the checkpoint are skipped, which makes
// redelivery harmless. On a chained store each event must be chained to the
// checkpoint's (eventstore.ChainLink): a projection never folds an event that
// was altered in the file. An error (an *ApplyError for the event that
// failed) rolls back the state and the checkpoint. It returns how many
// events were applied.
func (r *Runner) Apply(ctx context.Context, events []eventstore.Event) (int, error) {
	return r.apply(ctx, events, r.chained)
}

// apply is Apply, checking the chain when asked (RebuildAll checks it once
// for every projection). A Batcher folds the events in one ApplyBatch; when
// that fails, the events are applied again one by one, which names the
// event that fails.
func (r *Runner) apply(ctx context.Context, events []eventstore.Event, checkChain bool) (int, error) {
	if b, ok := r.proj.(Batcher); ok && len(events) > 1 {
		if n, err := r.applyTx(ctx, events, checkChain, b); err == nil {
			return n, nil
		}
	}
	return r.applyTx(ctx, events, checkChain, nil)
}

// applyTx applies events in one transaction, through batch when not nil.
func (r *Runner) applyTx(ctx context.Context, events []eventstore.Event, checkChain bool, batch Batcher) (int, error) {
	applied := 0
	err := r.inTx(ctx, func(tx *sql.Tx) error {
		applied = 0
		cp, err := readCheckpoint(ctx, tx, r.proj.Name())
		if err != nil {
			return err
		}
		todo := events
		if i := slices.IndexFunc(events, func(e eventstore.Event) bool { return e.Position > cp.position }); i >= 0 {
			todo = events[i:]
		} else {
			todo = nil
		}
		if len(todo) == 0 {
			return nil
		}
		if checkChain {
			chain := integrity.NewChainLink(cp.hash)
			for _, e := range todo {
				if err := chain.Check(e); err != nil {
					return &ApplyError{Position: e.Position, Type: e.Type, Err: err}
				}
			}
		}
		if batch != nil {
			if err := batch.ApplyBatch(ctx, tx, todo); err != nil {
				return fmt.Errorf("applying %d events from position %d: %w", len(todo), todo[0].Position, err)
			}
		} else {
			for _, e := range todo {
				if err := r.proj.Apply(ctx, tx, e); err != nil {
					return &ApplyError{Position: e.Position, Type: e.Type, Err: err}
				}
			}
		}
		last := todo[len(todo)-1]
		applied = len(todo)
		return saveCheckpoint(ctx, tx, r.proj.Name(), checkpoint{position: last.Position, hash: last.Hash, magasin: r.identity})
	})
	if err != nil {
		return 0, fmt.Errorf("projection %s: %w", r.proj.Name(), err)
	}
	if applied > 0 {
		r.avancer(events[len(events)-1].Position)
	}
	return applied, nil
}

func saveCheckpoint(ctx context.Context, tx *sql.Tx, name string, cp checkpoint) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO projection_checkpoints (projection, position, hash, magasin) VALUES (?, ?, ?, ?)
		ON CONFLICT (projection) DO UPDATE SET position = excluded.position, hash = excluded.hash, magasin = excluded.magasin`,
		name, cp.position, cp.hash, cp.magasin)
	return err
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

// Progress reports replay progress: the last applied position and the
// number of events applied so far.
type Progress func(position uint64, applied int)

// CatchUp applies every stored event after the checkpoint, page by page,
// and returns how many it applied. A checkpoint that does not belong to the
// store's log is logged and the projection rebuilt from zero.
func (r *Runner) CatchUp(ctx context.Context, progress Progress) (int, error) {
	why, err := r.foreign(ctx)
	if err != nil {
		return 0, fmt.Errorf("projection %s: checking its checkpoint: %w", r.proj.Name(), err)
	}
	if why != "" {
		r.Log.Warn("projection rebuilt from zero: "+why, "projection", r.proj.Name())
		if err := r.reset(ctx); err != nil {
			return 0, err
		}
	}
	from, err := r.Checkpoint(ctx)
	if err != nil {
		return 0, err
	}
	total := 0
	for {
		page, err := r.store.ReadAllAfter(ctx, from, r.page)
		if err != nil {
			return total, fmt.Errorf("projection %s: reading the log after %d: %w", r.proj.Name(), from, err)
		}
		if len(page) == 0 {
			return total, nil
		}
		n, err := r.Apply(ctx, page)
		if err != nil {
			return total + r.applyBefore(ctx, page, err, r.chained), err
		}
		total += n
		from = page[len(page)-1].Position
		if progress != nil {
			progress(from, total)
		}
		if len(page) < r.page {
			return total, nil
		}
	}
}

// applyBefore applies the events of page before the one that failed with
// err (checking their chain when asked), so a projection stops right before
// an event it cannot apply, and returns how many it applied.
func (r *Runner) applyBefore(ctx context.Context, page []eventstore.Event, err error, checkChain bool) int {
	var applyErr *ApplyError
	if !errors.As(err, &applyErr) {
		return 0
	}
	i := slices.IndexFunc(page, func(e eventstore.Event) bool { return e.Position == applyErr.Position })
	if i <= 0 {
		return 0
	}
	n, _ := r.apply(ctx, page[:i], checkChain)
	return n
}

// Rebuild deletes the projection's state and checkpoint in one transaction
// and replays the whole log. If interrupted, the projection is consistent
// at its checkpoint and the next CatchUp resumes it.
func (r *Runner) Rebuild(ctx context.Context, progress Progress) (int, error) {
	if err := r.reset(ctx); err != nil {
		return 0, err
	}
	return r.CatchUp(ctx, progress)
}

// reset deletes the projection's state and checkpoint in one transaction.
func (r *Runner) reset(ctx context.Context) error {
	err := r.inTx(ctx, func(tx *sql.Tx) error {
		if err := r.proj.Reset(ctx, tx); err != nil {
			return err
		}
		return Recommencer(ctx, tx, r.proj.Name())
	})
	if err != nil {
		return fmt.Errorf("projection %s: resetting: %w", r.proj.Name(), err)
	}
	r.avancer(0)
	return nil
}

// Recommencer deletes the checkpoint of projection name in tx: it starts
// again from position zero. A projection's Setup calls it, with its own
// Reset, when it replaces a layout its tables held before.
func Recommencer(ctx context.Context, tx *sql.Tx, name string) error {
	_, err := tx.ExecContext(ctx, `DELETE FROM projection_checkpoints WHERE projection = ?`, name)
	return err
}

// Arret is a parked projection: it stopped before the event at Position,
// which it failed to apply with Erreur (or, when the failure was not about
// one event, at its checkpoint Position), and applies nothing more until
// it resumes (Reprendre) or the server restarts.
type Arret struct {
	Nom      string `json:"nom"`
	Position uint64 `json:"position"`
	Erreur   string `json:"erreur"`
}

func (a *Arret) Error() string {
	return fmt.Sprintf("projection %s arrêtée à la position %d : %s", a.Nom, a.Position, a.Erreur)
}

// Arret returns why the projection is parked, nil while it runs.
func (r *Runner) Arret() *Arret { return r.arret.Load() }

// arretSur is where err stops the projection: the event that failed when
// err is an *ApplyError, the checkpoint otherwise (positions are opaque:
// the next one is not computed).
func (r *Runner) arretSur(err error) *Arret {
	a := &Arret{Nom: r.proj.Name(), Position: r.Position(), Erreur: err.Error()}
	var applyErr *ApplyError
	if errors.As(err, &applyErr) {
		a.Position = applyErr.Position
	}
	return a
}

// Garer parks the projection after err, logged once, and tells whether it
// was running until then. Waiters (Attendre) are woken and told.
func (r *Runner) Garer(err error) bool {
	a := r.arretSur(err)
	if !r.arret.CompareAndSwap(nil, a) {
		return false
	}
	r.Log.Error("projection arrêtée : elle n'applique plus rien jusqu'à sa reprise, et ses lectures répondent UNAVAILABLE", "projection", a.Nom, "position", a.Position, "erreur", a.Erreur)
	r.reveiller()
	return true
}

// Reprendre tries a parked projection again: it catches up from its
// checkpoint, as at start-up, while the live messages wait, and runs
// again once it holds every stored event. On failure it stays parked,
// where the failure stopped it now, and the error is returned. It returns
// how many events it applied.
func (r *Runner) Reprendre(ctx context.Context) (int, error) {
	r.applique.Lock()
	defer r.applique.Unlock()
	n, err := r.CatchUp(ctx, nil)
	if err != nil {
		if ctx.Err() == nil {
			r.arret.Store(r.arretSur(err))
		}
		return n, err
	}
	r.arret.Store(nil)
	r.reveiller()
	return n, nil
}

// reveiller wakes the waiters (Attendre).
func (r *Runner) reveiller() {
	r.mu.Lock()
	defer r.mu.Unlock()
	close(r.moved)
	r.moved = make(chan struct{})
}

func (r *Runner) inTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := r.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		return errors.Join(err, tx.Rollback())
	}
	return tx.Commit()
}

// Dump renders every table of a projection database (checkpoints included)
// as text, tables by name and rows in full column order, so two databases
// hold the same state exactly when their dumps are byte-identical.
func Dump(ctx context.Context, db *sql.DB) ([]byte, error) {
	tables, err := tableNames(ctx, db)
	if err != nil {
		return nil, err
	}
	var out strings.Builder
	for _, table := range tables {
		if err := dumpTable(ctx, db, table, &out); err != nil {
			return nil, fmt.Errorf("dumping %s: %w", table, err)
		}
	}
	return []byte(out.String()), nil
}

func tableNames(ctx context.Context, db *sql.DB) ([]string, error) {
	rows, err := db.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		names = append(names, name)
	}
	return names, rows.Err()
}

func dumpTable(ctx context.Context, db *sql.DB, table string, out *strings.Builder) error {
	probe, err := db.QueryContext(ctx, `SELECT * FROM "`+table+`" LIMIT 0`)
	if err != nil {
		return err
	}
	cols, err := probe.Columns()
	probe.Close()
	if err != nil {
		return err
	}
	order := make([]string, len(cols))
	for i := range cols {
		order[i] = fmt.Sprint(i + 1)
	}
	rows, err := db.QueryContext(ctx, `SELECT * FROM "`+table+`" ORDER BY `+strings.Join(order, ", "))
	if err != nil {
		return err
	}
	defer rows.Close()
	fmt.Fprintf(out, "table %s (%s)\n", table, strings.Join(cols, ", "))
	values := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range values {
		ptrs[i] = &values[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		for i, v := range values {
			if i > 0 {
				out.WriteString("\t")
			}
			if b, ok := v.([]byte); ok {
				v = string(b)
			}
			fmt.Fprintf(out, "%v", v)
		}
		out.WriteString("\n")
	}
	return rows.Err()
}

// Requetes runs the statements of a batch in one transaction at replay
// speed: the driver parses a statement at every call, so consecutive runs
// of one single-row INSERT (or upsert) whose values are all parameters are
// sent as one INSERT of many rows, which SQLite applies row by row, in
// order, exactly as the separate statements. Rows whose values are all
// integers, valid UTF-8 strings or NULL go as one JSON array read by
// json_each (one parameter: the driver neither parses nor binds per row,
// and SQLite gives back the same INTEGER, TEXT and NULL values); others as
// a multi-row VALUES. Any other statement first sends the rows held, so
// the order of writes is kept. Fin sends the last ones.
type Requetes struct {
	tx      *sql.Tx
	formes  map[string]*forme
	attente *forme
	args    []any
	lignes  int
	// enJSON says whether the rows held go as JSON; json holds them so.
	enJSON bool
	json   []byte
}

// forme is an INSERT split around its one row of parameters, and its
// form that reads the rows from a JSON array.
type forme struct {
	tete, ligne, queue string
	params             int
	depuisJSON         string
}

// maxParams bounds the parameters of one multi-row VALUES: the pure-Go
// driver binds each parameter by looking for its ordinal among all the
// arguments, so binding costs the square of their number, which longer
// statements did not pay back (issue 16, item 10: 256 rows of 8 made
// binding a third of a rebuild's CPU). maxLignesJSON bounds the rows of
// one JSON array.
const (
	maxParams     = 256
	maxLignesJSON = 2048
)

// uneLigne matches the single row of parameters of an INSERT.
var uneLigne = regexp.MustCompile(`(?is)^(INSERT\s.*?\s)(VALUES\s*)(\(\s*\?(?:\s*,\s*\?)*\s*\))(.*)$`)

// NewRequetes runs statements in tx.
func NewRequetes(tx *sql.Tx) *Requetes { return &Requetes{tx: tx, formes: map[string]*forme{}} }

func (q *Requetes) forme(query string) *forme {
	f, ok := q.formes[query]
	if !ok {
		if m := uneLigne.FindStringSubmatch(query); m != nil {
			f = &forme{tete: m[1] + m[2], ligne: m[3], queue: m[4], params: strings.Count(m[3], "?")}
			colonnes := make([]string, f.params)
			for i := range colonnes {
				colonnes[i] = fmt.Sprintf("value->>%d", i)
			}
			// WHERE true: an upsert after a SELECT needs a WHERE clause.
			f.depuisJSON = m[1] + "SELECT " + strings.Join(colonnes, ", ") + " FROM json_each(?) WHERE true " + m[4]
		}
		q.formes[query] = f
	}
	return f
}

// Exec runs query with args, or holds them as a row of a multi-row INSERT.
func (q *Requetes) Exec(ctx context.Context, query string, args ...any) error {
	f := q.forme(query)
	if f == nil || len(args) != f.params {
		if err := q.Fin(ctx); err != nil {
			return err
		}
		_, err := q.tx.ExecContext(ctx, query, args...)
		return err
	}
	ligne, enJSON := appendLigneJSON(q.json, args)
	if q.attente != f || enJSON != q.enJSON || (enJSON && q.lignes == maxLignesJSON) || (!enJSON && len(q.args)+len(args) > maxParams) {
		if err := q.Fin(ctx); err != nil {
			return err
		}
		q.attente, q.enJSON = f, enJSON
		ligne, _ = appendLigneJSON(q.json, args)
	}
	if enJSON {
		q.json = ligne
	} else {
		q.args = append(q.args, args...)
	}
	q.lignes++
	return nil
}

// Fin sends the rows held.
func (q *Requetes) Fin(ctx context.Context) error {
	f, n := q.attente, q.lignes
	if f == nil || n == 0 {
		return nil
	}
	var err error
	if q.enJSON {
		_, err = q.tx.ExecContext(ctx, f.depuisJSON, string(append(q.json, ']')))
	} else {
		var b strings.Builder
		b.WriteString(f.tete)
		for i := range n {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(f.ligne)
		}
		b.WriteString(f.queue)
		_, err = q.tx.ExecContext(ctx, b.String(), q.args...)
	}
	q.attente, q.args, q.json, q.lignes = nil, q.args[:0], q.json[:0], 0
	return err
}

// appendLigneJSON appends args to the JSON array b (opening it when empty)
// as one array, and says whether every value has an exact JSON form that
// SQLite reads back as the value the driver would bind: an integer, a
// valid UTF-8 string without NUL, or nil.
func appendLigneJSON(b []byte, args []any) ([]byte, bool) {
	if len(b) == 0 {
		b = append(b, '[')
	} else {
		b = append(b, ',')
	}
	b = append(b, '[')
	for i, v := range args {
		if i > 0 {
			b = append(b, ',')
		}
		switch x := v.(type) {
		case nil:
			b = append(b, "null"...)
		case int:
			b = strconv.AppendInt(b, int64(x), 10)
		case int64:
			b = strconv.AppendInt(b, x, 10)
		case uint64:
			if x > math.MaxInt64 {
				return b, false
			}
			b = strconv.AppendUint(b, x, 10)
		case string:
			if !utf8.ValidString(x) || strings.IndexByte(x, 0) >= 0 {
				return b, false
			}
			b = AppendChaineJSON(b, x)
		default:
			return b, false
		}
	}
	return append(b, ']'), true
}

// AppendChaineJSON appends s, valid UTF-8, as a JSON string.
func AppendChaineJSON(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c < 0x20:
			b = fmt.Appendf(b, `\u%04x`, c)
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}
