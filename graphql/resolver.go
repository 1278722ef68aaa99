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
	"arbitre/projections/standings"
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
	// Projections reads the read-model database; Classements serves the
	// standings from it; StandingsRunner maintains them (reads wait for it
	// to reach an event).
	Projections     *sql.DB
	Classements     *standings.Lecteur
	StandingsRunner *projection.Runner
	// Journal reads streams (replays); Registry decodes every event type.
	Journal  eventstore.Reader
	Registry *eventstore.Registry
	// vues keeps the games' public views up to date.
	vues partieVues
	// Head is the global position of the last recorded event.
	Head func(ctx context.Context) (uint64, error)
	// Classiques stores classique tournaments, Matchs their matches played
	// under ReglesClassique.
	Classiques      *ronde.Depot
	Matchs          *partie.Depot
	ReglesClassique *partie.Regles
}
