package projection

import "arbitre/domain/eventstore"

// Journal is what every read model kept in SQLite is built from: the log
// it follows (Store: a read model that replays a stream reads it there) and
// the registry that decodes its events.
type Journal struct {
	Store    eventstore.Reader
	Registry *eventstore.Registry
}

// Constructeur builds a read model kept in SQLite from the log it reads:
// the one shape of their constructors (projections/readmodels lists them).
type Constructeur func(Journal) (Projection, error)

// Construit is nouveau, a read model's constructor returning its own type,
// as a Constructeur.
func Construit[P Projection](nouveau func(Journal) (P, error)) Constructeur {
	return func(j Journal) (Projection, error) {
		p, err := nouveau(j)
		if err != nil {
			return nil, err
		}
		return p, nil
	}
}
