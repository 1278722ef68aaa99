package integrity

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"runtime"
	"slices"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/parallel"
	"arbitre/domain/eventstore/streamname"
)

// VerifyOptions says what Verify checks beyond ordering and contiguity.
type VerifyOptions struct {
	// GaplessPositions requires global positions 1, 2, 3... (SQLite backend).
	GaplessPositions bool
	// Chained requires every event to be chained to the previous one
	// (Event.Hash, SQLite backend): a modified, inserted, deleted, moved or
	// swapped event breaks the chain where it happened.
	Chained bool
	// Anchors are heads the log must still extend: the seal file, a seal
	// written on a results sheet, the projections' checkpoints.
	Anchors []Anchor
	// Registry, when set, requires every event to have a known type and a
	// supported version and to decode into its Go type. Without it, Verify
	// checks only that payloads are JSON.
	Registry *eventstore.Registry
	// Progress, when set, is called after each page read with the number
	// of events checked and the last position reached.
	Progress func(events int, position uint64)
}

// Anchor is a position and hash someone saw in the log: Source says who
// (the seal file, --seal, a projection).
type Anchor struct {
	Source string
	Seal
}

// Problem is one integrity violation found by Verify.
type Problem struct {
	Position uint64
	Stream   string
	Revision uint64
	Code     eventstore.Code
	Detail   string
}

func (p Problem) String() string {
	return fmt.Sprintf("position %d (%s@%d): %s: %s", p.Position, p.Stream, p.Revision, p.Code, p.Detail)
}

// VerifyReport is the result of Verify.
type VerifyReport struct {
	Events       int
	Streams      int
	LastPosition uint64
	Problems     []Problem
}

// OK reports whether no problem was found.
func (r *VerifyReport) OK() bool { return len(r.Problems) == 0 }

// maxProblems bounds the report so a badly damaged store still gives a
// readable answer.
const maxProblems = 1000

// Verify reads the whole global log and checks that positions increase (and
// are gapless when asked), that each stream's revisions are contiguous from
// 0, that each event belongs to its stream's kind of aggregate, and that
// every payload decodes. The returned error is about reading;
// integrity violations are in the report. The pages are read in turn and
// checked on every core (the chain, the JSON, the decoding: what an event
// shows without the events before it), then taken in order.
func Verify(ctx context.Context, r eventstore.Reader, opts VerifyOptions) (*VerifyReport, error) {
	v := &verifier{report: &VerifyReport{}, next: map[string]uint64{}, opts: opts, anchors: map[uint64][]Anchor{}}
	for _, a := range opts.Anchors {
		v.anchors[a.Position] = append(v.anchors[a.Position], a)
	}
	report := v.report
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	pages, fin := v.constater(ctx, r)
	err := v.suivre(ctx, pages)
	cancel()
	for range pages {
	}
	if readErr := <-fin; err == nil && !errors.Is(readErr, context.Canceled) {
		err = readErr
	}
	if err != nil && !errors.Is(err, errTooManyProblems) {
		return report, err
	}
	report.Streams = len(v.next)
	v.truncated()
	return report, nil
}

// suivre takes the checked pages in order.
func (v *verifier) suivre(ctx context.Context, pages <-chan *verifiee) error {
	report := v.report
	for p := range pages {
		for i, e := range p.events {
			v.check(e, p.constats[i])
			report.Events++
			report.LastPosition = e.Position
			if len(report.Problems) >= maxProblems {
				return errTooManyProblems
			}
		}
		if v.opts.Progress != nil {
			v.opts.Progress(report.Events, report.LastPosition)
		}
	}
	return ctx.Err()
}

// verifiee is one page of the log and what its events show on their own.
type verifiee struct {
	events []eventstore.Event
	// precedent is the hash stored with the event before the page.
	precedent []byte
	constats  []constat
}

// constat is what one event shows without the events before it: its chain
// needs only the hash stored with the event before it.
type constat struct {
	chaineRompue bool
	jsonInvalide bool
	decodage     error
}

