package eventstore

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
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
	Registry *Registry
	// Progress, when set, is called after each page read with the number
	// of events checked and the last position reached.
	Progress func(events int, position uint64)
}

// Anchor is a position and hash someone saw in the log: Source says who
// (the seal file, --seal, a projection).
type Anchor struct {
	Source string
	Sceau
}

// Problem is one integrity violation found by Verify.
type Problem struct {
	Position uint64
	Stream   string
	Revision uint64
	Code     Code
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
// integrity violations are in the report.
func Verify(ctx context.Context, r Reader, opts VerifyOptions) (*VerifyReport, error) {
	v := &verifier{report: &VerifyReport{}, next: map[string]uint64{}, opts: opts, chain: NewMaillon(nil), anchors: map[uint64][]Anchor{}}
	for _, a := range opts.Anchors {
		v.anchors[a.Position] = append(v.anchors[a.Position], a)
	}
	report := v.report
	_, err := ForEachPage(ctx, r, 0, PageSize, func(page []Event) error {
		for _, e := range page {
			v.check(e)
			report.Events++
			report.LastPosition = e.Position
			if len(report.Problems) >= maxProblems {
				return errTooManyProblems
			}
		}
		if opts.Progress != nil {
			opts.Progress(report.Events, report.LastPosition)
		}
		return nil
	})
	if err != nil && !errors.Is(err, errTooManyProblems) {
		return report, err
	}
	report.Streams = len(v.next)
	v.truncated()
	return report, nil
}

// errTooManyProblems stops a Verify pass once its report is full.
var errTooManyProblems = errors.New("too many problems")

// verifier is the state of one Verify pass.
type verifier struct {
	report  *VerifyReport
	next    map[string]uint64
	opts    VerifyOptions
	chain   *Maillon
	anchors map[uint64][]Anchor
}

// truncated reports the anchors past the end of the log.
func (v *verifier) truncated() {
	for _, pos := range slices.Sorted(maps.Keys(v.anchors)) {
		for _, a := range v.anchors[pos] {
			v.report.Problems = append(v.report.Problems, Problem{Position: pos, Code: CodeTampered,
				Detail: fmt.Sprintf("%s a vu le journal jusqu'à la position %d, qui n'y est plus (le journal finit à %d) : des événements ont été retirés de la fin, ou une copie plus ancienne du magasin a été restaurée", a.Source, pos, v.report.LastPosition)})
		}
	}
}

func (v *verifier) check(e Event) {
	report, next, opts := v.report, v.next, v.opts
	add := func(code Code, format string, args ...any) {
		if len(report.Problems) < maxProblems {
			report.Problems = append(report.Problems, Problem{Position: e.Position, Stream: e.Stream, Revision: e.Revision, Code: code, Detail: fmt.Sprintf(format, args...)})
		}
	}
	if opts.Chained {
		if err := v.chain.Check(e); err != nil {
			add(CodeTampered, "l'événement ne correspond pas à son empreinte : il a été modifié, ou un événement a été inséré, retiré ou déplacé juste avant lui")
		}
	}
	for _, a := range v.anchors[e.Position] {
		if !bytes.Equal(a.Hash, e.Hash) {
			add(CodeTampered, "%s a vu un autre événement à cette position (empreinte %x) : le journal ne le prolonge plus", a.Source, a.Hash)
		}
	}
	delete(v.anchors, e.Position)
	switch {
	case opts.GaplessPositions && e.Position != report.LastPosition+1:
		add(CodeCorruptStore, "trou dans les positions globales : attendue %d", report.LastPosition+1)
	case e.Position <= report.LastPosition && report.Events > 0:
		add(CodeCorruptStore, "la position globale ne croît plus après %d", report.LastPosition)
	}
	if want := next[e.Stream]; e.Revision != want {
		add(CodeCorruptStore, "trou dans les révisions du flux : attendue la révision %d", want)
	}
	next[e.Stream] = e.Revision + 1
	if etranger(e.Stream, e.Type) {
		add(CodeForeignEvent, "le type %s appartient à un autre genre d'agrégat que le flux %s", e.Type, e.Stream)
	}
	if !json.Valid(e.Data) {
		add(CodeMalformedPayload, "le contenu de %s v%d n'est pas du JSON valide", e.Type, e.Version)
		return
	}
	if opts.Registry != nil {
		if _, err := opts.Registry.Decode(e); err != nil {
			add(CodeOf(err), "%v", err)
		}
	}
}
