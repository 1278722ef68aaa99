package projection

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"arbitre/domain/eventstore"

	"arbitre/projections/feed"
)

// Recevoir is the runner's share of a message the pipeline delivers (its
// one watermill handler hands each message to every runner). A message at
// or before the checkpoint is a duplicate and is acknowledged; a message
// whose previous position is after the checkpoint reveals lost messages, so
// the runner catches up from the store (which includes this event);
// otherwise the events stored from the message's position on, up to a
// page, are applied (suivre): the stored event at its position, not the
// message's, which must be that event (conforme; a message that is not
// stops the runner right before it, as an altered stored event does),
// read with the events after it once for every runner and their payloads
// decoded once (Avance). An error nacks the message for redelivery. A
// parked projection acknowledges every message without applying it: when
// it resumes (Reprendre, which the handler waits for), it reads them from
// the store.
func (r *Runner) Recevoir(ctx context.Context, l *feed.Livraison) error {
	r.applique.Lock()
	defer r.applique.Unlock()
	if r.Arret() != nil {
		return nil
	}
	// The checkpoint as of the last commit, or the one reached past it
	// (passer), kept in memory: a burst's duplicates cost no query, and
	// are not decoded (issue 34: every read model decoded every message of
	// a burst it had read ahead). The batch checks it at its write
	// (saveCheckpoint).
	checkpoint := r.Position()
	switch {
	case l.Position <= checkpoint:
		return nil
	case l.Previous > checkpoint:
		_, err := r.CatchUp(ctx, nil)
		return err
	}
	lot, err := r.stockesDepuis(ctx, l)
	if err != nil {
		return err
	}
	return r.suivre(ctx, lot)
}

// stockesDepuis returns the events stored from l's position on, up to a
// page, the first of them checked to be l's event (conforme): through the
// read-ahead the runner shares, or read alone, the message's event then
// standing for the stored one it was found equal to (every read model
// behind the message is handed that one decoding, feed.Livraison).
func (r *Runner) stockesDepuis(ctx context.Context, l *feed.Livraison) ([]Decoded, error) {
	if r.Avance != nil {
		return r.Avance.lire(ctx, l, r.page, r.decodeur())
	}
	page, err := r.store.ReadAllAfter(ctx, l.Previous, r.page)
	if err != nil {
		return nil, err
	}
	lot := nonDecodes(page)
	if err := conforme(l, lot); err != nil {
		return nil, err
	}
	lot[0].Event, _ = l.Event()
	return lot, nil
}

// conforme tells why l is not the first of stockes, the events stored
// after its previous position: a message whose event differs from the
// stored one at its position (another Pub/Sub than the in-process
// gochannel could alter it, hash included) is refused as tampered, for
// the event at its position, so that the runners stop right before it;
// a store that holds no event at its position yet is an error to retry.
func conforme(l *feed.Livraison, stockes []Decoded) error {
	e, err := l.Event()
	if err != nil {
		return err
	}
	if len(stockes) == 0 {
		return fmt.Errorf("the store holds no event after position %d, where message %d comes", l.Previous, l.Position)
	}
	if s := stockes[0].Event; s.Position != l.Position || !memeEvenement(e, s) {
		return &ApplyError{Position: l.Position, Type: e.Type, Err: eventstore.NewError(eventstore.CodeTampered,
			fmt.Sprintf("le message de l'événement à la position %d n'est pas l'événement que le magasin tient après la position %d (position %d) : le message a été altéré en route", l.Position, l.Previous, s.Position), nil)}
	}
	return nil
}

// memeEvenement tells whether m, an event read from a message, is s, the
// stored one: the message's JSON keeps every field but the payload's
// layout (compacted) and the record time's monotonic reading.
func memeEvenement(m, s *eventstore.Event) bool {
	mm, sm := m.Metadata, s.Metadata
	mm.RecordedAt, sm.RecordedAt = time.Time{}, time.Time{}
	return m.ID == s.ID && m.Stream == s.Stream && m.Revision == s.Revision && m.Position == s.Position &&
		m.Type == s.Type && m.Version == s.Version && bytes.Equal(m.Hash, s.Hash) &&
		mm == sm && m.Metadata.RecordedAt.Equal(s.Metadata.RecordedAt) && memeJSON(m.Data, s.Data)
}

// memeJSON tells whether a and b are the same JSON but for their layout.
func memeJSON(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	var ca, cb bytes.Buffer
	return json.Compact(&ca, a) == nil && json.Compact(&cb, b) == nil && bytes.Equal(ca.Bytes(), cb.Bytes())
}

// suivre applies lot, an event and the events the store holds after it,
// in one transaction: when fifty arbiters enter a coup's bulletins at
// once, a projection folds the burst once (a Batcher writes each row
// once) instead of once per bulletin, and the messages of the events it
// read ahead are then duplicates (issue 17). An event that fails further
// on does not hold the first back: the events before it are applied, and
// it fails on its own message, so the projection parks right before it.
// A projection that reads none of them passes them without a transaction
// (passer). The batch, a page of events at most, runs to its end under a
// context that cannot be cancelled: the SQLite driver (modernc) starts a
// goroutine for every statement run under one that can, to interrupt it
// (issue 34: 21 of the 33 goroutines started per bulletin by
// BenchmarkIssue34_SalleNeufLectures); a stop waits for the batch.
func (r *Runner) suivre(ctx context.Context, lot []Decoded) error {
	if r.passer(lot) {
		return nil
	}
	ctx = context.WithoutCancel(ctx)
	_, err := r.apply(ctx, lot, r.controlePropre())
	var applyErr *ApplyError
	if err == nil || len(lot) == 1 || errors.As(err, &applyErr) && applyErr.Position == lot[0].Position {
		return err
	}
	if r.applyBefore(ctx, lot, err, r.controlePropre()) > 0 {
		return nil
	}
	_, err = r.apply(ctx, lot[:1], r.controlePropre())
	return err
}
