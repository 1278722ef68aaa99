package graphql

import (
	"context"
	"database/sql"

	"arbitre/domain/acces"
	appadapters "arbitre/domain/appel/adapters"
	appquery "arbitre/domain/appel/query"
	"arbitre/domain/classique/partie"
	"arbitre/domain/classique/ronde"
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
	Version      string
	Lexicon      *lexicon.Lexicon
	Engine       *solve.Pool
	Acces        *acces.Service
	Clock        eventstore.Clock
	Moteur       duplicate.Moteur
	Parties      *dupadapters.Depot
	TournoiDepot *tadapters.Depot
	// Appels stores appeals; AppelLecteur reads their state and history.
	Appels       *appadapters.Depot
	AppelLecteur *appquery.Lecteur
	Hub          *live.Hub
	// Projections is the read-model database; StandingsRunner maintains its
	// standings (subscriptions wait for it to reach an event).
	Projections     *sql.DB
	StandingsRunner *projection.Runner
	// Journal reads streams (replays); Registry decodes every event type.
	Journal  eventstore.Reader
	Registry *eventstore.Registry
	// Head is the global position of the last recorded event.
	Head func(ctx context.Context) (uint64, error)
	// Classiques stores classique tournaments, Matchs their matches played
	// under ReglesClassique.
	Classiques      *ronde.Depot
	Matchs          *partie.Depot
	ReglesClassique *partie.Regles
}
