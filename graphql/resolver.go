package graphql

import (
	"arbitre/domain/acces"
	"arbitre/domain/duplicate"
	dupadapters "arbitre/domain/duplicate/adapters"
	"arbitre/domain/eventstore"
	tadapters "arbitre/domain/tournoi/adapters"
	"arbitre/engine/lexicon"
	"arbitre/engine/solve"
	"arbitre/graphql/live"
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
}
