package parallel

import (
	"context"
)

// InOrder runs travail on the items produire gives, on workers goroutines
// at once, and hands them on in the order produire gave them, each once its
// travail is done: the log read in one goroutine (or cut into ranges),
// its pages checked and decoded on every core, taken in order by Verify
// and by a rebuild (issue 16, item 10).
//
// produire runs in its own goroutine and gives each item to envoyer, which
// returns false once ctx is done: produire then returns. items closes after
// the last item, or once ctx is done; fin then gives produire's error. A
// caller that stops early cancels ctx and drains items.
func InOrder[T any](ctx context.Context, workers int, produire func(envoyer func(T) bool) error, travail func(T)) (items <-chan T, fin <-chan error) {
	type enCours struct {
		item T
		pret chan struct{}
	}
	aFaire := make(chan *enCours, workers)
	file := make(chan *enCours, 2*workers)
	out := make(chan T, 1)
	errc := make(chan error, 1)
	go func() {
		defer close(aFaire)
		defer close(file)
		errc <- produire(func(item T) bool {
			c := &enCours{item: item, pret: make(chan struct{})}
			for _, ch := range []chan *enCours{file, aFaire} {
				select {
				case ch <- c:
				case <-ctx.Done():
					return false
				}
			}
			return true
		})
	}()
	for range max(workers, 1) {
		go func() {
			for c := range aFaire {
				travail(c.item)
				close(c.pret)
			}
		}()
	}
	go func() {
		defer close(out)
		for c := range file {
			select {
			case <-c.pret:
			case <-ctx.Done():
				return
			}
			select {
			case out <- c.item:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out, errc
}
