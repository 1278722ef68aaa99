// Package query answers the questions asked of the classique tournaments
// and matches, one method of Queries per question, as the use cases of
// package command are one method per command. Their standings and cotes
// are read models (projections/classique).
package query

import (
	"context"

	"arbitre/domain/aggregate"
	"arbitre/domain/classique/matchclassique"
	"arbitre/domain/classique/tournoiclassique"
	"arbitre/domain/eventstore/idempotency"
)

// Matchs is where the matches are read (adapters.Matchs).
type Matchs interface {
	// Charger replays a match to decide on it: one created under a lexicon
	// the server does not hold is LEXICON_NOT_LOADED.
	Charger(ctx context.Context, id string) (*matchclassique.Match, error)
	// Lire replays a match to read what was recorded, whatever lexicon the
	// server holds.
	Lire(ctx context.Context, id string) (*matchclassique.Match, error)
}

// Queries reads the tournaments and matches through their repositories. A
// read loads the state as stored: the command envelope in the context, if
// any, is not checked.
type Queries struct {
	Tournois aggregate.Repository[*tournoiclassique.TournoiClassique]
	Matchs   Matchs
}

// Tournoi is classique tournament id (NOT_FOUND when there is none).
func (q Queries) Tournoi(ctx context.Context, id string) (*tournoiclassique.TournoiClassique, error) {
	return q.Tournois.Charger(idempotency.WithNoCommand(ctx), id)
}

// Match is match id as its rules decide on it (NOT_FOUND when there is
// none, LEXICON_NOT_LOADED when its lexicon is not held).
func (q Queries) Match(ctx context.Context, id string) (*matchclassique.Match, error) {
	return q.Matchs.Charger(idempotency.WithNoCommand(ctx), id)
}

// MatchEnregistre is match id as recorded (its journal, its result, its
// GCG), whatever lexicon the server holds.
func (q Queries) MatchEnregistre(ctx context.Context, id string) (*matchclassique.Match, error) {
	return q.Matchs.Lire(idempotency.WithNoCommand(ctx), id)
}
