// Package live tells GraphQL subscriptions that something changed. It
// follows the store's global log and wakes the subscribers interested in a
// stream. A wake-up carries no data: the subscriber reads the current state
// from the read models, so a burst of events coalesces into one update and a
// slow screen never holds anybody up (a send never blocks, inside a lock or
// outside).
package live

import (
	"context"
	"sync"
	"sync/atomic"

	"arbitre/domain/eventstore"
)

// Hub fans the log out to subscribers.
type Hub struct {
	mu   sync.Mutex
	subs map[*subscriber]struct{}
}

type subscriber struct {
	match func(stream string) bool
	wake  chan struct{}
	// last is the highest global position published to this subscriber.
	last atomic.Uint64
}

// NewHub returns a hub with no subscriber.
func NewHub() *Hub { return &Hub{subs: map[*subscriber]struct{}{}} }

// Follow feeds the hub from the store, starting after position from (the
// log's end at start-up: history is what the read models already hold),
// until ctx is done.
func (h *Hub) Follow(ctx context.Context, store eventstore.Store, from uint64) error {
	return store.Subscribe(ctx, from, func(_ context.Context, e eventstore.Event) error {
		h.Publish(e.Stream, e.Position)
		return nil
	})
}

// Publish wakes every subscriber whose filter accepts the stream of the
// event at global position pos.
func (h *Hub) Publish(stream string, pos uint64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.subs {
		if s.match(stream) {
			if pos > s.last.Load() {
				s.last.Store(pos)
			}
			select {
			case s.wake <- struct{}{}:
			default: // already pending: the next read sees this change too
			}
		}
	}
}

// Subscribe returns a channel that receives, after events of the streams
// match accepts, the global position of the latest of them (0 for the
// immediate first wake-up, which lets the subscriber send the current state
// at once). The channel is closed when ctx is done.
func (h *Hub) Subscribe(ctx context.Context, match func(stream string) bool) <-chan uint64 {
	s := &subscriber{match: match, wake: make(chan struct{}, 1)}
	s.wake <- struct{}{}
	h.mu.Lock()
	h.subs[s] = struct{}{}
	h.mu.Unlock()
	out := make(chan uint64)
	go func() {
		defer close(out)
		defer func() {
			h.mu.Lock()
			delete(h.subs, s)
			h.mu.Unlock()
		}()
		for {
			select {
			case <-ctx.Done():
				return
			case <-s.wake:
				select {
				case out <- s.last.Load():
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return out
}

// Subscribers is the number of live subscriptions (for tests and metrics).
func (h *Hub) Subscribers() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs)
}
