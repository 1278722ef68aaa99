package acces

import (
	"context"
	"errors"
	"slices"
	"time"

	"arbitre/domain/eventstore"
)

// IntervalleRattrapage is the least time between two catch-ups with the
// store triggered by unknown secrets or ids: a flood of forged tokens costs
// the store one read per interval, and each caller waits at most about two
// intervals.
const IntervalleRattrapage = 50 * time.Millisecond

// source is where a registry reads the log it catches up with.
type source struct {
	store    eventstore.Reader
	registry *eventstore.Registry
}

// Brancher gives reg the log it reads: the registry to decode its events
// with, and the store it catches up with on demand. The server calls it
// before it accepts requests: a token recorded before it started is known
// to the very first request, whether its runner has caught up yet or not.
func Brancher(store eventstore.Reader, registry *eventstore.Registry, reg *Registre) {
	reg.mu.Lock()
	defer reg.mu.Unlock()
	reg.source = &source{store: store, registry: registry}
}

// Name is the access registry's name among the read models.
const Name = "jetons"

// Name is the registry's name among the read models: it is one held in
// memory, which the pipeline feeds live (projection.NewRunnerEnMemoire).
func (r *Registre) Name() string { return Name }

// Apply takes one event of the log with the registry Brancher gave, once
// (see prendre).
func (r *Registre) Apply(_ context.Context, e eventstore.Event) error {
	src, _ := r.suivi()
	if src == nil {
		return errors.New("access registry: no log given (Brancher)")
	}
	return r.prendre(src.registry, e)
}

// prendre applies one event of the log, once: events at or before the
// registry's position were already taken, live or by a catch-up.
//
// An event it cannot decode is skipped and kept in Ecarts, so one bad event
// does not freeze token issue and revocation for every later one.
func (r *Registre) prendre(registry *eventstore.Registry, e eventstore.Event) error {
	var payload any
	var ecart error
	if e.Type == TypeJetonEmis || e.Type == TypeJetonRevoque {
		payload, ecart = registry.Decode(e)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if e.Position <= r.position {
		return nil
	}
	r.position = e.Position
	if ecart != nil {
		r.ecarts = append(r.ecarts, Ecart{Position: e.Position, Erreur: ecart.Error()})
		return nil
	}
	r.appliquer(payload)
	return nil
}

// Ecart is an event of an access stream the registry skipped because it
// could not decode it: the token it issues or revokes is unknown.
type Ecart struct {
	Position uint64
	Erreur   string
}

// Ecarts returns the events the registry skipped, in log order.
func (r *Registre) Ecarts() []Ecart {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return slices.Clone(r.ecarts)
}

// suivi returns the registry's source and position.
func (r *Registre) suivi() (*source, uint64) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.source, r.position
}

// rattraper reads the log from the registry's position to its end. Without
// a source (no Brancher) there is nothing to read.
func (r *Registre) rattraper(ctx context.Context) error {
	src, from := r.suivi()
	if src == nil {
		return nil
	}
	_, err := eventstore.ForEachAfter(ctx, src.store, from, func(e eventstore.Event) error {
		return r.prendre(src.registry, e)
	})
	return err
}

// rattraperBorne catches up for a caller that met an unknown secret or id:
// a catch-up started after the caller arrived already answers it; otherwise
// one starts once IntervalleRattrapage has passed since the previous one.
func (r *Registre) rattraperBorne(ctx context.Context) error {
	if src, _ := r.suivi(); src == nil {
		return nil
	}
	arrivee := time.Now()
	r.rattrapage.Lock()
	defer r.rattrapage.Unlock()
	if r.rattrapage.debut.After(arrivee) {
		return nil
	}
	if attente := time.Until(r.rattrapage.debut.Add(IntervalleRattrapage)); attente > 0 {
		timer := time.NewTimer(attente)
		defer timer.Stop()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-timer.C:
		}
	}
	r.rattrapage.debut = time.Now()
	return r.rattraper(ctx)
}
