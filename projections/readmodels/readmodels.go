// Package readmodels lists the read models: the one list that serve runs,
// `projections rebuild` rebuilds and the tests assemble.
package readmodels

import (
	"context"
	"database/sql"

	"arbitre/domain/classique/cote"
	"arbitre/domain/eventstore"
	"arbitre/projections/classique"
	"arbitre/projections/historique"
	"arbitre/projections/parties"
	"arbitre/projections/projection"
	"arbitre/projections/standings"
)

// Runners returns a runner on db for each read model of Tous, by name.
func Runners(ctx context.Context, db *sql.DB, registry *eventstore.Registry, store eventstore.Reader) ([]*projection.Runner, error) {
	models, err := Tous(registry, store)
	if err != nil {
		return nil, err
	}
	return projection.NewRunners(ctx, db, store, models...)
}

// Tous lists every projection, in the order serve runs them and
// `projections rebuild` rebuilds them; store is the log they read
// (the games' views replay a game from it).
func Tous(registry *eventstore.Registry, store eventstore.Reader) ([]projection.Projection, error) {
	classement, err := classique.NewClassement()
	if err != nil {
		return nil, err
	}
	cotes, err := classique.NewCotes(cote.DefaultElo())
	if err != nil {
		return nil, err
	}
	return []projection.Projection{standings.NewProjection(registry), classement, cotes,
		historique.NewProjection(registry), parties.NewProjection(registry, store)}, nil
}
