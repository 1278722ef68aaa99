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
	tx, err := s.writer.BeginTx(ctx, nil)
	if err != nil {
		return nil, classify("starting a batch of appends", err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	t, err := s.lireTete(ctx, tx)
	if err != nil {
		return nil, err
	}
	res := make([]eventstore.AppendResult, len(ajouts))
	var head integrity.Seal
	for i, a := range ajouts {
		r, h, err := s.appendInTx(ctx, tx, &t, a.Stream, a.Expected, nil, a.Events)
		if err != nil {
			return nil, err
		}
		res[i] = r
		if h != nil {
			head = integrity.Seal{Position: r.Position, Hash: h}
		}
	}
	if head.Hash == nil {
		return res, nil
	}
	if err := tx.Commit(); err != nil {
		return nil, classify("committing a batch of appends", err)
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
