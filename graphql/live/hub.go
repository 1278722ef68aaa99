// Package live tells GraphQL subscriptions that something changed. It
// follows the store's global log and wakes the subscribers interested in a
// stream. A wake-up carries only the global position of the latest change:
// the subscriber reads the current state from the read models, so a burst of
// events coalesces into one update and a slow screen never holds anybody up
// (a send never blocks).
package live

import (
	"context"
	"sync"

	"arbitre/domain/eventstore"
)

// Hub fans the log out to subscribers.
type Hub struct {
	mu   sync.Mutex
	subs map[*subscriber]struct{}
}

// subscriber holds at most one pending wake-up: the latest position.
type subscriber struct {
	match func(stream string) bool
	wake  chan uint64
}

// NewHub returns a hub with no subscriber.
func NewHub() *Hub { return &Hub{subs: map[*subscriber]struct{}{}} }

// Name is the hub's name among the read models: it holds nothing of the
// log but follows it as they do, in the same pipeline, as one held in
// memory (projection.NewRunnerEnMemoire).
const Name = "live"

// Name is the hub's name among the read models.
func (h *Hub) Name() string { return Name }

// Apply wakes the subscribers of the event's stream.
func (h *Hub) Apply(_ context.Context, e eventstore.Event) error {
	h.Publish(e.Stream, e.Position)
	return nil
}

// Publish wakes every subscriber whose filter accepts the stream of the
// event at global position pos. A wake-up not yet read is replaced by this
// one, so the reader always gets the latest position.
func (h *Hub) Publish(stream string, pos uint64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.subs {
		if !s.match(stream) {
			continue
		}
		select {
		case prev := <-s.wake:
			pos = max(pos, prev)
		default:
		}
		s.wake <- pos // the buffer is empty: never blocks
	}
}

// Subscribe returns a channel that receives, after events of the streams
// match accepts, the global position of the latest of them (0 for the
// immediate first wake-up, which lets the subscriber send the current state
// at once). The channel is closed when ctx is done.
func (h *Hub) Subscribe(ctx context.Context, match func(stream string) bool) <-chan uint64 {
	s := &subscriber{match: match, wake: make(chan uint64, 1)}
	s.wake <- 0
	h.mu.Lock()
	h.subs[s] = struct{}{}
	h.mu.Unlock()
	context.AfterFunc(ctx, func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		delete(h.subs, s)
		close(s.wake)
	})
	return s.wake
}

// Subscribers is the number of live subscriptions (for tests and metrics).
func (h *Hub) Subscribers() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs)
}
