//go:build race

package eventstore_test

// avecRace tells whether the tests run under the race detector, whose
// instrumentation allocates (sync.Pool keeps nothing): allocation counts
// are asserted without it.
const avecRace = true
