// Package projection is the framework that maintains read models from the
// global log: a Runner applies events to one Projection in SQLite
// transactions that also record the projection's checkpoint, so state and
// checkpoint never disagree, replays are idempotent and a rebuild from
// position zero gives a byte-identical database. Live, a projection that
// reads none of a batch's events passes it without a transaction: its
// state is the same at the checkpoint it wrote and at the one it reached,
// which it writes later (passage.go).
package projection

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/integrity"

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

// Runner applies events to one projection.
type Runner struct {
	db *sql.DB
	// base is the pool the read model's reads query (LireDans); nil: db.
	base  *sql.DB
	proj  Projection
	store eventstore.Reader
	// registre decodes ahead the payloads a Batcher reads (the journal's,
	// NewRunners); nil: the Batcher decodes them itself.
	registre *eventstore.Registry
	// lecteurs is the projection when it is a Batcher: what registre
	// decodes ahead for (decodeur).
	lecteurs []any
	page     int
	// identity is the store's identity when it chains its events (see
	// eventstore.Chained); chained says whether it does.
	identity string
	chained  bool
	points   pointsPrepares
	// Log receives the rebuilds a foreign checkpoint triggers and the
	// parking of the projection; slog.Default() unless set.
	Log *slog.Logger
	// Avance, when set, is the read-ahead this runner shares with the
	// other live runners of its pipeline (Recevoir); nil reads alone.
	Avance *Avance
	// arret is set while the projection is parked (see Garer, Reprendre).
	arret atomic.Pointer[Arret]
	// applique serializes the live handler (Recevoir) and the
	// resumption of a parked projection (Reprendre).
	applique sync.Mutex
	// pointGarde is the checkpoint as of the runner's last commit of a batch,
	// which its next batch takes rather than reading it (issue 34: one
	// query a batch and a read model), checked at the write; nil when not
	// known (at start-up, after a reset or a failed batch).
	pointGarde atomic.Pointer[checkpoint]
	// atteint is the checkpoint the runner reached past pointGarde by
	// passing, without a transaction, events its projection does not read
	// (passer), which its next batch starts from and writes; nil when it
	// is pointGarde.
	atteint atomic.Pointer[pointAtteint]
	// position is how far the projection has applied the log: its
	// checkpoint as of the last commit, or the one it reached past it
	// (atteint), for readers that must not query the database to know how
	// far the projection is; moved is closed (and replaced) whenever it
	// advances.
	position atomic.Uint64
	mu       sync.Mutex
	moved    chan struct{}
	// borne serialises and spaces the catch-ups of RattraperBorne: debut
	// is when the last one began.
	borne struct {
		sync.Mutex
		debut time.Time
	}
}

// NewRunner prepares the checkpoint table and the projection's tables.
// store is read to fill gaps, catch up and rebuild.
func NewRunner(ctx context.Context, db *sql.DB, p Projection, store eventstore.Reader) (*Runner, error) {
	r := &Runner{db: db, proj: p, store: store, page: eventstore.PageSize, moved: make(chan struct{}), Log: slog.Default()}
	if b, ok := p.(Batcher); ok {
		r.lecteurs = []any{b}
	}
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
	if err == nil {
		err = r.preparerPoints(ctx)
	}
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

// NewRunners returns a runner for each projection, all on db and the
// journal's store, decoding ahead with its registry, in order; two
// projections of one name are refused, for the runners are found by name.
func NewRunners(ctx context.Context, db *sql.DB, j Journal, ps ...Projection) ([]*Runner, error) {
	runners := make([]*Runner, len(ps))
	for i, p := range ps {
		if Lecture(runners[:i], p.Name()) != nil {
			return nil, fmt.Errorf("two read models are named %s", p.Name())
		}
		r, err := NewRunner(ctx, db, p, j.Store)
		if err != nil {
			return nil, err
		}
		r.registre = j.Registry
		runners[i] = r
	}
	return runners, nil
}

// Lecture is the runner of the read model named name among runners (nil
// when none): its package's read type is built on it, and a read brings
// the read model up to date through it first (lecture.go).
func Lecture(runners []*Runner, name string) *Runner {
	for _, r := range runners {
		if r.Name() == name {
			return r
		}
	}
	return nil
}

// Position is the global position of the last event applied and committed,
// or passed because the projection does not read it (passer), 0 for none,
// read without touching the database: the read model's state is the one
// of the log up to there.
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

// reveiller wakes the waiters (Attendre).
func (r *Runner) reveiller() {
	r.mu.Lock()
	defer r.mu.Unlock()
	close(r.moved)
	r.moved = make(chan struct{})
}

// commencer begins a runner's transaction; a test counts them.
var commencer = func(ctx context.Context, db *sql.DB) (*sql.Tx, error) { return db.BeginTx(ctx, nil) }

func (r *Runner) inTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := commencer(ctx, r.db)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		return errors.Join(err, tx.Rollback())
	}
	return tx.Commit()
}
