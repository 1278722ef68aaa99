package eventstoretest

import (
	"sync"
	"time"
)

// ManualClock is a clock for tests that moves only when told: stores and
// aggregates take it as their eventstore.Clock, tests set or advance it.
type ManualClock struct {
	mu sync.Mutex
	t  time.Time
}

// NewManualClock is a clock reading t.
func NewManualClock(t time.Time) *ManualClock { return &ManualClock{t: t} }

// Now is the time the clock reads.
func (h *ManualClock) Now() time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.t
}

// Set sets the clock to t.
func (h *ManualClock) Set(t time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.t = t
}

// Advance moves the clock forward by d.
func (h *ManualClock) Advance(d time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.t = h.t.Add(d)
}
