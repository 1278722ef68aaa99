// Package catalogue lists every event type Arbitre records, with its
// explicit versioned name: the registry the server, the projections and
// `arbitre store verify` decode the log with.
package catalogue

import (
	"arbitre/domain/acces"
	"arbitre/domain/appel"
	"arbitre/domain/archive"
	"arbitre/domain/classique/matchclassique"
	"arbitre/domain/classique/tournoiclassique"
	"arbitre/domain/duplicate"
	"arbitre/domain/eventstore"
	"arbitre/domain/federation"
	"arbitre/domain/tournoi"
)

// Registre returns a registry holding every event type.
func Registre() (*eventstore.Registry, error) {
	r := eventstore.NewRegistry()
	for _, register := range []func(*eventstore.Registry) error{
		acces.RegisterEvents,
		appel.RegisterEvents,
		archive.RegisterEvents,
		matchclassique.RegisterEvents,
		tournoiclassique.RegisterEvents,
		duplicate.RegisterEvents,
		tournoi.RegisterEvents,
		federation.RegisterEvents,
	} {
		if err := register(r); err != nil {
			return nil, err
		}
	}
	return r, nil
}
