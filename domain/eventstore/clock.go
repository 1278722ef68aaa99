package eventstore

import "time"

// Clock gives the time recorded in event metadata. Stores take one so tests
// and replays are exact; domain code never calls time.Now itself.
type Clock interface {
	Now() time.Time
}

// ClockFunc adapts a function to Clock.
type ClockFunc func() time.Time

// Now calls f.
func (f ClockFunc) Now() time.Time { return f() }

// SystemClock reads the wall clock, in UTC.
var SystemClock Clock = ClockFunc(func() time.Time { return time.Now().UTC() })
