package eventstore

import "context"

// Ranges is a store that reads ranges of its global log independently,
// so several connections read a long log at once (a rebuild, issue 16
// item 10). The bounds are positions the store gives (Bound), so callers
// still never compute one.
type Ranges interface {
	// Bound returns the end of a page of the log after position after (0:
	// the beginning): the events in (after, upTo] are at least one and at
	// most n. ok is false when every event after position after, if any,
	// is among its next n (ReadAllAfter reads them).
	Bound(ctx context.Context, after uint64, n int) (upTo uint64, ok bool, err error)
	// ReadAllUpTo returns the events of the global log after position after
	// up to position upTo included, in global order.
	ReadAllUpTo(ctx context.Context, after, upTo uint64) ([]Event, error)
}
