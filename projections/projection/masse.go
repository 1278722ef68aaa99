package projection

import (
	"context"
	"database/sql"
	"fmt"
)

// Masse is a projection that folds a bulk of events nobody reads
// meanwhile (a rebuild, a history imported in one go) faster when told
// where the bulk begins and ends: between the two it may leave undone
// what only its reads need (indexes of its queries, rankings), which
// FinDeMasse does once. Each runs in a transaction of the projection's own
// database; what DebutDeMasse leaves must let the projection's opening
// (Setup) end a bulk that stopped before FinDeMasse, and the live folding
// outside a bulk must keep every read up to date at each commit.
type Masse interface {
	Projection
	// DebutDeMasse begins a bulk.
	DebutDeMasse(ctx context.Context, tx *sql.Tx) error
	// FinDeMasse ends it: what the bulk left undone is done.
	FinDeMasse(ctx context.Context, tx *sql.Tx) error
}

// CommencerMasse tells r's projection, when it is a Masse, that a bulk
// begins (RebuildAll and Rebuild do; so does a command that writes a
// history nobody reads meanwhile).
func (r *Runner) CommencerMasse(ctx context.Context) error {
	return r.masse(ctx, Masse.DebutDeMasse)
}

// FinirMasse ends the bulk CommencerMasse began: every read is then up to
// date with what the projection folded.
func (r *Runner) FinirMasse(ctx context.Context) error {
	return r.masse(ctx, Masse.FinDeMasse)
}

func (r *Runner) masse(ctx context.Context, fn func(Masse, context.Context, *sql.Tx) error) error {
	m, ok := r.proj.(Masse)
	if !ok {
		return nil
	}
	if err := r.inTx(ctx, func(tx *sql.Tx) error { return fn(m, ctx, tx) }); err != nil {
		return fmt.Errorf("projection %s: %w", r.proj.Name(), err)
	}
	return nil
}
