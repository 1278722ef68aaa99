// Package server is the HTTP edge of Arbitre: echo serving the GraphQL API
// at /graphql (POST, and websocket with graphql-transport-ws for
// subscriptions), GraphiQL at /, and /healthz. It wires transports, limits
// and logging; the resolvers live in package graphql.
package server

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	gql "github.com/99designs/gqlgen/graphql"
	gqlhandler "github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/gorilla/websocket"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"arbitre/domain/acces"
	"arbitre/domain/erreur"
	"arbitre/graphql"
	"arbitre/graphql/generated"
	"arbitre/graphql/server/graphiql"
)

// Limits protect the server from abusive requests.
type Limits struct {
	// MaxBody is the largest request body accepted, e.g. "1M".
	MaxBody string
	// Complexity is the largest query complexity (each field counts 1,
	// lists their children's cost).
	Complexity int
	// Depth is the deepest selection nesting accepted.
	Depth int
	// Rate is how many requests per second one caller (a token, or an
	// address without one) sends to /graphql on average, Burst how many
	// at once; a Rate of 0 turns the limit off (see rateLimit).
	Rate  float64
	Burst int
}

// DefaultLimits suit a tournament hall. The depth admits GraphiQL's
// introspection query (15 levels of ofType nesting) and nothing deeper.
var DefaultLimits = Limits{MaxBody: "1M", Complexity: 5000, Depth: 16, Rate: 20, Burst: 40}

// Config is what the server needs.
type Config struct {
	Resolver *graphql.Resolver
	// Tokens authenticates bearer tokens.
	Tokens *acces.Registre
	// Now is the clock token expiry is checked against.
	Now    func() time.Time
	Logger *slog.Logger
	Limits Limits
	// NoIntrospection refuses __schema and __type (public deployments);
	// GraphiQL needs them.
	NoIntrospection bool
	// Sante, when set, lists the parts of the server that stopped following
	// the log; /healthz then answers 503 "degraded" and names them.
	Sante func() []Probleme
	// Taches run beside the server while it serves, each until its context
	// ends (a twinned site's link to its principal, guide §2.18).
	Taches map[string]func(ctx context.Context) error
	// Delais bound operations and websockets; a zero field is
	// DefaultDelais's.
	Delais Delais
}

// Probleme is a part of the server (a projection, the token registry) that
// stopped at an event of the log, or skipped it.
type Probleme struct {
	Nom      string `json:"nom"`
	Position uint64 `json:"position"`
	Erreur   string `json:"erreur"`
}

// New builds the echo instance with every route.
func New(cfg Config) *echo.Echo {
	es := generated.NewExecutableSchema(generated.Config{
		Resolvers:  cfg.Resolver,
		Directives: generated.DirectiveRoot{Acces: graphql.AccesDirective},
		Complexity: graphql.Complexity(),
	})
	return nouveau(cfg, es, etatDuJournal(cfg.Resolver))
}

// nouveau builds the echo instance over the executable schema es; etat is
// the state the public queries' answers depend on (nil: none shared).
func nouveau(cfg Config, es gql.ExecutableSchema, etat EtatFunc) *echo.Echo {
	if cfg.Limits == (Limits{}) {
		cfg.Limits = DefaultLimits
	}
	cfg.Delais = cfg.Delais.completes()
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.Use(middleware.Recover())
	e.Use(requestLogger(cfg.Logger))
	e.Use(securityHeaders())
	e.Use(bodyLimit(cfg.Limits.MaxBody))

	lim := newLimiter(cfg.Limits)
	api := strictRequests(cfg.Limits.MaxBody, newGraphQL(cfg, lim, es, etat))
	// The route's middlewares are composed here, once: echo composes a
	// route's own middlewares again for every request (closures, and the
	// response wrapped once more by echo.WrapMiddleware), issue 34 item 3.
	// Authentication comes first, then the rate limit, which counts a
	// token's requests under the token.
	e.Any("/graphql", authentifier(cfg.Tokens, cfg.Now)(lim.middleware()(echo.WrapHandler(api))))
	get(e, "/", echo.WrapHandler(http.FileServerFS(graphiql.Files)))
	get(e, "/graphiql/*", echo.WrapHandler(http.StripPrefix("/graphiql/", http.FileServerFS(graphiql.Files))))
	pages(e)
	get(e, "/healthz", func(c echo.Context) error {
		if cfg.Sante != nil {
			if problemes := cfg.Sante(); len(problemes) > 0 {
				return c.JSON(http.StatusServiceUnavailable, map[string]any{"status": "degraded", "version": cfg.Resolver.Version, "projections": problemes})
			}
		}
		return c.JSON(http.StatusOK, map[string]string{"status": "ok", "version": cfg.Resolver.Version})
	})
	return e
}

// authentifier authenticates every request's Authorization header
// (graphql.Authenticate): the request's context carries the token's rights,
// or why it was refused.
func authentifier(reg *acces.Registre, now func() time.Time) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			r := c.Request()
			c.SetRequest(r.WithContext(graphql.Authenticate(r.Context(), reg, r.Header.Get("Authorization"), now)))
			return next(c)
		}
	}
}

