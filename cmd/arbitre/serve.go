package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/debug"
	"slices"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"arbitre/cmd/arbitre/internal/storeflags"
	"arbitre/domain/acces"
	"arbitre/domain/catalogue"
	"arbitre/domain/classique/matchclassique"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/integrity"
	"arbitre/graphql"
	"arbitre/graphql/live"
	"arbitre/graphql/server"
	"arbitre/projections/pipeline"
	"arbitre/projections/projection"
	"arbitre/projections/readmodels"
)

// tuneGC trades memory for latency unless GOGC or GOMEMLIMIT say
// otherwise: a live update of 1,000 displays allocates a lot of short-lived
// JSON, and the default collector spent a quarter of the CPU on it
// (docs/charge.md). The heap may grow to 9 times the live data, with a soft
// cap of 1 GiB that a hall laptop can afford.
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(800)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(1 << 30)
	}
}

// shutdownGrace is how long in-flight requests get to finish on shutdown.
const shutdownGrace = 15 * time.Second

func init() {
	var flags storeflags.Flags
	var listen string
	var lexPaths []string
	limits := server.DefaultLimits
	var noIntrospection bool
	var satellite satelliteFlags
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Lance le serveur : API GraphQL sur /graphql, GraphiQL sur /, santé sur /healthz",
		Example: `  arbitre serve --data data --lexicon ods8.gaddag --lexicon ods7.gaddag
  arbitre serve --listen 0.0.0.0:8080 --no-introspection --rate 10
  arbitre serve --data lyon --satellite-de https://vichy.example:8080 --jeton-centre SECRET --tournoi LYON-2026`,
		Args: aucunArgument,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if limits.Rate < 0 || limits.Burst < 0 {
				return fmt.Errorf("--rate et --burst ne peuvent pas être négatifs")
			}
			if err := satellite.verifier(); err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			log := slog.New(slog.NewJSONHandler(os.Stderr, nil))
			return runServe(ctx, &flags, listen, lexPaths, log,
				func(c *server.Config) { c.Limits, c.NoIntrospection = limits, noIntrospection }, satellite.configurer(log))
		},
	}
	flags.AddFlags(cmd)
	cmd.Flags().StringVar(&listen, "listen", "127.0.0.1:8080", "`ADRESSE` d'écoute")
	lexiconsFlag(cmd, &lexPaths)
	cmd.Flags().Float64Var(&limits.Rate, "rate", limits.Rate, "requêtes par seconde qu'un jeton, ou une adresse sans jeton, peut envoyer à /graphql (0 : sans limite)")
	cmd.Flags().IntVar(&limits.Burst, "burst", limits.Burst, "requêtes qu'un jeton ou une adresse peut envoyer d'un coup au-delà de --rate")
	satellite.register(cmd)
	cmd.Flags().BoolVar(&noIntrospection, "no-introspection", false, "refuse l'introspection GraphQL (__schema, __type) en déploiement public ; GraphiQL en a besoin")
	rootCmd.AddCommand(cmd)
}

