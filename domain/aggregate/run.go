package aggregate

import (
	"context"
	"errors"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/idempotency"
	"arbitre/domain/eventstore/repository"
)

// Repository is where the aggregates of one kind live: each context's
// adapters give the stream's name and the store's errors their codes.
type Repository[A repository.Aggregate] interface {
	// Charger replays an aggregate (version 0 for an unknown id). With a
	// command envelope in ctx (eventstore.Command) it answers
	// eventstore.ErrAlreadyApplied for a command applied already and a
	// conflict for a version the stream no longer has.
	Charger(ctx context.Context, id string) (A, error)
	// Enregistrer appends the aggregate's new events expecting the stream
	// to be as loaded: a concurrent writer makes it fail with a conflict
	// (errors.Is eventstore.ErrConflict), writing nothing.
	Enregistrer(ctx context.Context, a A, md eventstore.Metadata) error
}

// attempts bounds how often a command is decided again on the fresher
// aggregate when another writer saved first (twenty arbiters entering
// bulletins at once, the centres of a national event sending their results
// within the same minute).
const attempts = 5

// Run is the one use case runner: it loads the aggregate (the repository
// checks the command's id and version), decides (the command method of the
// aggregate) and appends the new events expecting the version loaded. A
// command applied already succeeds without deciding again and answers the
// zero A. A conflict on saving makes it decide again on the reloaded
// aggregate, where the command re-checks every rule, a few times, and only
// when the client sent no version: one who did asked to act on that
// version only, and gets the conflict. Run answers the aggregate as saved.
func Run[A repository.Aggregate](ctx context.Context, r Repository[A], id string, md eventstore.Metadata, decide func(A) error) (A, error) {
	for attempt := 1; ; attempt++ {
		a, err := runOnce(ctx, r, id, md, decide)
		if !errors.Is(err, eventstore.ErrConflict) || attempt == attempts || idempotency.CommandFrom(ctx).Version != nil {
			return a, err
		}
	}
}

func runOnce[A repository.Aggregate](ctx context.Context, r Repository[A], id string, md eventstore.Metadata, decide func(A) error) (A, error) {
	var zero A
	a, err := r.Charger(ctx, id)
	if errors.Is(err, idempotency.ErrAlreadyApplied) {
		return zero, nil
	}
	if err != nil {
		return zero, err
	}
	if err := decide(a); err != nil {
		return zero, err
	}
	if len(a.Pending()) > 0 {
		if err := r.Enregistrer(ctx, a, md); err != nil {
			return zero, err
		}
	}
	return a, nil
}