// maxMessageWS is the largest websocket message a client may send, on
// both subprotocols: the HTTP body's limit (a message carries one request).
const maxMessageWS = 1 << 20

// newGraphQL configures gqlgen's handler: transports, caches, limits and
// the error presenter that gives every error a stable code.
func newGraphQL(cfg Config, lim *limiter, es gql.ExecutableSchema, etat EtatFunc) http.Handler {
	recuperer := func(ctx context.Context, v any) error {
		cfg.Logger.ErrorContext(ctx, "resolver panic", "panic", v)
		return &erreur.Erreur{Code: graphql.CodeInternal, Message: "Erreur interne du serveur"}
	}
	// presenter gives every error its code and logs the cause of the
	// server's failures, which the client is not told.
	presenter := func(ctx context.Context, err error) *gqlerror.Error {
		cause := err.Error() // before PresentError rewrites gqlgen's message
		e := graphql.PresentError(ctx, err)
		if e.Extensions["code"] == string(graphql.CodeInternal) {
			cfg.Logger.ErrorContext(ctx, "erreur interne du serveur", "chemin", e.Path.String(), "erreur", cause)
		}
		return e
	}
	partage := newSchemaPartage(es, presenter, recuperer)
	partage.etat = etat
	srv := gqlhandler.New(partage)
	initWS := func(ctx context.Context, p transport.InitPayload) (context.Context, *transport.InitPayload, error) {
		bearer := p.Authorization()
		if bearer == "" {
			bearer = p.GetString("authorization")
		}
		// A refused token refuses the connection; an accepted one, from
		// connection_init or the upgrade's header, closes it when revoked
		// or expired. The ack carries no payload: the init payload holds
		// the secret.
		ctx, err := graphql.AuthenticateConnection(ctx, cfg.Tokens, bearer, cfg.Now)
		if err != nil {
			return nil, nil, err
		}
		// A connection running no operation for a while is closed.
		return veiller(ctx, cfg.Delais.InactiviteWS), nil, nil
	}
	upgrader := websocket.Upgrader{
		CheckOrigin:     memeOrigine,
		ReadBufferSize:  1024,
		WriteBufferSize: 1024,
	}
	// graphql-transport-ws (the pages, the load generator, twinned sites)
	// is ours (ws.go); gqlgen's transport serves the legacy graphql-ws,
	// through the same upgrader. Both cap a message at maxMessageWS and
	// close a connection without connection_init after InitWS.
	srv.AddTransport(transportWS{Upgrader: upgrader, InitFunc: initWS, DelaiInit: cfg.Delais.InitWS})
	limite := int64(maxMessageWS)
	srv.AddTransport(transport.Websocket{
		Implementation:        accepteurGorilla{upgrader},
		KeepAlivePingInterval: 10 * time.Second,
		InitFunc:              initWS,
		InitTimeout:           cfg.Delais.InitWS,
		PayloadReadLimit:      &limite,
	})
	srv.AddTransport(transport.Options{})
	srv.AddTransport(transport.GET{})
	srv.AddTransport(postDirect{})
	srv.SetQueryCache(lru.New[*ast.QueryDocument](1000))
	srv.Use(nouvelleGarde(DefaultBornesDocument))
	srv.Use(erreursBornees{})
	if cfg.NoIntrospection {
		srv.Use(noIntrospection{})
	} else {
		srv.Use(extension.Introspection{})
	}
	srv.Use(extension.FixedComplexityLimit(cfg.Limits.Complexity))
	srv.Use(depthLimit(cfg.Limits.Depth))
	srv.Use(&exactEnums{})
	srv.AroundFields(graphql.FieldMiddleware)
	srv.Use(lim)
	srv.Use(activite{})
	srv.Use(delaiOperation{delai: cfg.Delais.Operation})
	srv.SetErrorPresenter(presenter)
	srv.SetRecoverFunc(recuperer)
	return srv
}

// requestLogger writes one structured line per request. Its attributes are
// slog.Attr values, not key-value pairs: a pair's values are boxed, three
// allocations per request (issue 34 item 3).
func requestLogger(log *slog.Logger) echo.MiddlewareFunc {
	return middleware.RequestLoggerWithConfig(middleware.RequestLoggerConfig{
		LogStatus: true, LogURI: true, LogMethod: true, LogLatency: true, LogError: true,
		HandleError: true,
		LogValuesFunc: func(c echo.Context, v middleware.RequestLoggerValues) error {
			method, uri := slog.String("method", v.Method), slog.String("uri", redactURI(v.URI))
			status, latency := slog.Int("status", v.Status), slog.Duration("latency", v.Latency)
			if v.Error != nil {
				log.LogAttrs(c.Request().Context(), slog.LevelError, "request", method, uri, status, latency, slog.String("error", v.Error.Error()))
				return nil
			}
			log.LogAttrs(c.Request().Context(), slog.LevelInfo, "request", method, uri, status, latency)
			return nil
		},
	})
}
