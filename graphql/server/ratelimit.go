package server

import (
	"context"
	"net"
	"net/http"
	"strconv"

	gql "github.com/99designs/gqlgen/graphql"
	"github.com/gorilla/websocket"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"golang.org/x/time/rate"

	"arbitre/graphql"
)

// codeRateLimited is the code of a request over its caller's allowance.
const codeRateLimited = "RATE_LIMITED"

// messageRateLimited is its message.
const messageRateLimited = "Trop de requêtes : réessayer dans un instant"

// retryAfter is, in seconds, when a refused caller may send again: the
// Retry-After header and extensions.retryAfter.
const retryAfter = 1

// extensionsRateLimited are the extensions of a RATE_LIMITED error.
func extensionsRateLimited() map[string]any {
	return map[string]any{"code": codeRateLimited, "retryAfter": retryAfter}
}

// limiter bounds how fast one caller sends work to the API. A valid token
// is one caller wherever it comes from; anyone else (anonymous, or a
// refused token, so that inventing bearer values buys no allowance) is
// counted by the address of the connection's peer: forwarded headers are
// not trusted, anyone can write them. Every HTTP request to /graphql
// counts, and every operation sent over a websocket, which one upgrade
// request would otherwise carry without limit. A rate of 0 turns it off.
type limiter struct {
	off   bool
	store *middleware.RateLimiterMemoryStore
}

func newLimiter(l Limits) *limiter {
	return &limiter{off: l.Rate <= 0, store: middleware.NewRateLimiterMemoryStoreWithConfig(
		middleware.RateLimiterMemoryStoreConfig{Rate: rate.Limit(l.Rate), Burst: l.Burst})}
}

// socketPeer marks the context of a websocket connection with its peer's
// address, for the operations it will carry.
type socketPeer struct{}

// caller is the key a request or an operation is counted under.
func caller(ctx context.Context, addr string) string {
	if id := graphql.TokenID(ctx); id != "" {
		return "jeton " + id
	}
	return "adresse " + addr
}

// middleware counts HTTP requests, after authentication; one over the
// allowance gets 429 and a GraphQL-shaped error, and does nothing. A
// websocket upgrade also leaves its peer's address for the operations.
func (l *limiter) middleware() echo.MiddlewareFunc {
	limit := middleware.RateLimiterWithConfig(middleware.RateLimiterConfig{
		Skipper: func(echo.Context) bool { return l.off },
		Store:   l.store,
		IdentifierExtractor: func(c echo.Context) (string, error) {
			return caller(c.Request().Context(), peer(c.Request())), nil
		},
		DenyHandler: func(c echo.Context, _ string, _ error) error {
			c.Response().Header().Set("Retry-After", strconv.Itoa(retryAfter))
			return c.JSON(http.StatusTooManyRequests, map[string]any{"errors": []map[string]any{{
				"message": messageRateLimited, "extensions": extensionsRateLimited()}}})
		},
	})
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		limited := limit(next)
		return func(c echo.Context) error {
			if r := c.Request(); websocket.IsWebSocketUpgrade(r) {
				c.SetRequest(r.WithContext(context.WithValue(r.Context(), socketPeer{}, peer(r))))
			}
			return limited(c)
		}
	}
}

// peer is the address of the connection's peer, without its port.
func peer(r *http.Request) string {
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		return host
	}
	return r.RemoteAddr
}

var _ interface {
	gql.HandlerExtension
	gql.OperationInterceptor
} = (*limiter)(nil)

// ExtensionName names the limiter among gqlgen's extensions.
func (*limiter) ExtensionName() string { return "RateLimit" }

// Validate accepts any schema.
func (*limiter) Validate(gql.ExecutableSchema) error { return nil }

// InterceptOperation counts the operations of websocket connections (their
// token is the one of connection_init); one over the allowance gets a
// RATE_LIMITED error and does nothing.
func (l *limiter) InterceptOperation(ctx context.Context, next gql.OperationHandler) gql.ResponseHandler {
	addr, ok := ctx.Value(socketPeer{}).(string)
	if l.off || !ok || l.allow(caller(ctx, addr)) {
		return next(ctx)
	}
	return gql.OneShot(&gql.Response{Errors: gqlerror.List{{
		Message: messageRateLimited, Extensions: extensionsRateLimited()}}})
}

func (l *limiter) allow(key string) bool {
	ok, _ := l.store.Allow(key)
	return ok
}
