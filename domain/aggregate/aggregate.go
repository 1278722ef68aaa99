// Package aggregate is the base every event-sourced aggregate of the domain
// embeds (docs/architecture.md, « The aggregate idiom »): it counts the
// events the aggregate holds, keeps those recorded and not saved, and
// records a command's events all or nothing. The aggregate itself only
// writes its transition, which checks an event against the state before
// changing anything, and a copy of itself.
package aggregate

import "slices"

// Base is the bookkeeping an aggregate embeds. It satisfies, with the
// aggregate's Apply, the repository's eventstore.Aggregate.
type Base struct {
	version  int
	nouveaux []any
}

// Version is the number of events the aggregate holds, saved or not.
func (b *Base) Version() int { return b.version }

// Pending are the events recorded and not saved yet; reading them forgets
// nothing (MarkSaved does).
func (b *Base) Pending() []any { return b.nouveaux }

// MarkSaved tells the aggregate its new events are stored: they are no longer
// new. Only the repository calls it.
func (b *Base) MarkSaved() { b.nouveaux = nil }

func (b *Base) base() *Base { return b }

// Apply runs an aggregate's transition over one event and counts the
// event when the transition takes it. Every aggregate's Apply, the one
// transition shared by commands and replay, is this call over its own
// transition, which refuses an event that does not fit changing nothing.
func Apply(b *Base, transition func(e any) error, e any) error {
	if err := transition(e); err != nil {
		return err
	}
	b.version++
	return nil
}

// Aggregate is what the base needs of an aggregate *A: Apply (see
// Apply) and Copie, a copy that shares nothing a transition changes.
type Aggregate[A any] interface {
	*A
	Apply(e any) error
	Copie() *A
	base() *Base
}

// Record applies a command's events and keeps them for saving, all or
// nothing. One event is applied in place: Apply refuses it changing
// nothing. Several are decided on a copy (Decide) that becomes the
// aggregate only when every one applied.
func Record[A any, P Aggregate[A]](a P, events ...any) error {
	if len(events) > 1 {
		return Decide(a, func(c P) error {
			for _, e := range events {
				if err := Record(c, e); err != nil {
					return err
				}
			}
			return nil
		})
	}
	b := a.base()
	for _, e := range events {
		if err := a.Apply(e); err != nil {
			return err
		}
		// Clipped: an aggregate and its copies never append into the
		// same array.
		b.nouveaux = append(slices.Clip(b.nouveaux), e)
	}
	return nil
}

// Decide runs a command on a copy of the aggregate and makes the copy the
// aggregate only when the command succeeds: a command whose later events
// depend on the state its earlier ones leave records them one by one on
// the copy, and a refusal midway leaves the aggregate as it was.
func Decide[A any, P Aggregate[A]](a P, commande func(P) error) error {
	c := P(a.Copie())
	if err := commande(c); err != nil {
		return err
	}
	*a = *c
	return nil
}
