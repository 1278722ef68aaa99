package projection

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"iter"
	"runtime/debug"
	"slices"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/integrity"
)

// ApplyError is an event a projection could not apply.
type ApplyError struct {
	Position uint64
	Type     string
	Err      error
}

func (e *ApplyError) Error() string {
	return fmt.Sprintf("applying %s at position %d: %v", e.Type, e.Position, e.Err)
}

func (e *ApplyError) Unwrap() error { return e.Err }

// Batcher is a projection that can also fold several consecutive events at
// once (ApplyBatch), with exactly the result of applying them one by one,
// so that it writes each row once per batch rather than once per event. It
// is handed the events decoded: the payloads it reads (PayloadUser) are
// decoded once, ahead, for it and every other read model folding them;
// one left undecoded it decodes itself (Decoded.Sinon).
type Batcher interface {
	Projection
	// ApplyBatch folds events, in global order, in tx.
	ApplyBatch(ctx context.Context, tx *sql.Tx, events []Decoded) error
}

// Apply applies events in global order in one transaction with the new
// checkpoint. Events at or before the checkpoint are skipped, which makes
// redelivery harmless. On a chained store each event must be chained to the
// checkpoint's (eventstore.ChainLink): a projection never folds an event that
// was altered in the file. An error (an *ApplyError for the event that
// failed) rolls back the state and the checkpoint. It returns how many
// events were applied. The checkpoint a batch starts from is the one the
// runner committed last, kept in memory, which the batch's write checks
// is still the database's; when it is not, or when the runner knows none,
// the batch reads it.
func (r *Runner) Apply(ctx context.Context, events []eventstore.Event) (int, error) {
	return r.apply(ctx, nonDecodes(events), r.controlePropre())
}

// controleChaine is how much of the chain of the events it applies a
// runner's transaction checks (applyTx).
type controleChaine int

const (
	// sansChaine checks nothing: the store is not chained, or the
	// caller checked every event (RebuildAll).
	sansChaine controleChaine = iota
	// jonction checks the first event applied against the checkpoint's
	// hash: the caller checked the chain from there on (RattraperEnsemble).
	jonction
	// chaineEntiere checks every event applied.
	chaineEntiere
)

// verifierLien checks the link of e with the chain: e's stored hash must
// be the hash of e after the event whose stored hash is precedent
// (ChainLink).
// The runners and their shared read-ahead (Avance) check every link
// through it; a test counts them.
var verifierLien = func(precedent []byte, e *eventstore.Event) error {
	return integrity.NewChainLink(precedent).Check(*e)
}

// controlePropre is what r checks of the events it applies on its own:
// all of them on a chained store.
func (r *Runner) controlePropre() controleChaine {
	if r.chained {
		return chaineEntiere
	}
	return sansChaine
}

// apres are the events of events after position.
func apres(events []Decoded, position uint64) []Decoded {
	if i := slices.IndexFunc(events, func(e Decoded) bool { return e.Position > position }); i >= 0 {
		return events[i:]
	}
	return nil
}

// verifierDepuis checks, as verif asks, the links of todo with the chain
// from the event whose stored hash is precedent: an altered event is an
// *ApplyError.
func verifierDepuis(precedent []byte, todo []Decoded, verif controleChaine) error {
	if verif == sansChaine {
		return nil
	}
	verifies := todo
	if verif == jonction {
		verifies = todo[:1]
	}
	for _, e := range verifies {
		if !e.lienVerifieApres(precedent) {
			if err := verifierLien(precedent, e.Event); err != nil {
				return &ApplyError{Position: e.Position, Type: e.Type, Err: err}
			}
		}
		precedent = e.Hash
	}
	return nil
}

// decodeur decodes the payloads the runner's Batcher reads that nothing
// decoded ahead (a catch-up, Apply; live without a shared read-ahead), with
// the registry of the runner's journal (NewRunners); a runner without one,
// or whose projection is no Batcher, decodes nothing: its Batcher decodes
// what it reads itself (Decoded.Sinon).
func (r *Runner) decodeur() decodeur {
	return decodeur{registry: r.registre, users: r.lecteurs}
}

