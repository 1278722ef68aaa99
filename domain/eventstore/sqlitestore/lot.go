package sqlitestore

import (
	"context"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/integrity"
)

var _ eventstore.Batches = (*Store)(nil)

// AppendBatch implements eventstore.Batches: every part goes through the checks
// of an append (its expectation, an idempotent retry, the hash chain) in one
// write transaction, committed once. A part that is an idempotent retry
// writes nothing and returns its original result, as Append does.
func (s *Store) AppendBatch(ctx context.Context, ajouts []eventstore.BatchPart) ([]eventstore.AppendResult, error) {
	for _, a := range ajouts {
		if err := eventstore.ValidateAppend(a.Stream, a.Events); err != nil {
			return nil, err
		}
	}
	if len(ajouts) == 0 {
		return nil, nil
	}
	if err := s.Rupture(); err != nil {
		return nil, err
	}
	s.writeLock.Lock()
	defer s.writeLock.Unlock()
	if s.isClosed() {
		return nil, eventstore.ErrClosed
	}
	res := make([]eventstore.AppendResult, len(ajouts))
	var t tete
	var head integrity.Seal
	err := s.transaction(ctx, "a batch of appends", func(w *ecrivain) (bool, error) {
		var err error
		if t, err = w.lireTete(); err != nil {
			return false, err
		}
		for i, a := range ajouts {
			r, h, err := s.appendInTx(w, &t, a.Stream, a.Expected, nil, a.Events)
			if err != nil {
				return false, err
			}
			res[i] = r
			if h != nil {
				head = integrity.Seal{Position: r.Position, Hash: h}
			}
		}
		return head.Hash != nil, nil
	})
	if err != nil {
		return nil, err
	}
	if head.Hash == nil {
		return res, nil
	}
	s.cles.apresCommit(t)
	s.committed(head)
	return res, nil
}

// committed tells the subscribers that the log grew and hands its new
// head to the seal writer, which takes the newest one (one still waiting
// is replaced).
func (s *Store) committed(head integrity.Seal) {
	s.changes.broadcast()
	select {
	case <-s.sealed:
	default:
	}
	s.sealed <- head
}
