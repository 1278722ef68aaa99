package eventstoretest

import (
	"sync"
	"time"
)

// Horloge is a clock for tests that moves only when told: stores and
// aggregates take it as their eventstore.Clock, tests set or advance it.
type Horloge struct {
	mu sync.Mutex
	t  time.Time
}

// NewHorloge is a clock reading t.
func NewHorloge(t time.Time) *Horloge { return &Horloge{t: t} }

// Now is the time the clock reads.
func (h *Horloge) Now() time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.t
}

// Regler sets the clock to t.
func (h *Horloge) Regler(t time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.t = t
}

// Avancer moves the clock forward by d.
func (h *Horloge) Avancer(d time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.t = h.t.Add(d)
}
