package idempotency

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"arbitre/domain/eventstore"
)

// Command is what a client says about the command it sends, carried in the
// context from the API to the repositories: its id makes a retry harmless,
// its version makes a stale write fail.
//
// The idempotency key is (Author, ID): the same id sent by another actor is
// another command. Under one key, the events remember the request they
// answered (Request, a fingerprint of the mutation and its arguments): a
// retry carries the same and is not applied again, any other request with
// a used key is refused (ErrKeyReused), never reported as done.
type Command struct {
	// ID is the client's mutation id. The events a command causes carry it
	// as their CausationID.
	ID string
	// Version, when set, is the number of events of the stream the client
	// saw when it decided to send the command.
	Version *int
	// Author is the actor the events are recorded for (Metadata.Actor):
	// the scope of ID.
	Author string
	// Request fingerprints the request (mutation name and arguments), and
	// is recorded in the events' metadata.
	Request string
}

type commandeKey struct{}

// WithCommand attaches a command envelope to ctx.
func WithCommand(ctx context.Context, c Command) context.Context {
	return context.WithValue(ctx, commandeKey{}, c)
}

// WithNoCommand drops the command envelope from ctx: a read loads the
// state as stored, never checked against a command.
func WithNoCommand(ctx context.Context) context.Context {
	return WithCommand(ctx, Command{})
}

// CommandFrom returns the command envelope of ctx (zero without one).
func CommandFrom(ctx context.Context) Command {
	c, _ := ctx.Value(commandeKey{}).(Command)
	return c
}

// ErrAlreadyApplied reports that the command was applied before: the caller
// answers with the current state, as for a first success.
var ErrAlreadyApplied = errors.New("command already applied")

// ErrKeyReused reports a command id its author already used for
// another request: nothing is applied, nothing is answered as done. A
// store that binds keys in its appends (eventstore.BoundKeys) refuses
// with this very error.
var ErrKeyReused error = eventstore.ErrKeyReused

// Check checks a stream loaded for the command: ErrAlreadyApplied when one
// of its events was caused by the same request under the same key,
// ErrKeyReused when by another request under that key, a
// *ConflictError when the client's version is not the stream's event count.
// Events recorded before requests were fingerprinted (no Request) match any
// request of their key.
func (c Command) Check(stream string, events []eventstore.Event) error {
	t := NewTraces()
	if c.ID != "" {
		t.Record(events)
	}
	return c.CheckTraces(stream, t, len(events))
}

// Traces index the commands a stream's events answered: for each actor and
// command id, the request of its first event. A repository that keeps an
// aggregate in memory keeps its traces with it, and checks the commands it
// loads the aggregate for over them (CheckTraces) without reading the
// whole stream again. They only grow, and are safe for concurrent use.
type Traces struct {
	mu sync.RWMutex
	m  map[[2]string]string
}

// NewTraces returns empty traces.
func NewTraces() *Traces { return &Traces{m: map[[2]string]string{}} }

// Record adds events to the traces.
func (t *Traces) Record(events []eventstore.Event) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, e := range events {
		md := e.Metadata
		if md.CausationID == "" {
			continue
		}
		if _, ok := t.m[[2]string{md.Actor, md.CausationID}]; !ok {
			t.m[[2]string{md.Actor, md.CausationID}] = md.Request
		}
	}
}

func (t *Traces) requete(auteur, id string) (string, bool) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	r, ok := t.m[[2]string{auteur, id}]
	return r, ok
}

// CheckTraces is Check over the traces of a stream of n events.
func (c Command) CheckTraces(stream string, t *Traces, n int) error {
	if c.ID != "" {
		if requete, ok := t.requete(c.Author, c.ID); ok {
			if requete != "" && requete != c.Request {
				return ErrKeyReused
			}
			return ErrAlreadyApplied
		}
	}
	return c.CheckVersion(stream, n)
}

// CheckVersion checks the client's version alone against a stream of n
// events: a *ConflictError when it is set and not n. A repository that
// finds an aggregate's stream among several (an appeal filed under its old
// global id) checks the command's id on each and its version on the one
// it keeps.
func (c Command) CheckVersion(stream string, n int) error {
	if c.Version != nil && *c.Version != n {
		expected := eventstore.NoStream
		if *c.Version > 0 {
			expected = eventstore.Exact(uint64(*c.Version - 1))
		}
		conflict := &eventstore.ConflictError{Stream: stream, Expected: expected, StreamExists: n > 0}
		if n > 0 {
			conflict.Current = uint64(n - 1)
		}
		return conflict
	}
	return nil
}

// Metadata returns md with the command id as causation and the request's
// fingerprint when md has none.
func (c Command) Metadata(md eventstore.Metadata) eventstore.Metadata {
	if md.CausationID == "" {
		md.CausationID = c.ID
	}
	if md.Request == "" {
		md.Request = c.Request
	}
	return md
}

// VersionOf renders a conflict's current state as the event count clients
// use for versions.
func VersionOf(err error) (int, bool) {
	var conflict *eventstore.ConflictError
	if !errors.As(err, &conflict) {
		return 0, false
	}
	if !conflict.StreamExists {
		return 0, true
	}
	return int(conflict.Current) + 1, true
}

// String describes the envelope for logs.
func (c Command) String() string {
	if c.Version == nil {
		return fmt.Sprintf("commande %q", c.ID)
	}
	return fmt.Sprintf("commande %q at version %d", c.ID, *c.Version)
}
