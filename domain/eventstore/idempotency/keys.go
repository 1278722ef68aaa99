package idempotency

import (
	"context"
	"sync"

	"arbitre/domain/eventstore"
)

// Keys indexes the idempotency keys of the whole log: for each (actor,
// client id), the fingerprint of the request the key first served. A
// stream's own events tell a retry on that stream (Command.Check); the
// index refuses a key reused for another request on any other stream.
//
// The index catches up with the log before each check, so a command that
// returned is seen by the next one. Two commands sent at the same instant
// under one key to two different streams are not told apart.
//
// Over a store that binds keys (eventstore.BoundKeys: the SQLite store),
// the index keeps and reads nothing: a check is the store's lookup (in
// memory), and the append refuses a key reused by a command sent at the
// same instant in its own transaction (issue 34).
type Keys struct {
	reader eventstore.Reader
	// magasin is reader when the store binds keys itself (its keys are
	// looked up there), nil otherwise.
	magasin eventstore.BoundKeys

	mu       sync.Mutex
	lus      uint64 // global position of the last event read
	requetes map[cle]string
}

type cle struct{ auteur, id string }

// NewKeys is an index of the keys of the log read through reader.
func NewKeys(reader eventstore.Reader) *Keys {
	magasin, _ := reader.(eventstore.BoundKeys)
	return &Keys{reader: reader, magasin: magasin, requetes: map[cle]string{}}
}

// Check returns ErrKeyReused when c's key served another request
// anywhere in the log. A nil index, a command without an id or an event
// recorded before requests were fingerprinted refuse nothing.
func (k *Keys) Check(ctx context.Context, c Command) error {
	if k == nil || c.ID == "" || c.Request == "" {
		return nil
	}
	if k.magasin != nil {
		reused, err := k.magasin.KeyReused(ctx, c.Author, c.ID, c.Request)
		if reused {
			return ErrKeyReused
		}
		return err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if err := k.rattraper(ctx); err != nil {
		return err
	}
	if r, ok := k.requetes[cle{c.Author, c.ID}]; ok && r != c.Request {
		return ErrKeyReused
	}
	return nil
}

// CatchUp reads the log up to its end (serve calls it at start, so that
// the first command does not wait for the whole log); over a store that
// binds keys, the store reads its keys (eventstore.BoundKeys.LoadKeys).
func (k *Keys) CatchUp(ctx context.Context) error {
	if k.magasin != nil {
		return k.magasin.LoadKeys(ctx)
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.rattraper(ctx)
}

func (k *Keys) rattraper(ctx context.Context) error {
	lus, err := eventstore.ForEachAfter(ctx, k.reader, k.lus, func(e eventstore.Event) error {
		md := e.Metadata
		key := cle{md.Actor, md.CausationID}
		if _, seen := k.requetes[key]; !seen && md.CausationID != "" && md.Request != "" {
			k.requetes[key] = md.Request
		}
		return nil
	})
	k.lus = lus
	return err
}
