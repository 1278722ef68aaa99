package graphql

import (
	"context"
	"fmt"

	"arbitre/domain/acces"
	appadapters "arbitre/domain/appel/adapters"
	appquery "arbitre/domain/appel/query"
	clqadapters "arbitre/domain/classique/adapters"
	"arbitre/domain/classique/matchclassique"
	clqquery "arbitre/domain/classique/query"
	"arbitre/domain/duplicate"
	dupadapters "arbitre/domain/duplicate/adapters"
	dupquery "arbitre/domain/duplicate/query"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/idempotency"
	"arbitre/domain/eventstore/repository"
	fedadapters "arbitre/domain/federation/adapters"
	fedquery "arbitre/domain/federation/query"
	tadapters "arbitre/domain/tournoi/adapters"
	tquery "arbitre/domain/tournoi/query"
	"arbitre/engine/lexicon"
	"arbitre/engine/solve"
	"arbitre/graphql/live"
	"arbitre/graphql/model"
	"arbitre/projections/centres"
	"arbitre/projections/classique"
	"arbitre/projections/historique"
	"arbitre/projections/parties"
	"arbitre/projections/projection"
	"arbitre/projections/standings"
)

// Resolver is the root of the resolvers: the dependencies they call. The
// resolvers read through Queries() and act through the use cases
// (applications.go); the repositories and the log below are what those are
// made of (TestArchitecture_ResolveursLisentParLesQueries).
type Resolver struct {
	Version string
	// Lexicon is the default lexicon (new games, the engine's queries);
	// Moteur holds it beside the others games were created under.
	Lexicon      *lexicon.Lexicon
	Engine       *solve.Pool
	Acces        *acces.Service
	Clock        eventstore.Clock
	Moteur       *duplicate.Moteurs
	Parties      *dupadapters.Depot
	TournoiDepot *tadapters.Depot
	// Appels stores appeals; appelLecteur reads their state and history,
	// appels lists them by tournament and by game (a read model in memory,
	// brought up to the log's head by lectureAppels): Queries().Appel.
	Appels        *appadapters.Depot
	appelLecteur  *appquery.Lecteur
	appels        *appquery.Index
	lectureAppels *projection.Runner
	Hub           *live.Hub
	// The read models in SQLite the API reads, each through its read type:
	// Classements the duplicate standings, vues the games' views (as the
	// API shows them), Archives the archive, CotesClassiques the classique
	// cotes. StandingsRunner maintains the standings and PartiesRunner the
	// games' views (their reads wait for them to reach an event).
	Classements     *standings.Lecteur
	vues            *parties.Lecteur[*model.Partie]
	Archives        *historique.Lecteur
	CotesClassiques *classique.LecteurCotes
	StandingsRunner *projection.Runner
	PartiesRunner   *projection.Runner
	// Lectures are every read model's runners: the archive's queries wait
	// for them to reach the log's head less the imports not answered yet
	// (archiveAJour, imports).
	Lectures []*projection.Runner
	imports  importsEnCours
	// Journal reads streams (replays); Registry decodes every event type.
	Journal  eventstore.Reader
	Registry *eventstore.Registry
	// Cles indexes the clients' idempotency keys over the whole log.
	Cles *idempotency.Keys
	// tables keeps the tournaments' tables (bulletins' scope).
	tables tablesTournois
	// Head is the global position of the last recorded event.
	Head func(ctx context.Context) (uint64, error)
	// Classiques stores classique tournaments, Matchs their matches played
	// under ReglesClassique.
	Classiques      *clqadapters.Tournois
	Matchs          *clqadapters.Matchs
	ReglesClassique *matchclassique.Regles
	// Hasard gives the electronic bag's draws of the classique matches.
	Hasard matchclassique.Hasard
	// Archive records the past tournaments' imported results.
	Archive repository.Streams
	// Epreuves stores the events played in many centres (guide §2.17),
	// Jumelages the tournaments twinned over the Internet (§2.18).
	Epreuves  *fedadapters.Epreuves
	Jumelages *fedadapters.Jumelages
	// jumelages lists the twinnings of each principal tournament (a read
	// model in memory, brought up to the log's head by lectureJumelages);
	// liens counts the twinned sites' open subscriptions.
	jumelages        *indexJumelages
	lectureJumelages *projection.Runner
	liens            liensOuverts
	// enMemoire are the runners of every read model held in memory.
	enMemoire []*projection.Runner
	// envois limits the bundles each centre sends.
	envois debitCentres
}

// Queries are the questions of each context (domain/<x>/query), one
// method per question.
type Queries struct {
	Duplicate  dupquery.Queries
	Tournoi    tquery.Queries
	Classique  clqquery.Queries
	Federation fedquery.Queries
	Appel      appquery.Queries
}

// Composants are what the API is assembled from: serve and the tests build
// the resolvers from them with NewResolver, the one place that wires them.
type Composants struct {
	Version string
	// Lexicon is the default lexicon, for new games; Lexiques are the
	// others the server holds for the games created under them.
	Lexicon  *lexicon.Lexicon
	Lexiques []*lexicon.Lexicon
	Store    eventstore.Store
	Registry *eventstore.Registry
	Clock    eventstore.Clock
	// Head is the global position of the store's last event.
	Head func(ctx context.Context) (uint64, error)
	// Jetons is the registry of tokens, a read model in memory.
	Jetons *acces.Registre
	Hub    *live.Hub
	// Lectures are the runners of the read models in SQLite
	// (readmodels.Runners), found by name: the API reads each through its
	// read type.
	Lectures []*projection.Runner
	// Hasard gives the electronic bag's draws (matchclassique.HasardCrypto in
	// serve, a fixed seed in tests).
	Hasard matchclassique.Hasard
}