// runServe runs until ctx is done, then shuts down gracefully: the listener
// closes, in-flight requests finish (every acknowledged mutation is already
// in the store), projections stop at a checkpoint, the store closes.
// configure adjusts the server's configuration (serve's flags). Only one
// server runs on a data directory: it holds the directory's lock file. It
// refuses to start on a log that does not extend its seal file or the
// checkpoint a projection took on it (a tail deleted, an older copy
// restored): serving it would launder the loss (docs/eventstore.md).
func runServe(ctx context.Context, flags *storeflags.Flags, listen string, lexPaths []string, log *slog.Logger, configure ...func(*server.Config)) error {
	tuneGC()
	lexiques, err := loadLexicons(lexPaths)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(flags.DataDir, 0o700); err != nil {
		return err
	}
	lock, err := lockDataDir(flags.DataDir, listen)
	if err != nil {
		return err
	}
	defer lock.release()
	store, err := ouvrirStoreServi(ctx, flags)
	if err != nil {
		return err
	}
	defer store.Close()
	lectures, err := ouvrirLectures(ctx, flags, store)
	if err != nil {
		return err
	}
	defer lectures.close()
	tokens := acces.NewRegistre()
	hub := live.NewHub()
	clock := eventstore.SystemClock
	resolver, err := graphql.NewResolver(graphql.Composants{Version: binaire.Version, Lexicon: lexiques.Defaut(), Lexiques: lexiques.Lexiques()[1:], Store: store, Registry: lectures.registry,
		Clock: clock, Head: store.LastPosition, Jetons: tokens, Hub: hub,
		Lectures: lectures.runners, Hasard: matchclassique.HasardCrypto{}})
	if err != nil {
		return err
	}
	// Every read model, in SQLite or in memory, follows the log in one
	// pipeline, sharing its read-ahead and its decoding.
	runners := append(slices.Clone(lectures.runners), resolver.EnMemoire()...)
	avance := projection.NewAvance(store, lectures.registry)
	for _, runner := range runners {
		runner.Log, runner.Avance = log, avance
	}
	pipeCtx, stopPipeline := context.WithCancel(context.WithoutCancel(ctx))
	pipeDone := make(chan error, 1)
	go func() { pipeDone <- pipeline.Run(pipeCtx, store, runners, pipeline.Config{}, nil) }()
	// arreterPipeline stops the projections and says why they stopped.
	arreterPipeline := func(err error) error {
		stopPipeline()
		return errors.Join(err, <-pipeDone)
	}
	// The first command need not wait for the whole log to be indexed.
	suivre(log, "idempotency keys", func() error { return resolver.Cles.CatchUp(pipeCtx) })
	if err := resolver.ReprendreDecisions(ctx); err != nil {
		log.Error("appeal decisions left half written after a crash are not completed", "error", err)
	}
	cfg := server.Config{Resolver: resolver, Tokens: tokens, Now: clock.Now, Logger: log, Sante: sante(runners, tokens)}
	for _, c := range configure {
		c(&cfg)
	}
	// The tasks stop as the shutdown begins: a twinned site's link must
	// not reconnect while the server goes away.
	tachesCtx, stopTaches := context.WithCancel(pipeCtx)
	defer stopTaches()
	for nom, tache := range cfg.Taches {
		suivre(log, nom, func() error { return tache(tachesCtx) })
	}
	ln, err := ecouter(listen, lock)
	if err != nil {
		return arreterPipeline(err)
	}
	log.Info("arbitre serving", "address", "http://"+ln.Addr().String(), "data", flags.DataDir,
		"store", flags.Backend, "lexicon", lexiques.Defaut().Label(), "lexicons", len(lexiques.Lexiques()), "version", binaire.Version, "commit", binaire.Commit)
	return arreterPipeline(servirHTTP(ctx, server.New(cfg), ln, pipeDone, stopTaches, log))
}

// suivre runs one of the server's background tasks, logging why it
// stopped unless the server stops it.
func suivre(log *slog.Logger, name string, run func() error) {
	go func() {
		if err := run(); err != nil && !errors.Is(err, context.Canceled) {
			log.Error(name+" stopped", "error", err)
		}
	}()
}

// ouvrirStoreServi opens the server's store, made on the first start, and
// refuses one whose log does not extend its seal.
func ouvrirStoreServi(ctx context.Context, flags *storeflags.Flags) (storeflags.Opened, error) {
	flags.Init = true
	store, _, err := flags.Open(ctx)
	if err != nil {
		return nil, err
	}
	if scelle, ok := store.(integrity.Sealed); ok {
		if err := scelle.Rupture(); err != nil {
			store.Close()
			return nil, fmt.Errorf("serve refusé : %w", err)
		}
	}
	return store, nil
}

