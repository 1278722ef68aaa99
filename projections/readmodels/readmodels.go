// Package readmodels lists the read models: the one list that serve runs,
// `projections rebuild` rebuilds and the tests assemble.
package readmodels

import (
	"arbitre/domain/classique/cote"
	"arbitre/domain/eventstore"
	"arbitre/projections/archive"
	"arbitre/projections/classique"
	"arbitre/projections/historique"
	"arbitre/projections/parties"
	"arbitre/projections/projection"
	"arbitre/projections/standings"
)

// IndexStandings is the duplicate standings' place in Tous: the API waits
// for that runner to reach an event before answering a standings read.
const IndexStandings = 1

// IndexParties is the games' views' place in Tous: the API waits for that
// runner to reach an event before answering a game's view.
const IndexParties = 5

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
	return []projection.Projection{archive.Projection{}, standings.NewProjection(registry), classement, cotes,
		historique.NewProjection(registry), parties.NewProjection(registry, store)}, nil
}
