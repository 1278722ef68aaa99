package projection

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"runtime"
	"sync"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/integrity"
	"arbitre/domain/eventstore/parallel"
)

// RebuildPage is the number of events RebuildAll reads at once, and so the
// size of the transactions of the projections it applies page by page.
const RebuildPage = 4096

// Decoded is an event with its payload, decoded once for every fold and
// Batcher that reads it (issue 16, item 10; issue 34): by a rebuild, by
// the live runners' shared read-ahead (Avance), by a runner catching up.
// It is shared, read only.
type Decoded struct {
	*eventstore.Event
	// Known says whether the registry knows the event's type; Payload is
	// then the decoded payload, or Err why it does not decode.
	Known   bool
	Payload any
	Err     error
	// lienVerifie says the event's link with the chain was checked against
	// precedent, the stored hash of the event before it, once for every
	// live runner (Avance): a runner whose checkpoint holds that hash does
	// not hash the event again (applyTx).
	lienVerifie bool
	precedent   []byte
}

// lienVerifieApres tells whether d's link was checked against precedent.
func (d Decoded) lienVerifieApres(precedent []byte) bool {
	return d.lienVerifie && bytes.Equal(d.precedent, precedent)
}

// Decode decodes e with registry (nil: Known stays false).
func Decode(registry *eventstore.Registry, e *eventstore.Event) Decoded {
	d := Decoded{Event: e}
	if registry == nil {
		return d
	}
	if _, err := registry.CurrentVersion(e.Type); err != nil {
		d.Err = err
		return d
	}
	d.Known = true
	d.Payload, d.Err = registry.Decode(*e)
	return d
}

// decoder decodes d's event in place with registry, keeping what was
// checked of its link.
func (d *Decoded) decoder(registry *eventstore.Registry) {
	v := Decode(registry, d.Event)
	d.Known, d.Payload, d.Err = v.Known, v.Payload, v.Err
}

// Sinon is d, or e decoded with registry when nothing decoded it ahead
// (no registry was given, or no fold or Batcher said it uses that
// payload).
func (d Decoded) Sinon(registry *eventstore.Registry) Decoded {
	if d.Known || d.Err != nil {
		return d
	}
	return Decode(registry, d.Event)
}

// Folder is a projection that a rebuild folds in memory: rather than
// applying each page of the log in SQL, RebuildAll adds every event to one
// Fold and writes its final state once, at the end, in one transaction with
// the checkpoint. The tables it writes must be byte for byte those the
// projection's Apply gives on the same events.
type Folder interface {
	Projection
	// Fold returns an empty fold of the log.
	Fold() Fold
}

// Fold is a projection's state held in memory during a rebuild.
type Fold interface {
	// Add folds one event, in global order.
	Add(ctx context.Context, e Decoded) error
	// Write writes the state folded so far into the projection's tables,
	// which are empty.
	Write(ctx context.Context, tx *sql.Tx) error
}

// PayloadUser is a Fold or a Batcher that uses the payloads of some event
// types only. The events whose payload one of them uses are decoded ahead,
// once for all of them (decodeur): by a rebuild on every core, by the
// read-ahead live runners share (Avance), by a runner that catches up
// alone; all of them when one fold or Batcher is no PayloadUser. One that
// reads the payload of another event decodes it itself (Decoded.Sinon).
type PayloadUser interface {
	// UsesPayload tells whether it reads the payloads of events of type
	// typ. It is called while it folds earlier events.
	UsesPayload(typ string) bool
}

// decodeur is the one way the payloads of the events folded are decoded
// ahead: once each, with registry, for the folds and Batchers in users
// that read it.
type decodeur struct {
	registry *eventstore.Registry
	users    []any
}

// utile tells whether one of d's users reads the payloads of events of
// type typ.
func (d decodeur) utile(typ string) bool {
	for _, u := range d.users {
		if p, ok := u.(PayloadUser); !ok || p.UsesPayload(typ) {
			return true
		}
	}
	return false
}

