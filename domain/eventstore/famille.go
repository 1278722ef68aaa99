package eventstore

import (
	"context"
	"errors"
	"fmt"
)

// Lecture is where an aggregate kept across a stream and its sub-streams
// (Sections) was read: how many events each stream held, the last global
// position of the stream and of its sub-streams, and the traces of the
// commands they answered. Its next save appends to one of them and guards
// the others with it; its next load reads on from it (SuiteFamille).
type Lecture struct {
	Stream string
	// Comptes is the number of events read from each stream.
	Comptes map[string]int
	// Principal and SousFlux are the global positions of the last event
	// read from the stream and from its sub-streams (0 for none).
	Principal, SousFlux uint64
	// Traces are shared by the readings that follow this one.
	Traces *Traces
}

// NouvelleLecture is the reading of a stream before any of its events.
func NouvelleLecture(stream string) Lecture {
	return Lecture{Stream: stream, Comptes: map[string]int{}, Traces: NewTraces()}
}

// Version is the number of events read, of every stream.
func (l Lecture) Version() int {
	n := 0
	for _, c := range l.Comptes {
		n += c
	}
	return n
}

// SuiteFamille reads and decodes the events of a stream and its
// sub-streams stored after reading l (NouvelleLecture: all of them), in
// global order, and returns the reading after them; the command envelope of
// ctx is checked over every event, those of l included (its traces), a
// client's version being their number.
func (f Flux) SuiteFamille(ctx context.Context, l Lecture) ([]any, Lecture, error) {
	var recorded []Event
	var err error
	if s, ok := f.Store.(Sections); ok {
		recorded, err = s.ReadSections(ctx, l.Stream, max(l.Principal, l.SousFlux))
	} else {
		recorded, err = readFrom(ctx, f.Store, l.Stream, uint64(l.Comptes[l.Stream]))
	}
	if err != nil {
		return nil, l, err
	}
	apres := l.copie()
	for _, e := range recorded {
		apres.avancer(e.Stream, 1, e.Position)
	}
	apres.Traces.Noter(recorded)
	if err := CommandeDe(ctx).VerifierTraces(l.Stream, apres.Traces, apres.Version()); err != nil {
		return nil, l, err
	}
	payloads, err := f.decoder(recorded)
	if err != nil {
		return nil, l, err
	}
	return payloads, apres, nil
}

// readFrom returns the events of a stream from a revision on.
func readFrom(ctx context.Context, r Reader, stream string, from uint64) ([]Event, error) {
	var all []Event
	for {
		page, err := r.ReadStream(ctx, stream, from, PageSize)
		if err != nil {
			return nil, err
		}
		all = append(all, page...)
		if len(page) < PageSize {
			return all, nil
		}
		from = page[len(page)-1].Revision + 1
	}
}

// copie copies the counts; the traces are shared.
func (l Lecture) copie() Lecture {
	c := l
	c.Comptes = make(map[string]int, len(l.Comptes)+1)
	for s, n := range l.Comptes {
		c.Comptes[s] = n
	}
	return c
}

// avancer counts n more events of stream, the last at position.
func (l *Lecture) avancer(stream string, n int, position uint64) {
	l.Comptes[stream] += n
	if stream == l.Stream {
		l.Principal = position
	} else {
		l.SousFlux = position
	}
}

// EnregistrerSection appends an aggregate's new events to cible, the
// stream read by l or one of its sub-streams, expecting cible to hold what
// l read, and guarding the rest of what l read in the same transaction: a
// sub-stream's append fails if the stream moved, the stream's if any
// sub-stream moved. Writers of different sub-streams never conflict. It
// returns the Lecture after the append. A store without Sections takes
// only appends to the stream itself.
func (f Flux) EnregistrerSection(ctx context.Context, l Lecture, cible string, nouveaux []any, md Metadata) (Lecture, error) {
	if len(nouveaux) == 0 {
		return l, nil
	}
	sections, ok := f.Store.(Sections)
	if !ok && cible != l.Stream {
		return l, newError(CodeInvalidArgument, fmt.Sprintf("this store keeps no sub-stream of %s: %s", l.Stream, cible), nil)
	}
	data, expected, err := f.donnees(ctx, cible, l.Comptes[cible], nouveaux, md)
	if err != nil {
		return l, err
	}
	var res AppendResult
	if ok {
		garde := Garde{Stream: l.Stream, Apres: l.Principal}
		if cible == l.Stream {
			garde = Garde{Stream: l.Stream, SousFlux: true, Apres: l.SousFlux}
		}
		res, err = sections.AppendGuarded(ctx, cible, expected, []Garde{garde}, data...)
	} else {
		res, err = f.Store.Append(ctx, cible, expected, data...)
	}
	if errors.Is(err, ErrConflict) && CommandeDe(ctx).ID != "" {
		return l, f.apresConflit(ctx, l.Stream, err, ReadFamily)
	}
	if err != nil {
		return l, err
	}
	apres := l.copie()
	apres.avancer(cible, len(nouveaux), res.Position)
	return apres, nil
}
