package graphql

import (
	"context"
	"errors"
	"strings"
	"time"

	gql "github.com/99designs/gqlgen/graphql"

	"arbitre/domain/acces"
	"arbitre/domain/erreur"
)

type authKey struct{}

// authState is what the request's credentials established: rights, or the
// reason a presented token was refused. reg and now are the registry and
// clock that accepted the token: every operation asks them again whether
// it still works (a websocket outlives its token).
type authState struct {
	hab *acces.Habilitation
	err error
	reg *acces.Registre
	now func() time.Time
}

// Authenticate reads a bearer value ("Bearer <jeton>" or the bare secret)
// against the registry and records the outcome in the context. No value
// means an anonymous request (public data only).
func Authenticate(ctx context.Context, reg *acces.Registre, bearer string, now func() time.Time) context.Context {
	secret := bearerSecret(bearer)
	if secret == "" {
		return ctx
	}
	h, err := reg.Authentifier(ctx, secret, now())
	if err != nil {
		return context.WithValue(ctx, authKey{}, authState{err: err})
	}
	return context.WithValue(ctx, authKey{}, authState{hab: &h, reg: reg, now: now})
}

// AuthenticateConnection authenticates a websocket's connection_init: no
// value keeps what the upgrade request's Authorization header established
// (anonymous without one), a refused token (in connection_init or in the
// header) refuses the connection, and an accepted one, whichever way it
// came, gives a context that ends when the token is revoked or expires,
// which closes the connection and its subscriptions.
func AuthenticateConnection(ctx context.Context, reg *acces.Registre, bearer string, now func() time.Time) (context.Context, error) {
	if bearerSecret(bearer) != "" {
		ctx = Authenticate(ctx, reg, bearer, now)
	}
	st, _ := ctx.Value(authKey{}).(authState)
	switch {
	case st.err != nil:
		return nil, st.err
	case st.hab == nil:
		return ctx, nil
	}
	return reg.Veiller(ctx, *st.hab, now()), nil
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

// habilitation returns the request's rights, or the error explaining why
// there are none.
func habilitation(ctx context.Context) (acces.Habilitation, error) {
	st, _ := ctx.Value(authKey{}).(authState)
	if st.hab != nil {
		// The token may have been revoked or expired since it was
		// accepted (a websocket's operations come long after).
		if err := st.reg.Verifier(*st.hab, st.now()); err != nil {
			st = authState{err: err}
		}
	}
	switch {
	case st.err != nil:
		msg := "jeton refusé"
		if ae := (*erreur.Erreur)(nil); errors.As(st.err, &ae) {
			msg = ae.Message
		}
		return acces.Habilitation{}, &erreur.Erreur{Code: CodeUnauthenticated, Message: msg, Err: st.err}
	case st.hab == nil:
		return acces.Habilitation{}, &erreur.Erreur{Code: CodeUnauthenticated, Message: "jeton requis (Authorization: Bearer …)"}
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