// ecouter listens on listen and writes the address into the data
// directory's lock, for the tools that find the running server there.
func ecouter(listen string, lock *dataLock) (net.Listener, error) {
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return nil, err
	}
	if err := lock.announce(ln.Addr().String()); err != nil {
		ln.Close()
		return nil, err
	}
	return ln, nil
}

// lectures are the read models serve keeps up to date: their database
// (a writer and a pool of readers) and one runner each.
type lectures struct {
	db, readDB *sql.DB
	registry   *eventstore.Registry
	runners    []*projection.Runner
}

// ouvrirLectures opens the read models' database and a runner for each
// read model, each checked to extend what it has already read of store.
func ouvrirLectures(ctx context.Context, flags *storeflags.Flags, store eventstore.Store) (l *lectures, err error) {
	l = &lectures{}
	defer func() {
		if err != nil {
			l.close()
		}
	}()
	if l.db, err = projection.OpenDB(flags.ProjectionDBPath()); err != nil {
		return l, err
	}
	if l.registry, err = catalogue.Registre(); err != nil {
		return l, err
	}
	if l.readDB, err = projection.OpenReadDB(flags.ProjectionDBPath()); err != nil {
		return l, err
	}
	if l.runners, err = readmodels.Runners(ctx, l.db, l.registry, store); err != nil {
		return l, err
	}
	projection.LireDans(l.runners, l.readDB)
	for _, runner := range l.runners {
		if err := runner.Prolonge(ctx); err != nil {
			return l, fmt.Errorf("serve refusé : %w", err)
		}
	}
	return l, nil
}

func (l *lectures) close() {
	for _, db := range []*sql.DB{l.readDB, l.db} {
		if db != nil {
			db.Close()
		}
	}
}

// servirHTTP serves e on ln until ctx ends, the server fails or the
// projections stop (pipeDone), then calls arret as the shutdown begins and
// shuts down gracefully.
func servirHTTP(ctx context.Context, e http.Handler, ln net.Listener, pipeDone chan error, arret func(), log *slog.Logger) error {
	// Requests live in connCtx, cancelled once Shutdown has let the
	// in-flight requests finish: the hijacked websocket connections, which
	// Shutdown does not wait for, then end too and displays reconnect to the
	// next server.
	connCtx, closeConns := context.WithCancel(context.WithoutCancel(ctx))
	defer closeConns()
	httpSrv := server.HTTPServer(e, server.DefaultTimeouts)
	httpSrv.BaseContext = func(net.Listener) context.Context { return connCtx }
	served := make(chan error, 1)
	go func() { served <- httpSrv.Serve(ln) }()

	var err error
	select {
	case err = <-served:
	case err = <-pipeDone:
		err = fmt.Errorf("projections stopped: %w", err)
		pipeDone <- nil
	case <-ctx.Done():
	}
	log.Info("arbitre shutting down")
	arret()
	shutdownCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownGrace)
	defer cancel()
	if shutErr := httpSrv.Shutdown(shutdownCtx); shutErr != nil && !errors.Is(shutErr, http.ErrServerClosed) {
		err = errors.Join(err, shutErr)
	}
	closeConns()
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

// sante lists the projections parked on an event and the access events
// the token registry skipped, for /healthz.
func sante(runners []*projection.Runner, tokens *acces.Registre) func() []server.Probleme {
	return func() []server.Probleme {
		var out []server.Probleme
		for _, r := range runners {
			if a := r.Arret(); a != nil {
				out = append(out, server.Probleme{Nom: a.Nom, Position: a.Position, Erreur: a.Erreur})
			}
		}
		for _, e := range tokens.Ecarts() {
			out = append(out, server.Probleme{Nom: acces.Name, Position: e.Position, Erreur: "événement ignoré, les jetons qu'il émet ou révoque sont inconnus : " + e.Erreur})
		}
		return out
	}
}
