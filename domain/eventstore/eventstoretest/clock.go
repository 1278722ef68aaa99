package eventstoretest

import (
	"crypto/rand"
	"sync"
	"time"

	"arbitre/domain/eventstore"
)

// ManualClock is a clock for tests that moves only when told: stores and
// aggregates take it as their eventstore.Clock, tests set or advance it. It
// is an eventstore.MonotonicClock: Advance is time passing (both readings
// move), Set and Jump set its wall clock only, as an operator or an NTP step
// would.
type ManualClock struct {
	mu     sync.Mutex
	t      time.Time
	origin string
	mono   time.Duration
}

// NewManualClock is a clock reading t.
func NewManualClock(t time.Time) *ManualClock { return &ManualClock{t: t, origin: rand.Text()} }

// Now is the time the clock reads.
func (h *ManualClock) Now() time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.t
}

// Monotonic is its monotonic reading: the time Advance moved it.
func (h *ManualClock) Monotonic() eventstore.MonotonicReading {
	h.mu.Lock()
	defer h.mu.Unlock()
	return eventstore.MonotonicReading{Origin: h.origin, Elapsed: h.mono}
}

// Set sets the wall clock to t.
func (h *ManualClock) Set(t time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.t = t
}

// Advance moves the clock forward by d, as time passing: its wall and
// monotonic readings. A negative d moves the wall clock only (a monotonic
// clock never goes back).
func (h *ManualClock) Advance(d time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.t = h.t.Add(d)
	h.mono += max(d, 0)
}

// Jump moves the wall clock by d and not the monotonic one: the server's
// clock set forward or back while time goes on.
func (h *ManualClock) Jump(d time.Duration) {
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
