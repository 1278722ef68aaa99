package graphql

import (
	"context"

	"arbitre/graphql/live"
)

// follow runs a subscription: read is called at once and after every change
// of the streams match accepts (with the global position of the latest
// change), and its result sent. The first read happens before returning, so
// an unknown id is an error rather than a silent stream; it is a read at the
// log's head (head, when given), and a wake-up at or before that position
// — the live feed catching up with events the first answer already holds —
// sends nothing again. The goroutine ends with the subscription's context.
func follow[T any](ctx context.Context, hub *live.Hub, head func(ctx context.Context) (uint64, error), match func(stream string) bool, read func(ctx context.Context, pos uint64) (T, error)) (<-chan T, error) {
	var vu uint64 // the log up to vu is in the last answer sent
	if head != nil {
		h, err := head(ctx)
		if err != nil {
			return nil, err
		}
		vu = h
	}
	first, err := read(ctx, vu)
	if err != nil {
		return nil, err
	}
	wake := hub.Subscribe(ctx, match)
	out := make(chan T, 1)
	go func() {
		defer close(out)
		pending, have := first, true
		for pos := range wake {
			if !have {
				if pos <= vu {
					continue
				}
				if pending, err = read(ctx, pos); err != nil {
					return
				}
				vu = pos
			}
			have = false
			if ctx.Err() != nil {
				return // e.g. the token was revoked: nothing more is sent
			}
			select {
			case out <- pending:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out, nil
}