// completer decodes e when one of d's users reads its payload and nobody
// decoded it yet.
func (d decodeur) completer(e *Decoded) {
	if d.registry != nil && !e.Known && e.Err == nil && d.utile(e.Type) {
		e.decoder(d.registry)
	}
}

// nonDecodes are events, none decoded yet.
func nonDecodes(events []eventstore.Event) []Decoded {
	out := make([]Decoded, len(events))
	for i := range events {
		out[i].Event = &events[i]
	}
	return out
}

// decodesParCoeur is the fewest events decoder hands each core.
const decodesParCoeur = 1024

// decoder decodes, in place, the events of lot whose payload d's users
// read and nobody decoded yet, split between the cores when there are
// many.
func (d decodeur) decoder(lot []Decoded) {
	if d.registry == nil || len(d.users) == 0 {
		return
	}
	parts := min(runtime.GOMAXPROCS(0), len(lot)/decodesParCoeur)
	if parts <= 1 {
		d.decoderTout(lot)
		return
	}
	var wg sync.WaitGroup
	taille := (len(lot) + parts - 1) / parts
	for de := 0; de < len(lot); de += taille {
		wg.Go(func() { d.decoderTout(lot[de:min(de+taille, len(lot))]) })
	}
	wg.Wait()
}

// decoderTout decodes, in place, the events of lot whose payload d's
// users read and nobody decoded yet, asking them once a type.
func (d decodeur) decoderTout(lot []Decoded) {
	utiles := map[string]bool{}
	for i := range lot {
		if lot[i].Known || lot[i].Err != nil {
			continue
		}
		typ := lot[i].Type
		utile, vu := utiles[typ]
		if !vu {
			utile = d.utile(typ)
			utiles[typ] = utile
		}
		if utile {
			lot[i].decoder(d.registry)
		}
	}
}

// Selectif is a projection that reads events of some types only and
// ignores the others. A rebuild hands it those alone: a page holding none
// costs it no transaction, and its checkpoint moves on with the next page
// that holds some, or at the end of the pass.
type Selectif interface {
	Projection
	// Lit tells whether the projection reads events of type typ.
	Lit(typ string) bool
}

// lot is one page of the log, decoded, with the altered event that ends
// the pass when the chain breaks in it.
type lot struct {
	events   []eventstore.Event
	decoded  []Decoded
	tampered error
}

