package projection

import (
	"context"
	"errors"
	"sync"

	"arbitre/domain/eventstore"
	"arbitre/projections/feed"

	"github.com/ThreeDotsLabs/watermill/message"
)

// HandleMessage is the runner's watermill handler. A message at or before
// the checkpoint is a duplicate and is acknowledged; a message whose
// previous position is after the checkpoint reveals lost messages, so the
// runner catches up from the store (which includes this event); otherwise
// the event is applied, with the events stored after it so far (suivre).
// An error nacks the message for redelivery. A parked projection
// acknowledges every message without applying it: when it resumes
// (Reprendre, which the handler waits for), it reads them from the store.
func (r *Runner) HandleMessage(msg *message.Message) error {
	r.applique.Lock()
	defer r.applique.Unlock()
	if r.Arret() != nil {
		return nil
	}
	ctx := msg.Context()
	e, previous, err := feed.Decode(msg)
	if err != nil {
		return err
	}
	// The checkpoint as of the last commit, kept in memory: a burst's
	// duplicates cost no query. Apply reads it again in its transaction.
	checkpoint := r.Position()
	switch {
	case e.Position <= checkpoint:
		return nil
	case previous > checkpoint:
		_, err = r.CatchUp(ctx, nil)
	default:
		err = r.suivre(ctx, e)
	}
	return err
}

// suivre applies e together with the events the store holds after it, up
// to a page, in one transaction: when fifty arbiters enter a coup's
// bulletins at once, a projection folds the burst once (a Batcher writes
// each row once) instead of once per bulletin, and the messages of the
// events it read ahead are then duplicates (issue 17). An event that fails
// further on does not hold e back: the events before it are applied, and
// it fails on its own message, so the projection parks right before it.
func (r *Runner) suivre(ctx context.Context, e eventstore.Event) error {
	lire := r.store.ReadAllAfter
	if r.Avance != nil {
		lire = r.Avance.lire
	}
	lot := []eventstore.Event{e}
	if apres, err := lire(ctx, e.Position, r.page-1); err == nil {
		lot = append(lot, apres...)
	}
	_, err := r.Apply(ctx, lot)
	var applyErr *ApplyError
	if err == nil || len(lot) == 1 || errors.As(err, &applyErr) && applyErr.Position == e.Position {
		return err
	}
	if r.applyBefore(ctx, lot, err, r.chained) > 0 {
		return nil
	}
	_, err = r.Apply(ctx, lot[:1])
	return err
}

// Avance is the read-ahead the live runners of one pipeline share: every
// runner handles the same message in turn, and the events stored after it
// are read once for all of them rather than once per projection (issue 17).
// A runner may be handed a page another read a moment before, which is a
// prefix of what the log holds now: the events after it come as messages.
type Avance struct {
	store eventstore.Reader
	mu    sync.Mutex
	apres uint64
	page  []eventstore.Event
	lu    bool
}

// NewAvance returns the read-ahead shared by the runners following store.
func NewAvance(store eventstore.Reader) *Avance { return &Avance{store: store} }

// lire returns at most limit events stored after position apres: the
// rest of the last page read when apres is its start or one of its events
// (runners follow the same burst at their own pace; an empty rest too: when
// the runners keep up with the log, the first of them finds nothing ahead
// and the others are not sent to look again), else a new read, which the
// runners after it wait for.
func (a *Avance) lire(ctx context.Context, apres uint64, limit int) ([]eventstore.Event, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	suite, ok := a.suite(apres)
	if !ok {
		page, err := a.store.ReadAllAfter(ctx, apres, limit)
		if err != nil {
			return nil, err
		}
		a.apres, a.page, a.lu = apres, page, true
		suite = page
	}
	return suite[:min(limit, len(suite))], nil
}

// suite is what the last page read holds after position apres.
func (a *Avance) suite(apres uint64) ([]eventstore.Event, bool) {
	if !a.lu {
		return nil, false
	}
	if apres == a.apres {
		return a.page, true
	}
	for i, e := range a.page {
		if e.Position == apres {
			return a.page[i+1:], true
		}
	}
	return nil, false
}
