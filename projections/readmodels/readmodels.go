// Package readmodels lists the read models: the one list that serve runs,
// `projections rebuild` rebuilds and the tests assemble.
package readmodels

import (
	"arbitre/domain/classique/cote"
	"arbitre/domain/eventstore"
	"arbitre/projections/classique"
	"arbitre/projections/historique"
	"arbitre/projections/parties"
	"arbitre/projections/projection"
	"arbitre/projections/standings"
)

// Lecture is the runner of the read model named name among runners (nil
// when none): the API waits for the standings' runner (standings.Name) and
// the games' views' (parties.Name) to reach an event before answering a
// read of them.
func Lecture(runners []*projection.Runner, name string) *projection.Runner {
	for _, r := range runners {
		if r.Name() == name {
			return r
		}
	}
	return nil
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