// RebuildAll rebuilds every runner (all on one store) in one pass over the
// log: it resets them, then reads each page of the log once, checks its
// chain once and decodes once with registry each event whose payload a
// fold or a Batcher uses (PayloadUser), in goroutines ahead of the
// runners, for all of them. A Folder's
// runner folds the events in memory and writes its final state at the
// end, in one transaction with its checkpoint; any other runner applies
// each page in one transaction with its checkpoint (a Batcher in one
// ApplyBatch, of the events as decoded). A runner that fails on an
// event stops right before it, as its checkpoint says (a failing fold is
// replayed alone, one event at a time, to get there), and the others go
// on; an altered event stops them all right before it. The errors are
// returned together. An interrupted rebuild leaves each projection at its
// checkpoint (zero for a fold), from which the next CatchUp resumes it.
// The pass is a bulk for every runner (Masse), ended whatever it gave.
// progress, when not nil, is called after each page with the position
// reached and the number of events read.
func RebuildAll(ctx context.Context, store eventstore.Reader, registry *eventstore.Registry, runners []*Runner, progress Progress) (int, error) {
	folds := make([]Fold, len(runners))
	folder := make([]bool, len(runners))
	for i, r := range runners {
		if err := r.reset(ctx); err != nil {
			return 0, err
		}
		if err := r.CommencerMasse(ctx); err != nil {
			return 0, err
		}
		if f, ok := r.proj.(Folder); ok {
			folds[i], folder[i] = f.Fold(), true
		}
	}
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	chained := len(runners) > 0 && runners[0].chained
	// The payloads are decoded once for every fold and every Batcher.
	var users []any
	for i, r := range runners {
		if folder[i] {
			users = append(users, folds[i])
		} else if b, ok := r.proj.(Batcher); ok {
			users = append(users, b)
		}
	}
	lots, readErr := lire(ctx, store, decodeur{registry: registry, users: users}, chained)

	failed := make([]error, len(runners))
	var last *eventstore.Event
	var tampered error
	read := 0
	for l := range lots {
		if len(l.events) > 0 {
			for i, r := range runners {
				if failed[i] != nil {
					continue
				}
				if !folder[i] {
					page := l.decoded
					if s, ok := r.proj.(Selectif); ok {
						page = selection(page, s)
					}
					if len(page) == 0 {
						continue
					}
					if _, failed[i] = r.apply(ctx, page, sansChaine); failed[i] != nil {
						r.applyBefore(ctx, page, failed[i], sansChaine)
					}
					continue
				}
				for _, d := range l.decoded {
					if err := folds[i].Add(ctx, d); err != nil {
						failed[i], folds[i] = &ApplyError{Position: d.Position, Type: d.Type, Err: err}, nil
						break
					}
				}
			}
			last = &l.events[len(l.events)-1]
			read += len(l.events)
			if progress != nil {
				progress(last.Position, read)
			}
		}
		if l.tampered != nil {
			tampered = l.tampered
			break
		}
	}
	cancel()
	for range lots {
	}
	// The folds are written only when the pass read the log to its end or
	// to an altered event: an interrupted rebuild leaves them at zero.
	complete := true
	if err := <-readErr; err != nil && (tampered == nil || !errors.Is(err, context.Canceled)) {
		failed = append(failed, fmt.Errorf("reading the log: %w", err))
		complete = false
	}
	for i, r := range runners {
		switch {
		case !complete || failed[i] != nil && !folder[i]:
		case !folder[i]:
			// A selective projection read the events of its types: its
			// checkpoint moves on to the last event of the pass.
			if _, ok := r.proj.(Selectif); ok && last != nil && r.Position() != last.Position {
				failed[i] = r.write(parent, nil, last)
			}
		case folds[i] != nil:
			failed[i] = r.write(parent, folds[i], last)
		default:
			// The fold failed on an event: replayed alone, one event at a
			// time, the projection stops right before it and names it.
			_, failed[i] = r.CatchUp(parent, nil)
		}
		// The bulk ends whatever the pass gave: the reads are up to date
		// with what the projection folded.
		failed[i] = errors.Join(failed[i], r.FinirMasse(parent))
	}
	if tampered != nil {
		failed = append(failed, tampered)
	}
	return read, errors.Join(failed...)
}

// lotDe checks the chain of page from its event de on with chain (nil: not
// chained), cuts the page before an altered event, and decodes the events
// whose payload a fold or a Batcher uses.
func lotDe(page []eventstore.Event, de int, chain *integrity.ChainLink, d decodeur) lot {
	l := lot{events: page}
	for i := de; chain != nil && i < len(page); i++ {
		if err := chain.Check(page[i]); err != nil {
			l.couper(i, err)
			break
		}
	}
	l.decoded = nonDecodes(l.events)
	if d.registry != nil && len(d.users) > 0 {
		d.decoderTout(l.decoded)
	}
	return l
}

// couper ends l right before its event i, altered: every runner stops
// there.
func (l *lot) couper(i int, err error) {
	e := &l.events[i]
	l.tampered = fmt.Errorf("reading the log: %w", &ApplyError{Position: e.Position, Type: e.Type, Err: err})
	l.events = l.events[:i]
	if l.decoded != nil {
		l.decoded = l.decoded[:i]
	}
}

// logPage is one page of the log (not a slice of a batch, as Tranches
// gets): the events after position after, up to upTo, that a reader reads
// (the last page: up to RebuildPage events), or the page a store read page
// after page already gave (lue).
type logPage struct {
	after, upTo uint64
	derniere    bool
	lue         bool
	page        []eventstore.Event
	lot         lot
	err         error
}

