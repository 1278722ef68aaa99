package eventstore

import (
	"context"
	"errors"
	"fmt"
)

// Lecture is where an aggregate kept across a stream and its sub-streams
// (Sections) was read: how many events each stream held and the last
// global position of the stream and of its sub-streams. Its next save
// appends to one of them and guards the others with it.
type Lecture struct {
	Stream string
	// Comptes is the number of events read from each stream.
	Comptes map[string]int
	// Principal and SousFlux are the global positions of the last event
	// read from the stream and from its sub-streams (0 for none).
	Principal, SousFlux uint64
}

// ChargerFamille reads a stream and its sub-streams as one aggregate
// (ReadFamily) and decodes their events in global order; the command
// envelope of ctx is checked over all of them, a client's version being
// their number.
func (f Flux) ChargerFamille(ctx context.Context, stream string) ([]any, Lecture, error) {
	payloads, recorded, err := f.charger(ctx, stream, ReadFamily)
	if err != nil {
		return nil, Lecture{}, err
	}
	l := Lecture{Stream: stream, Comptes: map[string]int{}}
	for _, e := range recorded {
		l.avancer(e.Stream, 1, e.Position)
	}
	return payloads, l, nil
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
	apres := Lecture{Stream: l.Stream, Comptes: make(map[string]int, len(l.Comptes)+1), Principal: l.Principal, SousFlux: l.SousFlux}
	for s, n := range l.Comptes {
		apres.Comptes[s] = n
	}
	apres.avancer(cible, len(nouveaux), res.Position)
	return apres, nil
}
