package projection

import (
	"context"
	"errors"
	"fmt"

	"arbitre/domain/eventstore"
)

// RebuildPage is the number of events RebuildAll reads at once, and so the
// size of each projection's transactions during a rebuild.
const RebuildPage = 4096

// RebuildAll rebuilds every runner (all on one store) in one pass over the
// log: it resets them, then reads each page of the log once, checks its
// chain once, and hands it to each runner, which applies it in one
// transaction with its checkpoint (a Batcher in one ApplyBatch). The next
// page is read while the runners apply the current one. A runner that
// fails on an event stops right before it, as its checkpoint says (the
// next CatchUp resumes it), and the others go on; the errors are returned
// together. progress, when not nil, is called after each page with the
// position reached and the number of events read.
func RebuildAll(ctx context.Context, store eventstore.Reader, runners []*Runner, progress Progress) (int, error) {
	for _, r := range runners {
		if err := r.reset(ctx); err != nil {
			return 0, err
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	pages := make(chan []eventstore.Event, 2)
	readErr := make(chan error, 1)
	go func() {
		defer close(pages)
		_, err := eventstore.ForEachPage(ctx, store, 0, RebuildPage, func(page []eventstore.Event) error {
			select {
			case pages <- page:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		})
		readErr <- err
	}()

	chained := len(runners) > 0 && runners[0].chained
	chain := eventstore.NewMaillon(nil)
	failed := make([]error, len(runners))
	read := 0
	for page := range pages {
		var tampered error
		if chained {
			for i, e := range page {
				if err := chain.Check(e); err != nil {
					// Every runner stops right before the altered event.
					page, tampered = page[:i], fmt.Errorf("reading the log: %w", &ApplyError{Position: e.Position, Type: e.Type, Err: err})
					break
				}
			}
		}
		for i, r := range runners {
			if failed[i] == nil && len(page) > 0 {
				if _, failed[i] = r.apply(ctx, page, false); failed[i] != nil {
					r.applyBefore(ctx, page, failed[i])
				}
			}
		}
		read += len(page)
		if progress != nil && len(page) > 0 {
			progress(page[len(page)-1].Position, read)
		}
		if tampered != nil {
			failed = append(failed, tampered)
			break
		}
	}
	cancel()
	for range pages {
	}
	if err := <-readErr; err != nil && !errors.Is(err, context.Canceled) {
		failed = append(failed, fmt.Errorf("reading the log: %w", err))
	}
	return read, errors.Join(failed...)
}
