package graphql

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	gql "github.com/99designs/gqlgen/graphql"

	"arbitre/domain/acces"
)

type authKey struct{}

// authState is what the request's credentials established: rights, or the
// reason a presented token was refused.
type authState struct {
	hab *acces.Habilitation
	err error
}

// Authenticate reads a bearer value ("Bearer <jeton>" or the bare secret)
// against the registry and records the outcome in the context. No value
// means an anonymous request (public data only).
func Authenticate(ctx context.Context, reg *acces.Registre, bearer string, now time.Time) context.Context {
	secret := bearerSecret(bearer)
	if secret == "" {
		return ctx
	}
	h, err := reg.Authentifier(ctx, secret, now)
	if err != nil {
		return context.WithValue(ctx, authKey{}, authState{err: err})
	}
	return context.WithValue(ctx, authKey{}, authState{hab: &h})
}

// AuthenticateConnection authenticates a websocket's connection_init: no
// value opens an anonymous connection, a refused token refuses the
// connection, and an accepted one gives a context that ends when the token
// is revoked or expires, which closes the connection and its subscriptions.
func AuthenticateConnection(ctx context.Context, reg *acces.Registre, bearer string, now time.Time) (context.Context, error) {
	secret := bearerSecret(bearer)
	if secret == "" {
		return ctx, nil
	}
	h, err := reg.Authentifier(ctx, secret, now)
	if err != nil {
		return nil, err
	}
	return context.WithValue(reg.Veiller(ctx, h, now), authKey{}, authState{hab: &h}), nil
}

// bearerSecret takes the secret out of "Bearer <jeton>", the scheme in any
// case (RFC 7235), or out of a bare secret.
func bearerSecret(bearer string) string {
	bearer = strings.TrimSpace(bearer)
	if scheme, secret, ok := strings.Cut(bearer, " "); ok && strings.EqualFold(scheme, "Bearer") {
		return strings.TrimSpace(secret)
	}
	return bearer
}

// AuthMiddleware authenticates every HTTP request's Authorization header.
func AuthMiddleware(reg *acces.Registre, now func() time.Time) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			next.ServeHTTP(w, r.WithContext(Authenticate(r.Context(), reg, r.Header.Get("Authorization"), now())))
		})
	}
}

// habilitation returns the request's rights, or the error explaining why
// there are none.
func habilitation(ctx context.Context) (acces.Habilitation, error) {
	st, _ := ctx.Value(authKey{}).(authState)
	var ended *acces.Error
	if st.hab != nil && errors.As(context.Cause(ctx), &ended) {
		// The connection's token was revoked or expired while it was open.
		st = authState{err: ended}
	}
	switch {
	case st.err != nil:
		msg := "jeton refusé"
		if ae := (*acces.Error)(nil); errors.As(st.err, &ae) {
			msg = ae.Message
		}
		return acces.Habilitation{}, &Error{Code: CodeUnauthenticated, Message: msg, Err: st.err}
	case st.hab == nil:
		return acces.Habilitation{}, &Error{Code: CodeUnauthenticated, Message: "jeton requis (Authorization: Bearer …)"}
	}
	return *st.hab, nil
}

// authorize checks the request may act with one of roles on a scope.
func authorize(ctx context.Context, roles []acces.Role, p acces.Portee) (acces.Habilitation, error) {
	h, err := habilitation(ctx)
	if err != nil {
		return h, err
	}
	if err := acces.Autoriser(h, roles, p); err != nil {
		return h, err
	}
	return h, nil
}

// AccesDirective implements @acces: the field runs only for a token of one
// of the roles (tournament and table scopes are checked by the resolver).
func AccesDirective(ctx context.Context, _ any, next gql.Resolver, roles []acces.Role) (any, error) {
	if _, err := authorize(ctx, roles, acces.Portee{}); err != nil {
		return nil, err
	}
	return next(ctx)
}

// TokenID is the id of the request's valid token, "" for an anonymous
// request or a refused token.
func TokenID(ctx context.Context) string {
	if st, _ := ctx.Value(authKey{}).(authState); st.hab != nil {
		return st.hab.JetonID
	}
	return ""
}