// decodesParLot is the most events a runner decodes at once for its
// Batcher: a larger batch (simulate archive folds 32,768 events a
// transaction) is handed over in slices of it, in its one transaction,
// each slice's payloads decoded while the one before is folded and dropped
// once folded, so that a batch never holds more than two of a rebuild's pages
// of payloads (tranchesDecodees).
const decodesParLot = RebuildPage

// apply is Apply, checking the chain as asked (RebuildAll checks it once
// for every projection, RattraperEnsemble all of it but each runner's
// junction). A Batcher folds the events in one batch (plierParTranches);
// when that fails, the events are applied again one by one, as they were
// decoded, which names the event that fails.
func (r *Runner) apply(ctx context.Context, events []Decoded, verif controleChaine) (int, error) {
	b, ok := r.proj.(Batcher)
	if ok && len(events) > 1 {
		if n, err := r.applyTx(ctx, events, verif, b, true); err == nil {
			return n, nil
		}
	}
	return r.applyTx(ctx, events, verif, b, false)
}

// applyTx applies events in one transaction: through batch when it is not
// nil, in slices of decodesParLot events at most when enLot
// (plierParTranches), else event by event.
func (r *Runner) applyTx(ctx context.Context, events []Decoded, verif controleChaine, batch Batcher, enLot bool) (int, error) {
	applied := 0
	var last *eventstore.Event
	// pris is the kept checkpoint the batch took (nil: it read it), which
	// a failure is weighed against: a reset meanwhile forgets the kept one.
	// depart is the checkpoint the runner reached past it, passing events
	// its projection does not read (passer), which the batch starts from
	// (nil: none).
	var pris, depart *checkpoint
	// transactionDuLot is the body of the batch's transaction, run once
	// more when the kept checkpoint it took proves stale.
	transactionDuLot := func(tx *sql.Tx) error {
		applied, last, pris, depart = 0, nil, nil, nil
		cp, enMemoire, err := r.checkpointDans(ctx, tx)
		if err != nil {
			return err
		}
		if enMemoire {
			pris = &checkpoint{position: cp.position, hash: cp.hash, magasin: cp.magasin}
			if a := r.atteint.Load(); a != nil {
				depart, cp = &a.checkpoint, a.checkpoint
			}
		}
		todo := apres(events, cp.position)
		if len(todo) == 0 {
			switch {
			case depart != nil:
				// Nothing after the checkpoint the runner reached: it is
				// written (a page of a catch-up within the events it
				// passed, a clean stop).
				last = &eventstore.Event{Position: depart.position, Hash: depart.hash}
				return r.saveCheckpoint(ctx, tx, *last, pris)
			case enMemoire:
				// Nothing after a checkpoint kept in memory: one read
				// says whether it still is the database's.
				return errPointPerime
			}
			return nil
		}
		if err := verifierDepuis(cp.hash, todo, verif); err != nil {
			return err
		}
		if enLot {
			if err := r.plierParTranches(ctx, tx, batch, todo); err != nil {
				return err
			}
		} else {
			for _, e := range todo {
				un := func() error { return r.proj.Apply(ctx, tx, *e.Event) }
				if batch != nil {
					un = func() error {
						r.decodeur().completer(&e)
						return batch.ApplyBatch(ctx, tx, []Decoded{e})
					}
				}
				if err := sansPanique(un); err != nil {
					return &ApplyError{Position: e.Position, Type: e.Type, Err: err}
				}
			}
		}
		last = todo[len(todo)-1].Event
		applied = len(todo)
		return r.saveCheckpoint(ctx, tx, *last, pris)
	}
	err := r.inTx(ctx, transactionDuLot)
	if g := pris; err != nil && g != nil {
		// A batch that took its checkpoint from memory and failed is tried
		// again at once, from the checkpoint it reads, when that was
		// another (errPointPerime at the write, or applying failed on
		// it); a failure of its own is the caller's to try again. The
		// kept checkpoint is then forgotten, unless the batch started from
		// the one the runner reached past it: the database still holds
		// the kept one, and only the runner knows the events it passed.
		deplace := errors.Is(err, errPointPerime) || r.deplace(ctx, g)
		if deplace || depart == nil {
			r.garderPoint(nil)
		}
		if deplace {
			if depart != nil {
				r.reculer(ctx)
			}
			err = r.inTx(ctx, transactionDuLot)
		}
	}
	if err != nil {
		return 0, fmt.Errorf("projection %s: %w", r.proj.Name(), err)
	}
	if last != nil {
		r.garderPoint(last)
	}
	if applied > 0 {
		r.avancer(last.Position)
	}
	return applied, nil
}

