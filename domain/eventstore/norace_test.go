//go:build !race

package eventstore_test

// avecRace: see race_test.go.
const avecRace = false
