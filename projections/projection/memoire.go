package projection

import (
	"context"
	"database/sql"
	"fmt"
	"sync/atomic"
	"time"

	"arbitre/domain/eventstore"
)

// EnMemoire is a read model held in memory. Its runner is the one of the
// read models in SQLite (NewRunnerEnMemoire): it follows the same log, in
// the same pipeline, with the same retries, parking and waits; its
// checkpoint lives in a database of its own in memory, lost with the
// state, so it is rebuilt from the head of the log at every start-up.
type EnMemoire interface {
	// Name identifies the read model among the others.
	Name() string
	// Apply folds one event, in global order. It changes nothing when it
	// fails.
	Apply(ctx context.Context, e eventstore.Event) error
}

// NewRunnerEnMemoire returns the runner of m, at position zero.
func NewRunnerEnMemoire(ctx context.Context, m EnMemoire, store eventstore.Reader) (*Runner, error) {
	db, err := sql.Open("sqlite", "file::memory:")
	if err != nil {
		return nil, fmt.Errorf("read model %s: %w", m.Name(), err)
	}
	// One connection: a database in memory is the connection's own.
	db.SetMaxOpenConns(1)
	db.SetConnMaxIdleTime(0)
	db.SetConnMaxLifetime(0)
	var p Projection = &enMemoire{m: m}
	if s, ok := m.(interface{ Lit(typ string) bool }); ok {
		p = &enMemoireSelectif{enMemoire: p.(*enMemoire), lit: s.Lit}
	}
	return NewRunner(ctx, db, p, store)
}

// enMemoireSelectif is the adapter of a read model in memory that says what
// it reads (Lit, as Selectif does): its runner passes a live batch holding
// none of those without a transaction (passer).
type enMemoireSelectif struct {
	*enMemoire
	lit func(typ string) bool
}

func (p *enMemoireSelectif) Lit(typ string) bool { return p.lit(typ) }

// enMemoire adapts a read model in memory to the runner's transactions.
// A transaction that rolls back after some of its events reached the
// model does not take them back: the model remembers the last event it
// applied and skips it when the runner applies it again.
type enMemoire struct {
	m       EnMemoire
	applied atomic.Uint64
}

func (p *enMemoire) Name() string { return p.m.Name() }

func (*enMemoire) Setup(context.Context, *sql.Tx) error { return nil }

// Reset refuses once events were applied: state in memory is rebuilt by a
// start-up only.
func (p *enMemoire) Reset(context.Context, *sql.Tx) error {
	if p.applied.Load() > 0 {
		return fmt.Errorf("read model %s is held in memory: it is rebuilt at start-up only", p.m.Name())
	}
	return nil
}

func (p *enMemoire) Apply(ctx context.Context, _ *sql.Tx, e eventstore.Event) error {
	if e.Position <= p.applied.Load() {
		return nil
	}
	if err := p.m.Apply(ctx, e); err != nil {
		return err
	}
	p.applied.Store(e.Position)
	return nil
}

// EnMemoire tells whether the runner's read model is held in memory.
func (r *Runner) EnMemoire() bool {
	switch r.proj.(type) {
	case *enMemoire, *enMemoireSelectif:
		return true
	}
	return false
}

// Rattraper brings the read model up to the head of the log before a read
// that must see every event recorded before it began: it applies what the
// store holds after its checkpoint, in turn with the live messages. A
// parked read model answers why it is parked.
func (r *Runner) Rattraper(ctx context.Context) error {
	r.applique.Lock()
	defer r.applique.Unlock()
	if a := r.Arret(); a != nil {
		return a
	}
	_, err := r.CatchUp(ctx, nil)
	return err
}

// RattraperBorne is Rattraper for a read any client can trigger at will
// (an unknown token, an unknown id): a catch-up that began after the
// caller arrived answers it; otherwise one begins once intervalle has
// passed since the previous one began. A flood of such reads costs the
// store one read per interval, and each caller waits about two intervals
// at most.
func (r *Runner) RattraperBorne(ctx context.Context, intervalle time.Duration) error {
	arrivee := time.Now()
	r.borne.Lock()
	defer r.borne.Unlock()
	if r.borne.debut.After(arrivee) {
		return nil
	}
	if attente := time.Until(r.borne.debut.Add(intervalle)); attente > 0 {
		timer := time.NewTimer(attente)
		defer timer.Stop()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-timer.C:
		}
	}
	r.borne.debut = time.Now()
	return r.Rattraper(ctx)
}
