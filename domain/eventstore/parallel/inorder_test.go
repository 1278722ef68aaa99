package parallel_test

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/eventstore/parallel"
)

// Issue 16, item 10: the pages of the log are worked on by several
// goroutines and come out in the order they were read, each once, worked
// on; the error that ended the reading comes after the last of them.
func TestEnOrdre_DansLOrdreDeLaLecture(t *testing.T) {
	fin := errors.New("lecture interrompue")
	for _, c := range []struct {
		nom     string
		workers int
		err     error
	}{
		{"un seul", 1, nil},
		{"quatre", 4, nil},
		{"erreur de lecture", 3, fin},
	} {
		t.Run(c.nom, func(t *testing.T) {
			const n = 200
			items, errc := parallel.InOrder(context.Background(), c.workers, func(envoyer func(*[2]int) bool) error {
				for i := range n {
					if !envoyer(&[2]int{i, 0}) {
						return errors.New("arrêt inattendu")
					}
				}
				return c.err
			}, func(item *[2]int) {
				// Later items finish first: the order is restored.
				time.Sleep(time.Duration((n-item[0])%7) * 50 * time.Microsecond)
				item[1] = item[0] * item[0]
			})
			i := 0
			for item := range items {
				require.Equal(t, [2]int{i, i * i}, *item)
				i++
			}
			assert.Equal(t, n, i)
			assert.Equal(t, c.err, <-errc)
		})
	}
}

// A reader that stops early cancels the context: the producer, the
// workers and the goroutine that keeps the order all end.
func TestEnOrdre_ArretParLeLecteur(t *testing.T) {
	avant := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	items, errc := parallel.InOrder(ctx, 3, func(envoyer func(int) bool) error {
		for i := 0; ; i++ {
			if !envoyer(i) {
				return ctx.Err()
			}
		}
	}, func(int) {})
	for item := range items {
		if item == 10 {
			break
		}
	}
	cancel()
	for range items {
	}
	assert.ErrorIs(t, <-errc, context.Canceled)
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > avant && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	assert.LessOrEqual(t, runtime.NumGoroutine(), avant, "every goroutine of EnOrdre ended")
}
