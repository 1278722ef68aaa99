package eventstore

import (
	"crypto/rand"
	"time"
)

// Clock gives the time recorded in event metadata. Stores take one so tests
// and replays are exact; domain code never calls time.Now itself.
type Clock interface {
	Now() time.Time
}

// ClockFunc adapts a function to Clock.
type ClockFunc func() time.Time

// Now calls f.
func (f ClockFunc) Now() time.Time { return f() }

// MonotonicClock is a clock that also reads a time no setting of its wall
// clock moves (an operator, an NTP step): lengths measured while the process
// runs use it (the length of an interruption, §3.7).
type MonotonicClock interface {
	Clock
	Monotonic() MonotonicReading
}

// MonotonicReading is a reading of a monotonic clock: the time elapsed since
// an origin that only the process that took it knows. Origin names that
// clock, so a reading taken before a restart (or by another server) is
// recognised as not comparable with one taken after.
type MonotonicReading struct {
	Origin  string        `json:"origine"`
	Elapsed time.Duration `json:"ecoule"`
}

// Since is the time elapsed from earlier to r, when both are readings of
// the same clock; false otherwise.
func (r MonotonicReading) Since(earlier MonotonicReading) (time.Duration, bool) {
	if r.Origin == "" || r.Origin != earlier.Origin || r.Elapsed < earlier.Elapsed {
		return 0, false
	}
	return r.Elapsed - earlier.Elapsed, true
}

// Instant is a reading of a clock: the wall time events are dated with and,
// when the clock has one, its monotonic reading.
type Instant struct {
	Wall      time.Time
	Monotonic *MonotonicReading
}

// Since is the time elapsed from earlier to i: on the monotonic clock when
// both are readings of the same one (monotone true), otherwise on the wall
// clock, never negative (after a restart no monotonic reading survives).
func (i Instant) Since(earlier Instant) (d time.Duration, monotone bool) {
	if i.Monotonic != nil && earlier.Monotonic != nil {
		if d, ok := i.Monotonic.Since(*earlier.Monotonic); ok {
			return d, true
		}
	}
	return max(i.Wall.Sub(earlier.Wall), 0), false
}

// ReadClock reads c at once: its wall time, and its monotonic time when it
// is a MonotonicClock.
func ReadClock(c Clock) Instant {
	i := Instant{Wall: c.Now()}
	if m, ok := c.(MonotonicClock); ok {
		r := m.Monotonic()
		i.Monotonic = &r
	}
	return i
}

// systemClock reads the wall clock in UTC, and Go's monotonic clock from
// the process's start.
type systemClock struct {
	origin string
	start  time.Time
}

func (c systemClock) Now() time.Time { return time.Now().UTC() }

func (c systemClock) Monotonic() MonotonicReading {
	return MonotonicReading{Origin: c.origin, Elapsed: time.Since(c.start)}
}

// SystemClock reads the wall clock, in UTC; its monotonic readings are
// those of this process (a random origin drawn at start).
var SystemClock Clock = systemClock{origin: rand.Text(), start: time.Now()}