// lire reads the log from the start in pages, checks each page's chain
// (when chained), decodes the events whose payload a fold or a Batcher
// uses, and sends
// the pages on in order (eventstore.InOrder), a page ending at an altered
// event last. A store that reads ranges of its log independently
// (eventstore.Ranges) is cut into pages (Borne) that two to four readers
// read on their own connections; any other is read page after page by one
// goroutine, its pages checked and decoded by the others. The goroutine
// that decodes a page checks the chain inside it; the junction of each
// page with the one before (its first event) is checked in order, so
// every link of the log is.
func lire(ctx context.Context, store eventstore.Reader, d decodeur, chained bool) (<-chan lot, <-chan error) {
	t, enTranches := store.(eventstore.Ranges)
	produire := func(envoyer func(*logPage) bool) error {
		_, err := eventstore.ForEachPage(ctx, store, 0, RebuildPage, func(page []eventstore.Event) error {
			if !envoyer(&logPage{page: page, lue: true}) {
				return ctx.Err()
			}
			return nil
		})
		return err
	}
	if enTranches {
		produire = func(envoyer func(*logPage) bool) error {
			var after uint64
			for {
				upTo, ok, err := t.Bound(ctx, after, RebuildPage)
				tr := &logPage{after: after, upTo: upTo, derniere: !ok || err != nil, err: err}
				if !envoyer(tr) {
					return ctx.Err()
				}
				if tr.derniere {
					return nil
				}
				after = upTo
			}
		}
	}
	logPages, fin := parallel.InOrder(ctx, min(max(runtime.GOMAXPROCS(0), 2), 4), produire, func(tr *logPage) {
		switch {
		case tr.err != nil || tr.lue:
		case tr.derniere:
			tr.page, tr.err = store.ReadAllAfter(ctx, tr.after, RebuildPage)
		default:
			tr.page, tr.err = t.ReadAllUpTo(ctx, tr.after, tr.upTo)
		}
		var chain *integrity.ChainLink
		if chained && len(tr.page) > 0 {
			chain = integrity.NewChainLink(tr.page[0].Hash)
		}
		tr.lot = lotDe(tr.page, 1, chain, d)
	})
	lots := make(chan lot, 2)
	readErr := make(chan error, 1)
	go func() {
		defer close(lots)
		var precedent []byte
		for tr := range logPages {
			if tr.err != nil {
				readErr <- tr.err
				return
			}
			l := tr.lot
			if chained && len(l.events) > 0 {
				if err := integrity.NewChainLink(precedent).Check(l.events[0]); err != nil {
					l.couper(0, err)
				} else {
					precedent = l.events[len(l.events)-1].Hash
				}
			}
			select {
			case lots <- l:
			case <-ctx.Done():
				readErr <- ctx.Err()
				return
			}
			if l.tampered != nil || tr.derniere {
				readErr <- nil
				return
			}
		}
		// The pages ended: the reading's own end, or ctx's.
		err := <-fin
		if err == nil {
			err = ctx.Err()
		}
		readErr <- err
	}()
	return lots, readErr
}

// selection are the events of page that s reads.
func selection(page []Decoded, s Selectif) []Decoded {
	var out []Decoded
	for _, e := range page {
		if s.Lit(e.Type) {
			out = append(out, e)
		}
	}
	return out
}

// write writes a fold's state (none when f is nil) with the checkpoint of
// last, the last event it folded, in one transaction.
func (r *Runner) write(ctx context.Context, f Fold, last *eventstore.Event) error {
	if last == nil {
		return nil
	}
	err := r.inTx(ctx, func(tx *sql.Tx) error {
		if f != nil {
			if err := f.Write(ctx, tx); err != nil {
				return err
			}
		}
		return r.saveCheckpoint(ctx, tx, *last, nil)
	})
	if err != nil {
		r.garderPoint(nil)
		return fmt.Errorf("projection %s: writing its rebuilt state: %w", r.proj.Name(), err)
	}
	r.garderPoint(last)
	r.avancer(last.Position)
	return nil
}