// constater reads the log page after page in one goroutine and checks the
// pages in one more per core (InOrder); the pages come in order, the
// error that ended the reading after them.
func (v *verifier) constater(ctx context.Context, r eventstore.Reader) (pages <-chan *verifiee, fin <-chan error) {
	return parallel.InOrder(ctx, runtime.GOMAXPROCS(0), func(envoyer func(*verifiee) bool) error {
		var precedent []byte
		_, err := eventstore.ForEachPage(ctx, r, 0, eventstore.PageSize, func(page []eventstore.Event) error {
			p := &verifiee{events: page, precedent: precedent}
			precedent = page[len(page)-1].Hash
			if !envoyer(p) {
				return ctx.Err()
			}
			return nil
		})
		return err
	}, func(p *verifiee) { p.constats = v.constatsDe(p) })
}

func (v *verifier) constatsDe(p *verifiee) []constat {
	out := make([]constat, len(p.events))
	chain := NewChainLink(p.precedent)
	for i, e := range p.events {
		c := &out[i]
		if v.opts.Chained {
			c.chaineRompue = chain.Check(e) != nil
		}
		if !json.Valid(e.Data) {
			c.jsonInvalide = true
			continue
		}
		if v.opts.Registry != nil {
			_, c.decodage = v.opts.Registry.Decode(e)
		}
	}
	return out
}

// errTooManyProblems stops a Verify pass once its report is full.
var errTooManyProblems = errors.New("too many problems")

// verifier is the state of one Verify pass.
type verifier struct {
	report  *VerifyReport
	next    map[string]uint64
	opts    VerifyOptions
	anchors map[uint64][]Anchor
}

// truncated reports the anchors past the end of the log.
func (v *verifier) truncated() {
	for _, pos := range slices.Sorted(maps.Keys(v.anchors)) {
		for _, a := range v.anchors[pos] {
			v.report.Problems = append(v.report.Problems, Problem{Position: pos, Code: eventstore.CodeTampered,
				Detail: fmt.Sprintf("%s a vu le journal jusqu'à la position %d, qui n'y est plus (le journal finit à %d) : des événements ont été retirés de la fin, ou une copie plus ancienne du magasin a été restaurée", a.Source, pos, v.report.LastPosition)})
		}
	}
}

func (v *verifier) check(e eventstore.Event, c constat) {
	report, next, opts := v.report, v.next, v.opts
	add := func(code eventstore.Code, format string, args ...any) {
		if len(report.Problems) < maxProblems {
			report.Problems = append(report.Problems, Problem{Position: e.Position, Stream: e.Stream, Revision: e.Revision, Code: code, Detail: fmt.Sprintf(format, args...)})
		}
	}
	if c.chaineRompue {
		add(eventstore.CodeTampered, "l'événement ne correspond pas à son empreinte : il a été modifié, ou un événement a été inséré, retiré ou déplacé juste avant lui")
	}
	for _, a := range v.anchors[e.Position] {
		if !bytes.Equal(a.Hash, e.Hash) {
			add(eventstore.CodeTampered, "%s a vu un autre événement à cette position (empreinte %x) : le journal ne le prolonge plus", a.Source, a.Hash)
		}
	}
	delete(v.anchors, e.Position)
	switch {
	case opts.GaplessPositions && e.Position != report.LastPosition+1:
		add(eventstore.CodeCorruptStore, "trou dans les positions globales : attendue %d", report.LastPosition+1)
	case e.Position <= report.LastPosition && report.Events > 0:
		add(eventstore.CodeCorruptStore, "la position globale ne croît plus après %d", report.LastPosition)
	}
	if want := next[e.Stream]; e.Revision != want {
		add(eventstore.CodeCorruptStore, "trou dans les révisions du flux : attendue la révision %d", want)
	}
	next[e.Stream] = e.Revision + 1
	if streamname.Foreign(e.Stream, e.Type) {
		add(eventstore.CodeForeignEvent, "le type %s appartient à un autre genre d'agrégat que le flux %s", e.Type, e.Stream)
	}
	if c.jsonInvalide {
		add(eventstore.CodeMalformedPayload, "le contenu de %s v%d n'est pas du JSON valide", e.Type, e.Version)
		return
	}
	if c.decodage != nil {
		add(eventstore.CodeOf(c.decodage), "%v", c.decodage)
	}
}
