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

// StepClock is a deterministic clock that advances one millisecond per call.
type StepClock struct {
	mu   sync.Mutex
	next time.Time
}

// NewStepClock starts at start.
func NewStepClock(start time.Time) *StepClock { return &StepClock{next: start.UTC()} }

// Now returns the current time and advances.
func (c *StepClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.next
	c.next = c.next.Add(time.Millisecond)
	return now
}

// Epoch is the first time every StepClock of the suite returns.
var Epoch = time.Date(2025, 3, 15, 9, 30, 0, 0, time.UTC)
