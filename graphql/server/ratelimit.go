package server

import (
	"net"
	"net/http"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"golang.org/x/time/rate"

	"arbitre/graphql"
)

// rateLimited is the answer over the allowance: GraphQL-shaped, so that a
// client reads it like any other refusal.
var rateLimited = map[string]any{"errors": []map[string]any{{
	"message":    "Trop de requêtes : réessayer dans un instant",
	"extensions": map[string]any{"code": "RATE_LIMITED"},
}}}

// rateLimit bounds how fast one caller sends requests to the API: a valid
// token is one caller wherever it comes from, anyone else (anonymous, or a
// refused token, so that inventing bearer values buys no allowance) is
// counted by the address of the connection's peer; forwarded headers are
// not trusted, anyone can write them. It runs after authentication. A
// request over the allowance gets 429 and does nothing; a rate of 0 turns
// the limit off.
func rateLimit(l Limits) echo.MiddlewareFunc {
	return middleware.RateLimiterWithConfig(middleware.RateLimiterConfig{
		Skipper: func(echo.Context) bool { return l.Rate <= 0 },
		Store: middleware.NewRateLimiterMemoryStoreWithConfig(middleware.RateLimiterMemoryStoreConfig{
			Rate: rate.Limit(l.Rate), Burst: l.Burst}),
		IdentifierExtractor: func(c echo.Context) (string, error) {
			if id := graphql.TokenID(c.Request().Context()); id != "" {
				return "jeton " + id, nil
			}
			addr := c.Request().RemoteAddr
			if host, _, err := net.SplitHostPort(addr); err == nil {
				addr = host
			}
			return "adresse " + addr, nil
		},
		DenyHandler: func(c echo.Context, _ string, _ error) error {
			c.Response().Header().Set("Retry-After", "1")
			return c.JSON(http.StatusTooManyRequests, rateLimited)
		},
	})
}
