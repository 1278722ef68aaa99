package projection

import (
	"context"
	"fmt"
	"math"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/integrity"
)

// RattraperEnsemble brings runners, all on store, up to its head as it
// moves meanwhile, in pages of taille events, each runner applying a page
// in a transaction of its own with its checkpoint (a runner skips what it
// holds, Runner.Apply): stopped in the middle, each resumes from its last
// page.
// The log is read from the earliest checkpoint once for all the runners,
// by a goroutine that reads and checks the chain of the next page while
// the runners apply the current one (one page ahead at most): each link
// of the chain is checked once, and each runner checks only the junction
// of what it applies with its checkpoint. An altered event stops every
// runner right before it, and is returned (an *ApplyError).
func RattraperEnsemble(ctx context.Context, store eventstore.Reader, runners []*Runner, taille int) error {
	if len(runners) == 0 {
		return nil
	}
	from := uint64(math.MaxUint64)
	for _, r := range runners {
		cp, err := r.Checkpoint(ctx)
		if err != nil {
			return err
		}
		from = min(from, cp)
	}
	// The runners share store: the first says whether it is chained.
	verif := runners[0].controlePropre()
	if verif == chaineEntiere {
		verif = jonction
	}
	ctx, cancel := context.WithCancel(ctx)
	pages := make(chan pageLue)
	go lireEnAvance(ctx, store, from, taille, verif != sansChaine, pages)
	defer func() {
		cancel()
		for range pages {
		}
	}()
	for p := range pages {
		if len(p.decoded) > 0 {
			for _, r := range runners {
				if _, err := r.apply(ctx, p.decoded, verif); err != nil {
					return err
				}
			}
		}
		if p.err != nil {
			return p.err
		}
	}
	return ctx.Err()
}

// pageLue is a page of the log read ahead, checked, and what ends the
// reading after it: an altered event (the page stops right before it) or
// a failed read.
type pageLue struct {
	decoded []Decoded
	err     error
}

// lireEnAvance sends pages of taille events of the log after from, until
// a page comes empty, ctx is done or a page ends in an error; the chain of
// each page, when checked, from its second event on for the first page
// (its first event's link is the runners' junction) and from the last
// event of the page before for the others. It closes pages once done.
func lireEnAvance(ctx context.Context, store eventstore.Reader, from uint64, taille int, chained bool, pages chan<- pageLue) {
	defer close(pages)
	var chain *integrity.ChainLink
	for {
		events, err := store.ReadAllAfter(ctx, from, taille)
		de := 0
		if chained && chain == nil && len(events) > 0 {
			chain, de = integrity.NewChainLink(events[0].Hash), 1
		}
		l := lotDe(events, de, chain, decodeur{})
		p := pageLue{decoded: l.decoded, err: l.tampered}
		if err != nil {
			p.err = fmt.Errorf("reading the log after %d: %w", from, err)
		}
		select {
		case pages <- p:
		case <-ctx.Done():
			return
		}
		if p.err != nil || len(events) == 0 {
			return
		}
		from = events[len(events)-1].Position
	}
}