// Tranches is a Batcher that folds the slices of one transaction as one
// batch: a batch larger than decodesParLot (simulate archive folds 32,768
// events a transaction) is handed over in slices, each decoded as it comes
// and dropped once folded, and what the Batcher adds up over its events
// (the archive: each player's name and year) is still written once for the
// transaction rather than once per slice.
type Tranches interface {
	Batcher
	// ApplyTranches folds, in tx, the events of the slices tranches
	// yields, in global order.
	ApplyTranches(ctx context.Context, tx *sql.Tx, tranches iter.Seq[[]Decoded]) error
}

// plierParTranches hands todo to batch in slices of decodesParLot events
// at most: all of them to one ApplyTranches of a Tranches, each to an
// ApplyBatch of any other Batcher. A Tranches that returns before it was
// handed every slice fails the batch: the checkpoint never passes an
// event the projection did not see.
func (r *Runner) plierParTranches(ctx context.Context, tx *sql.Tx, batch Batcher, todo []Decoded) error {
	tranches := r.tranchesDecodees(todo)
	if t, ok := batch.(Tranches); ok {
		remis := 0
		comptees := func(yield func([]Decoded) bool) {
			for tranche := range tranches {
				remis += len(tranche)
				if !yield(tranche) {
					return
				}
			}
		}
		err := sansPanique(func() error { return t.ApplyTranches(ctx, tx, comptees) })
		if err == nil && remis < len(todo) {
			err = fmt.Errorf("%s folded %d events and returned", r.proj.Name(), remis)
		}
		if err != nil {
			return fmt.Errorf("applying %d events from position %d: %w", len(todo), todo[0].Position, err)
		}
		return nil
	}
	for t := range tranches {
		if err := sansPanique(func() error { return batch.ApplyBatch(ctx, tx, t) }); err != nil {
			return fmt.Errorf("applying %d events from position %d: %w", len(t), t[0].Position, err)
		}
	}
	return nil
}

// tranchesDecodees yields todo in slices of decodesParLot events at most,
// each slice's payloads decoded before it is yielded: the first slice's
// here, each next one's by another goroutine while the slice before it is
// folded, so that the fold's goroutine keeps to the fold (simulate
// archive: the core its import leaves idle decodes) and at most two slices
// of payloads are held at once.
func (r *Runner) tranchesDecodees(todo []Decoded) iter.Seq[[]Decoded] {
	return func(yield func([]Decoded) bool) {
		d := r.decodeur()
		tranche := func(de int) []Decoded {
			t := todo[de:min(de+decodesParLot, len(todo))]
			if len(t) < len(todo) {
				t = slices.Clone(t)
			}
			return t
		}
		suivante := tranche(0)
		d.decoder(suivante)
		for de := 0; de < len(todo); de += decodesParLot {
			t := suivante
			var decodee chan struct{}
			if de+decodesParLot < len(todo) {
				suivante = tranche(de + decodesParLot)
				decodee = make(chan struct{})
				go func(t []Decoded) {
					defer close(decodee)
					d.decoderTout(t)
				}(suivante)
			}
			encore := yield(t)
			if decodee != nil {
				<-decodee
			}
			if !encore {
				return
			}
		}
	}
}

// sansPanique calls apply and turns a panic in it (a projection's bug)
// into an error with the stack, so that the event that causes it is named
// and the projection parks before it instead of bringing the server down.
func sansPanique(apply func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v\n%s", p, debug.Stack())
		}
	}()
	return apply()
}