// NewResolver wires every use case and read model of the API.
func NewResolver(c Composants) (*Resolver, error) {
	regles, err := matchclassique.NewRegles(c.Lexicon, c.Lexiques...)
	if err != nil {
		return nil, err
	}
	for _, nom := range []string{standings.Name, parties.Name, historique.Name, classique.CotesName} {
		if projection.Lecture(c.Lectures, nom) == nil {
			return nil, fmt.Errorf("l'API lit la vue %s, que rien ne tient à jour", nom)
		}
	}
	moteur := duplicate.NewMoteurs(c.Lexicon, c.Lexiques...)
	appels := appquery.NewIndex(c.Registry)
	jumelages := &indexJumelages{registre: c.Registry, parTournoi: map[string][]string{}}
	modeles := []projection.EnMemoire{appels, jumelages}
	if c.Jetons != nil {
		modeles = append(modeles, c.Jetons)
	}
	if c.Hub != nil {
		modeles = append(modeles, c.Hub)
	}
	enMemoire := make([]*projection.Runner, len(modeles))
	for i, m := range modeles {
		// Setting up a runner in memory waits for nothing.
		if enMemoire[i], err = projection.NewRunnerEnMemoire(context.Background(), m, c.Store); err != nil {
			return nil, err
		}
	}
	if c.Jetons != nil {
		acces.Brancher(c.Registry, projection.Lecture(enMemoire, acces.Name), c.Jetons)
	}
	standingsRunner, partiesRunner := projection.Lecture(c.Lectures, standings.Name), projection.Lecture(c.Lectures, parties.Name)
	return &Resolver{Version: c.Version, Lexicon: c.Lexicon, Engine: solve.NewPool(c.Lexicon), Clock: c.Clock,
		Acces:   &acces.Service{Store: c.Store, Registry: c.Registry, Clock: c.Clock, Jetons: c.Jetons},
		Moteur:  moteur,
		Parties: dupadapters.NewDepot(c.Store, c.Registry, moteur), TournoiDepot: tadapters.NewDepot(c.Store, c.Registry),
		Appels: appadapters.NewDepot(c.Store, c.Registry), appelLecteur: appquery.NewLecteur(c.Store, c.Registry),
		appels: appels, lectureAppels: enMemoire[0], jumelages: jumelages, lectureJumelages: enMemoire[1], enMemoire: enMemoire, Hub: c.Hub,
		StandingsRunner: standingsRunner, PartiesRunner: partiesRunner, Lectures: c.Lectures,
		Classements: standings.NewLecteur(standingsRunner), vues: parties.NewLecteur(partiesRunner, modelePartie, 0),
		Archives:        historique.NewLecteur(projection.Lecture(c.Lectures, historique.Name)),
		CotesClassiques: classique.NewLecteurCotes(projection.Lecture(c.Lectures, classique.CotesName)), Head: c.Head,
		Journal: c.Store, Registry: c.Registry, Cles: idempotency.NewKeys(c.Store),
		Classiques: clqadapters.NewTournois(c.Store, c.Registry), Matchs: clqadapters.NewMatchs(c.Store, c.Registry, regles),
		ReglesClassique: regles, Hasard: c.Hasard, Archive: repository.Streams{Store: c.Store, Registry: c.Registry},
		Epreuves: fedadapters.NewEpreuves(c.Store, c.Registry), Jumelages: fedadapters.NewJumelages(c.Store, c.Registry)}, nil
}

// Queries are the questions of each context, read through the
// repositories and the log the resolver holds.
func (r *Resolver) Queries() Queries {
	return Queries{
		Duplicate: dupquery.Queries{Parties: r.Parties, Journal: r.Journal, Registry: r.Registry, Lexiques: r.Moteur.Lexiques},
		Tournoi:   tquery.Queries{Tournois: r.TournoiDepot, Journal: r.Journal},
		Classique: clqquery.Queries{Tournois: r.Classiques, Matchs: r.Matchs},
		Federation: fedquery.Queries{Epreuves: r.Epreuves, Jumelages: r.Jumelages,
			Principal: centres.Principal{Journal: r.Journal, Registre: r.Registry, Tournois: r.TournoiDepot}},
		Appel: appquery.Queries{Lecteur: r.appelLecteur, Index: r.appels, AJour: func(ctx context.Context) error { return r.attendreRunner(ctx, r.lectureAppels, 0) },
			Faits: appadapters.NewFaits(r.Parties, r.TournoiDepot, r.Journal)},
	}
}

// EnMemoire are the runners of the read models the API holds in memory
// (the appeals' and twinnings' indexes, the tokens, the live hub): serve
// runs them in its pipeline beside the read models in SQLite.
func (r *Resolver) EnMemoire() []*projection.Runner { return r.enMemoire }
