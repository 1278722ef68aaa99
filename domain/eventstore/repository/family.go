package repository

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/idempotency"
)

// FamilyRead is where an aggregate kept across a stream and its sub-streams
// (Sections) was read: how many events each stream held, the last global
// position of the stream and of its sub-streams, and the traces of the
// commands they answered. Its next save appends to one of them and guards
// the others with it; its next load reads on from it (ReadFamilyFrom).
type FamilyRead struct {
	Stream string
	// comptes are the numbers of events read from each stream, by stream
	// name. A reading is copied at every read on and every save (copie),
	// and a slice copies at a memmove where a map is built again key by
	// key: a hall's game has its 100 tables' streams, copied three times a
	// bulletin (issue 34). A reading shared (a game's copies) is never
	// written in place.
	comptes []compte
	// Main and Sections are the global positions of the last event
	// read from the stream and from its sub-streams (0 for none).
	Main, Sections uint64
	// Traces are shared by the readings that follow this one.
	Traces *idempotency.Traces
}

// NewFamilyRead is the reading of a stream before any of its events.
func NewFamilyRead(stream string) FamilyRead {
	return FamilyRead{Stream: stream, Traces: idempotency.NewTraces()}
}

// compte is the number of events read from one stream.
type compte struct {
	stream string
	n      int
}

// Version is the number of events read, of every stream.
func (l FamilyRead) Version() int {
	n := 0
	for _, c := range l.comptes {
		n += c.n
	}
	return n
}

// Count is the number of events read from stream.
func (l FamilyRead) Count(stream string) int {
	if i, ok := l.rang(stream); ok {
		return l.comptes[i].n
	}
	return 0
}

// rang is where stream's count is in l.comptes, or would be.
func (l FamilyRead) rang(stream string) (int, bool) {
	return slices.BinarySearchFunc(l.comptes, stream, func(c compte, s string) int { return strings.Compare(c.stream, s) })
}

// Check checks the command envelope of ctx over every event l read (its
// traces), a client's version being their number: ErrAlreadyApplied,
// ErrKeyReused or a *ConflictError (idempotency.Command.CheckTraces). A
// repository checks each command on the reading of the state it hands
// it, which commands that came together share (ReadFamilyFrom checks
// none).
func (l FamilyRead) Check(ctx context.Context) error {
	return idempotency.CommandFrom(ctx).CheckTraces(l.Stream, l.Traces, l.Version())
}

// ReadFamilyFrom reads and decodes the events of a stream and its
// sub-streams stored after reading l (NewFamilyRead: all of them), in
// global order, and returns the reading after them, their commands added
// to the traces (Check).
func (f Streams) ReadFamilyFrom(ctx context.Context, l FamilyRead) ([]any, FamilyRead, error) {
	var recorded []eventstore.Event
	var err error
	if s, ok := f.Store.(eventstore.Sections); ok {
		recorded, err = s.ReadSections(ctx, l.Stream, max(l.Main, l.Sections))
	} else {
		recorded, err = eventstore.ReadStreamFrom(ctx, f.Store, l.Stream, uint64(l.Count(l.Stream)))
	}
	if err != nil {
		return nil, l, err
	}
	apres := l.copie()
	for _, e := range recorded {
		apres.avancer(e.Stream, 1, e.Position)
	}
	apres.Traces.Record(recorded)
	payloads, err := f.decoder(recorded)
	if err != nil {
		return nil, l, err
	}
	return payloads, apres, nil
}

// copie copies the counts, with room for one more stream; the traces are
// shared.
func (l FamilyRead) copie() FamilyRead {
	c := l
	c.comptes = append(make([]compte, 0, len(l.comptes)+1), l.comptes...)
	return c
}

// avancer counts n more events of stream, the last at position; l's
// counts are its own (copie).
func (l *FamilyRead) avancer(stream string, n int, position uint64) {
	if i, ok := l.rang(stream); ok {
		l.comptes[i].n += n
	} else {
		l.comptes = slices.Insert(l.comptes, i, compte{stream: stream, n: n})
	}
	if stream == l.Stream {
		l.Main = position
	} else {
		l.Sections = position
	}
}

// SaveSection appends an aggregate's new events to cible, the
// stream read by l or one of its sub-streams, expecting cible to hold what
// l read, and guarding the rest of what l read in the same transaction: a
// sub-stream's append fails if the stream moved, the stream's if any
// sub-stream moved. Writers of different sub-streams never conflict. It
// returns the FamilyRead after the append. A store without Sections takes
// only appends to the stream itself.
func (f Streams) SaveSection(ctx context.Context, l FamilyRead, cible string, nouveaux []any, md eventstore.Metadata) (FamilyRead, error) {
	if len(nouveaux) == 0 {
		return l, nil
	}
	sections, ok := f.Store.(eventstore.Sections)
	if !ok && cible != l.Stream {
		return l, eventstore.NewError(eventstore.CodeInvalidArgument, fmt.Sprintf("this store keeps no sub-stream of %s: %s", l.Stream, cible), nil)
	}
	data, expected, err := f.donnees(ctx, cible, l.Count(cible), nouveaux, md)
	if err != nil {
		return l, err
	}
	var res eventstore.AppendResult
	if ok {
		garde := eventstore.Guard{Stream: l.Stream, After: l.Main}
		if cible == l.Stream {
			garde = eventstore.Guard{Stream: l.Stream, Sections: true, After: l.Sections}
		}
		res, err = sections.AppendGuarded(ctx, cible, expected, []eventstore.Guard{garde}, data...)
	} else {
		res, err = f.Store.Append(ctx, cible, expected, data...)
	}
	if errors.Is(err, eventstore.ErrConflict) && idempotency.CommandFrom(ctx).ID != "" {
		return l, f.apresConflit(ctx, l.Stream, err, eventstore.ReadFamily)
	}
	if err != nil {
		return l, err
	}
	apres := l.copie()
	apres.avancer(cible, len(nouveaux), res.Position)
	return apres, nil
}
