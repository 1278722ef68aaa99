package projection

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
)

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
		lot := nonDecodes(page)
		n, err := r.apply(ctx, lot, r.controlePropre())
		if err != nil {
			return total + r.applyBefore(ctx, lot, err, r.controlePropre()), err
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
// err (checking their chain as asked), so a projection stops right before
// an event it cannot apply, and returns how many it applied.
func (r *Runner) applyBefore(ctx context.Context, page []Decoded, err error, verif controleChaine) int {
	var applyErr *ApplyError
	if !errors.As(err, &applyErr) {
		return 0
	}
	i := slices.IndexFunc(page, func(e Decoded) bool { return e.Position == applyErr.Position })
	if i <= 0 {
		return 0
	}
	n, _ := r.apply(ctx, page[:i], verif)
	return n
}

// Rebuild deletes the projection's state and checkpoint in one transaction
// and replays the whole log, as one bulk (Masse). If interrupted, the
// projection is consistent at its checkpoint and the next CatchUp resumes
// it.
func (r *Runner) Rebuild(ctx context.Context, progress Progress) (int, error) {
	if err := r.reset(ctx); err != nil {
		return 0, err
	}
	if err := r.CommencerMasse(ctx); err != nil {
		return 0, err
	}
	n, err := r.CatchUp(ctx, progress)
	return n, errors.Join(err, r.FinirMasse(ctx))
}

// reset deletes the projection's state and checkpoint in one transaction.
func (r *Runner) reset(ctx context.Context) error {
	r.garderPoint(nil)
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
