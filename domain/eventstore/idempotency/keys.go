package idempotency

import (
	"context"
	"sync/atomic"

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
// A check that waited for the index while others caught up reads the log
// only if none of those catch-ups began after it arrived: one that did
// read every command acknowledged before it arrived (issue 34: a hall's
// hundred arbiters send their bulletins at once, and each read the log).
type Keys struct {
	reader eventstore.Reader

	// verrou holds the index (a channel: a check that waits for it gives
	// up with its context); debuts counts the catch-ups begun, and fait
	// is the number of the last one that read to the end of the log.
	verrou   chan struct{}
	debuts   atomic.Uint64
	fait     uint64
	lus      uint64 // global position of the last event read
	requetes map[cle]string
}

type cle struct{ auteur, id string }

// NewKeys is an index of the keys of the log read through reader.
func NewKeys(reader eventstore.Reader) *Keys {
	return &Keys{reader: reader, verrou: make(chan struct{}, 1), requetes: map[cle]string{}}
}

// Check returns ErrKeyReused when c's key served another request
// anywhere in the log. A nil index, a command without an id or an event
// recorded before requests were fingerprinted refuse nothing.
func (k *Keys) Check(ctx context.Context, c Command) error {
	if k == nil || c.ID == "" || c.Request == "" {
		return nil
	}
	arrivee := k.debuts.Load()
	if err := k.prendre(ctx); err != nil {
		return err
	}
	defer k.rendre()
	if k.fait <= arrivee {
		if err := k.rattraper(ctx); err != nil {
			return err
		}
	}
	if r, ok := k.requetes[cle{c.Author, c.ID}]; ok && r != c.Request {
		return ErrKeyReused
	}
	return nil
}

// CatchUp reads the log up to its end (serve calls it at start, so that
// the first command does not wait for the whole log).
func (k *Keys) CatchUp(ctx context.Context) error {
	if err := k.prendre(ctx); err != nil {
		return err
	}
	defer k.rendre()
	return k.rattraper(ctx)
}

func (k *Keys) prendre(ctx context.Context) error {
	select {
	case k.verrou <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (k *Keys) rendre() { <-k.verrou }

// rattraper reads the log after the last event read; under verrou.
func (k *Keys) rattraper(ctx context.Context) error {
	n := k.debuts.Add(1)
	lus, err := eventstore.ForEachAfter(ctx, k.reader, k.lus, func(e eventstore.Event) error {
		md := e.Metadata
		key := cle{md.Actor, md.CausationID}
		if _, seen := k.requetes[key]; !seen && md.CausationID != "" && md.Request != "" {
			k.requetes[key] = md.Request
		}
		return nil
	})
	k.lus = lus
	if err == nil {
		k.fait = n
	}
	return err
}
