// Package readmodels lists the read models kept in SQLite: the one list
// that serve runs, `projections rebuild` rebuilds, the archive's import and
// the simulations build, and the tests assemble. Adding a read model is one
// line of constructeurs.
package readmodels

import (
	"context"
	"database/sql"
	"fmt"
	"slices"

	"arbitre/domain/eventstore"
	"arbitre/projections/classique"
	"arbitre/projections/historique"
	"arbitre/projections/parties"
	"arbitre/projections/projection"
	"arbitre/projections/standings"
)

// constructeurs are the read models, in the order serve runs them and
// `projections rebuild` rebuilds them.
var constructeurs = []projection.Constructeur{
	projection.Construit(standings.NewProjection),
	projection.Construit(classique.NewClassement),
	projection.Construit(classique.NewCotes),
	projection.Construit(historique.NewProjection),
	projection.Construit(parties.NewProjection),
}

// Runners returns a runner on db for each read model of Tous, or only for
// those named noms when given, by name.
func Runners(ctx context.Context, db *sql.DB, registry *eventstore.Registry, store eventstore.Reader, noms ...string) ([]*projection.Runner, error) {
	models, err := Tous(registry, store)
	if err != nil {
		return nil, err
	}
	if len(noms) > 0 {
		var retenus []projection.Projection
		for _, m := range models {
			if slices.Contains(noms, m.Name()) {
				retenus = append(retenus, m)
			}
		}
		if len(retenus) != len(noms) {
			return nil, fmt.Errorf("read models %v: some are unknown", noms)
		}
		models = retenus
	}
	return projection.NewRunners(ctx, db, projection.Journal{Store: store, Registry: registry}, models...)
}

// Tous builds every read model, in order; store is the log they read (the
// games' views replay a game from it), registry decodes its events.
func Tous(registry *eventstore.Registry, store eventstore.Reader) ([]projection.Projection, error) {
	j := projection.Journal{Store: store, Registry: registry}
	models := make([]projection.Projection, len(constructeurs))
	for i, nouveau := range constructeurs {
		m, err := nouveau(j)
		if err != nil {
			return nil, err
		}
		models[i] = m
	}
	return models, nil
}
