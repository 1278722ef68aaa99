package graphql

import (
	"context"

	"arbitre/graphql/live"
)

// follow runs a subscription: read is called at once and after every change
// of the streams match accepts (with the global position of the latest
// change, 0 at first), and its result sent. The first read happens before
// returning, so an unknown id is an error rather than a silent stream; the
// goroutine ends with the subscription's context.
func follow[T any](ctx context.Context, hub *live.Hub, match func(stream string) bool, read func(ctx context.Context, pos uint64) (T, error)) (<-chan T, error) {
	first, err := read(ctx, 0)
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
				if pending, err = read(ctx, pos); err != nil {
					return
				}
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
