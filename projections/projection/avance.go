package projection

import (
	"context"
	"sync"

	"arbitre/domain/eventstore"
)

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
