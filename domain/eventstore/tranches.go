package eventstore

import "context"

// Tranches is a store that reads ranges of its global log independently,
// so several connections read a long log at once (a rebuild, issue 16
// item 10). The bounds are positions the store gives (Borne), so callers
// still never compute one.
type Tranches interface {
	// Borne returns the position of the n-th event after position after
	// (0: the beginning); ok is false when fewer than n events follow it.
	Borne(ctx context.Context, after uint64, n int) (upTo uint64, ok bool, err error)
	// ReadAllUpTo returns the events of the global log after position after
	// up to position upTo included, in global order.
	ReadAllUpTo(ctx context.Context, after, upTo uint64) ([]Event, error)
}
