package repository

import (
	"context"
	"errors"
	"fmt"

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
	// Counts is the number of events read from each stream.
	Counts map[string]int
	// Main and Sections are the global positions of the last event
	// read from the stream and from its sub-streams (0 for none).
	Main, Sections uint64
	// Traces are shared by the readings that follow this one.
	Traces *idempotency.Traces
}

// NewFamilyRead is the reading of a stream before any of its events.
func NewFamilyRead(stream string) FamilyRead {
	return FamilyRead{Stream: stream, Counts: map[string]int{}, Traces: idempotency.NewTraces()}
}

// Version is the number of events read, of every stream.
func (l FamilyRead) Version() int {
	n := 0
	for _, c := range l.Counts {
		n += c
	}
	return n
}

// ReadFamilyFrom reads and decodes the events of a stream and its
// sub-streams stored after reading l (NewFamilyRead: all of them), in
// global order, and returns the reading after them; the command envelope of
// ctx is checked over every event, those of l included (its traces), a
// client's version being their number.
func (f Streams) ReadFamilyFrom(ctx context.Context, l FamilyRead) ([]any, FamilyRead, error) {
	var recorded []eventstore.Event
	var err error
	if s, ok := f.Store.(eventstore.Sections); ok {
		recorded, err = s.ReadSections(ctx, l.Stream, max(l.Main, l.Sections))
	} else {
		recorded, err = eventstore.ReadStreamFrom(ctx, f.Store, l.Stream, uint64(l.Counts[l.Stream]))
	}
	if err != nil {
		return nil, l, err
	}
	apres := l.copie()
	for _, e := range recorded {
		apres.avancer(e.Stream, 1, e.Position)
	}
	apres.Traces.Record(recorded)
	if err := idempotency.CommandFrom(ctx).CheckTraces(l.Stream, apres.Traces, apres.Version()); err != nil {
		return nil, l, err
	}
	payloads, err := f.decoder(recorded)
	if err != nil {
		return nil, l, err
	}
	return payloads, apres, nil
}

// copie copies the counts; the traces are shared.
func (l FamilyRead) copie() FamilyRead {
	c := l
	c.Counts = make(map[string]int, len(l.Counts)+1)
	for s, n := range l.Counts {
		c.Counts[s] = n
	}
	return c
}

// avancer counts n more events of stream, the last at position.
func (l *FamilyRead) avancer(stream string, n int, position uint64) {
	l.Counts[stream] += n
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
	data, expected, err := f.donnees(ctx, cible, l.Counts[cible], nouveaux, md)
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
