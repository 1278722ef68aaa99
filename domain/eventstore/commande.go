package eventstore

import (
	"context"
	"errors"
	"fmt"
)

// Commande is what a client says about the command it sends, carried in the
// context from the API to the repositories: its id makes a retry harmless,
// its version makes a stale write fail.
type Commande struct {
	// ID is the client's mutation id. The events a command causes carry it
	// as their CausationID; a command whose id is already among the
	// stream's causes has been applied and is not applied again.
	ID string
	// Version, when set, is the number of events of the stream the client
	// saw when it decided to send the command.
	Version *int
}

type commandeKey struct{}

// AvecCommande attaches a command envelope to ctx.
func AvecCommande(ctx context.Context, c Commande) context.Context {
	return context.WithValue(ctx, commandeKey{}, c)
}

// CommandeDe returns the command envelope of ctx (zero without one).
func CommandeDe(ctx context.Context) Commande {
	c, _ := ctx.Value(commandeKey{}).(Commande)
	return c
}

// ErrDejaTraitee reports that the command was applied before: the caller
// answers with the current state, as for a first success.
var ErrDejaTraitee = errors.New("command already applied")

// Verifier checks a stream loaded for the command: ErrDejaTraitee when one
// of its events was caused by the same command id, a *ConflictError when the
// client's version is not the stream's event count.
func (c Commande) Verifier(stream string, events []Event) error {
	if c.ID != "" {
		for _, e := range events {
			if e.Metadata.CausationID == c.ID {
				return ErrDejaTraitee
			}
		}
	}
	if c.Version != nil && *c.Version != len(events) {
		expected := NoStream
		if *c.Version > 0 {
			expected = Exact(uint64(*c.Version - 1))
		}
		conflict := &ConflictError{Stream: stream, Expected: expected, StreamExists: len(events) > 0}
		if len(events) > 0 {
			conflict.Current = events[len(events)-1].Revision
		}
		return conflict
	}
	return nil
}

// Metadata returns md with the command id as causation when md has none.
func (c Commande) Metadata(md Metadata) Metadata {
	if md.CausationID == "" {
		md.CausationID = c.ID
	}
	return md
}

// VersionOf renders a conflict's current state as the event count clients
// use for versions.
func VersionOf(err error) (int, bool) {
	var conflict *ConflictError
	if !errors.As(err, &conflict) {
		return 0, false
	}
	if !conflict.StreamExists {
		return 0, true
	}
	return int(conflict.Current) + 1, true
}

// String describes the envelope for logs.
func (c Commande) String() string {
	if c.Version == nil {
		return fmt.Sprintf("commande %q", c.ID)
	}
	return fmt.Sprintf("commande %q at version %d", c.ID, *c.Version)
}
