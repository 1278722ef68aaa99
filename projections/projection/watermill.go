package projection

import (
	"context"
	"errors"

	"arbitre/projections/feed"
)

// Recevoir is the runner's share of a message the pipeline delivers (its
// one watermill handler hands each message to every runner). A message at
// or before the checkpoint is a duplicate and is acknowledged; a message
// whose previous position is after the checkpoint reveals lost messages, so
// the runner catches up from the store (which includes this event);
// otherwise the event, read from the message and its payload decoded once
// for every runner (Avance), is applied with the events stored after it so
// far (suivre). An error nacks the message for redelivery. A parked
// projection acknowledges every message without applying it: when it
// resumes (Reprendre, which the handler waits for), it reads them from the
// store.
func (r *Runner) Recevoir(ctx context.Context, l *feed.Livraison) error {
	r.applique.Lock()
	defer r.applique.Unlock()
	if r.Arret() != nil {
		return nil
	}
	// The checkpoint as of the last commit, kept in memory: a burst's
	// duplicates cost no query, and are not decoded (issue 34: every read
	// model decoded every message of a burst it had read ahead). The batch
	// checks it at its write (saveCheckpoint).
	checkpoint := r.Position()
	switch {
	case l.Position <= checkpoint:
		return nil
	case l.Previous > checkpoint:
		_, err := r.CatchUp(ctx, nil)
		return err
	}
	if r.Avance != nil {
		d, err := r.Avance.evenement(l, r.decodeur())
		if err != nil {
			return err
		}
		return r.suivre(ctx, d)
	}
	e, err := l.Event()
	if err != nil {
		return err
	}
	return r.suivre(ctx, Decoded{Event: e})
}

// suivre applies e together with the events the store holds after it, up
// to a page, in one transaction: when fifty arbiters enter a coup's
// bulletins at once, a projection folds the burst once (a Batcher writes
// each row once) instead of once per bulletin, and the messages of the
// events it read ahead are then duplicates (issue 17). An event that fails
// further on does not hold e back: the events before it are applied, and
// it fails on its own message, so the projection parks right before it.
func (r *Runner) suivre(ctx context.Context, e Decoded) error {
	lot := []Decoded{e}
	if r.Avance != nil {
		if apres, err := r.Avance.lire(ctx, e.Position, r.page-1, r.decodeur()); err == nil {
			lot = append(lot, apres...)
		}
	} else if apres, err := r.store.ReadAllAfter(ctx, e.Position, r.page-1); err == nil {
		lot = append(lot, nonDecodes(apres)...)
	}
	_, err := r.apply(ctx, lot, r.controlePropre())
	var applyErr *ApplyError
	if err == nil || len(lot) == 1 || errors.As(err, &applyErr) && applyErr.Position == e.Position {
		return err
	}
	if r.applyBefore(ctx, lot, err, r.controlePropre()) > 0 {
		return nil
	}
	_, err = r.apply(ctx, lot[:1], r.controlePropre())
	return err
}
