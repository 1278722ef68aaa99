package main

import (
	"arbitre/domain/classique/cote"
	"arbitre/domain/eventstore"
	"arbitre/projections/archive"
	"arbitre/projections/classique"
	"arbitre/projections/historique"
	"arbitre/projections/projection"
	"arbitre/projections/standings"
)

// readModels lists every projection, in the order serve runs them and
// `projections rebuild` rebuilds them.
func readModels(registry *eventstore.Registry) ([]projection.Projection, error) {
	classement, err := classique.NewClassement()
	if err != nil {
		return nil, err
	}
	cotes, err := classique.NewCotes(cote.DefaultElo())
	if err != nil {
		return nil, err
	}
	return []projection.Projection{archive.Projection{}, standings.NewProjection(registry), classement, cotes,
		historique.NewProjection(registry)}, nil
}
