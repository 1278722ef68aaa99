package graphql

import (
	"database/sql"

	"arbitre/domain/acces"
	"arbitre/domain/duplicate"
	dupadapters "arbitre/domain/duplicate/adapters"
	"arbitre/domain/eventstore"
	tadapters "arbitre/domain/tournoi/adapters"
	"arbitre/engine/lexicon"
	"arbitre/engine/solve"
	"arbitre/graphql/live"
	"arbitre/projections/projection"
)

// Resolver is the root of the resolvers: the dependencies they call.
type Resolver struct {
	Version  string
	Lexicon  *lexicon.Lexicon
	Engine   *solve.Pool
	Acces    *acces.Service
	Clock    eventstore.Clock
	Moteur   duplicate.Moteur
	Parties  *dupadapters.Depot
	Tournois *tadapters.Depot
	Hub      *live.Hub
	// Projections is the read-model database; StandingsRunner maintains its
	// standings (subscriptions wait for it to reach an event).
	Projections     *sql.DB
	StandingsRunner *projection.Runner
}
