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

// Lecture brings the registry up to the head of the log: its runner
// (projection.Runner), which catches it up the way it catches up every
// read model, at most once per interval for the reads a stranger can
// trigger at will.
type Lecture interface {
	Rattraper(ctx context.Context) error
	RattraperBorne(ctx context.Context, intervalle time.Duration) error
}

// Brancher gives reg the registry to decode the log's events with and the
// runner that follows the log for it. The server calls it before it
// accepts requests: a token recorded before it started is known to the
// very first request, whether its runner has caught up yet or not.
func Brancher(registry *eventstore.Registry, lecture Lecture, reg *Registre) {
	reg.mu.Lock()
	defer reg.mu.Unlock()
	reg.registry, reg.lecture = registry, lecture
}

// Name is the access registry's name among the read models.
const Name = "jetons"

// Name is the registry's name among the read models: it is one held in
// memory, which the pipeline feeds live (projection.NewRunnerEnMemoire).
func (r *Registre) Name() string { return Name }

// Lit tells whether the registry reads events of type typ: a token's issue
// or revocation (projection.Selectif). Its runner passes a live batch
// holding none, such as the hall's bulletins, without a transaction.
func (*Registre) Lit(typ string) bool { return typ == TypeJetonEmis || typ == TypeJetonRevoque }

// Apply takes one event of the log with the registry Brancher gave, once
// (see prendre).
func (r *Registre) Apply(_ context.Context, e eventstore.Event) error {
	registry, _ := r.branche()
	if registry == nil {
		return errors.New("access registry: no log given (Brancher)")
	}
	return r.prendre(registry, e)
}

// prendre applies one event of the log, once: events at or before the
// registry's position were already taken, live or by a catch-up. Events of
// a type it does not read (Lit) are skipped: passed by the runner or not,
// they leave the registry as it is.
//
// An event it cannot decode is skipped and kept in Ecarts, so one bad event
// does not freeze token issue and revocation for every later one.
func (r *Registre) prendre(registry *eventstore.Registry, e eventstore.Event) error {
	if !r.Lit(e.Type) {
		return nil
	}
	payload, ecart := registry.Decode(e)
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

// branche returns what Brancher gave.
func (r *Registre) branche() (*eventstore.Registry, Lecture) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.registry, r.lecture
}

// rattraper brings the registry up to the log's head through its runner.
// Without one (no Brancher) there is nothing to read.
func (r *Registre) rattraper(ctx context.Context) error {
	if _, l := r.branche(); l != nil {
		return l.Rattraper(ctx)
	}
	return nil
}

// rattraperBorne catches up for a caller that met an unknown secret or id,
// through the runner, at most once per IntervalleRattrapage
// (projection.Runner.RattraperBorne).
func (r *Registre) rattraperBorne(ctx context.Context) error {
	if _, l := r.branche(); l != nil {
		return l.RattraperBorne(ctx, IntervalleRattrapage)
	}
	return nil
}
