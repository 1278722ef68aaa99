package server

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	gql "github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"arbitre/graphql"
)

// Delais bound how long an operation runs and a websocket waits (issue 27).
type Delais struct {
	// Operation bounds a query or a mutation, over HTTP or a websocket,
	// from its dispatch to its answer: its resolvers and the engine get
	// the deadline in their context (a read that passes it answers
	// TIMEOUT, the engine's search CANCELLED). A subscription lives as
	// long as its connection.
	Operation time.Duration
	// InitWS is how long a websocket has to send connection_init after
	// the upgrade, on both subprotocols.
	InitWS time.Duration
	// InactiviteWS closes a websocket that runs no operation for that
	// long, on both subprotocols.
	InactiviteWS time.Duration
}

// DefaultDelais let the engine answer a hard position (the HTTP write
// timeout is 60 s) and a display reconnect; a socket that only holds a
// file descriptor is closed after two minutes.
var DefaultDelais = Delais{Operation: 30 * time.Second, InitWS: 10 * time.Second, InactiviteWS: 2 * time.Minute}

// completes is d with DefaultDelais's value for each zero field.
func (d Delais) completes() Delais {
	for _, c := range []struct{ champ, defaut *time.Duration }{
		{&d.Operation, &DefaultDelais.Operation}, {&d.InitWS, &DefaultDelais.InitWS}, {&d.InactiviteWS, &DefaultDelais.InactiviteWS},
	} {
		if *c.champ == 0 {
			*c.champ = *c.defaut
		}
	}
	return d
}

// delaiOperation gives every query and mutation its deadline.
type delaiOperation struct{ delai time.Duration }

var _ interface {
	gql.HandlerExtension
	gql.OperationInterceptor
} = delaiOperation{}

func (delaiOperation) ExtensionName() string               { return "DelaiOperation" }
func (delaiOperation) Validate(gql.ExecutableSchema) error { return nil }

// InterceptOperation runs the operation, and each call of its answer's
// handler (where the fields resolve), under the deadline. An operation
// past it before its fields started (gqlgen's executor then gives no
// answer at all) is answered TIMEOUT. The handler called with the
// operation's own context (the POST transport's) runs under its deadline
// already: a second one would cost a timer more per request (issue 34
// item 3); a websocket's, called with the connection's, gets its own.
func (d delaiOperation) InterceptOperation(ctx context.Context, next gql.OperationHandler) gql.ResponseHandler {
	if oc := gql.GetOperationContext(ctx); oc.Operation != nil && oc.Operation.Operation == ast.Subscription {
		return next(ctx)
	}
	fin := time.Now().Add(d.delai)
	ctx, cancel := context.WithDeadline(ctx, fin)
	h := next(ctx)
	premiere := true
	return func(ctx context.Context) *gql.Response {
		defer cancel()
		if avant, ok := ctx.Deadline(); !ok || avant.After(fin) {
			var cancelReponse context.CancelFunc
			ctx, cancelReponse = context.WithDeadline(ctx, fin)
			defer cancelReponse()
		}
		r := h(ctx)
		if r == nil && premiere && errors.Is(ctx.Err(), context.DeadlineExceeded) {
			r = &gql.Response{Errors: gqlerror.List{graphql.PresentError(ctx, ctx.Err())}}
		}
		premiere = false
		return r
	}
}

// codeTooManyErrors is the code of the error that replaces the errors of
// an answer beyond maxErreurs.
const codeTooManyErrors = "TOO_MANY_ERRORS"

// maxErreurs is the most errors one answer lists: the first ones say what
// is wrong, thousands only weigh.
const maxErreurs = 50

// erreursBornees keeps the first maxErreurs errors of every answer
// (execution and refusals alike) and says how many were left out.
type erreursBornees struct{}

var _ interface {
	gql.HandlerExtension
	gql.ResponseInterceptor
} = erreursBornees{}

func (erreursBornees) ExtensionName() string               { return "ErreursBornees" }
func (erreursBornees) Validate(gql.ExecutableSchema) error { return nil }

func (erreursBornees) InterceptResponse(ctx context.Context, next gql.ResponseHandler) *gql.Response {
	r := next(ctx)
	if r != nil && len(r.Errors) > maxErreurs {
		autres := len(r.Errors) - maxErreurs
		r.Errors = append(r.Errors[:maxErreurs:maxErreurs], &gqlerror.Error{
			Message:    fmt.Sprintf("Trop d'erreurs : %d de plus ne sont pas listées", autres),
			Extensions: map[string]any{"code": codeTooManyErrors},
		})
	}
	return r
}

// veille closes a websocket connection that runs no operation for its
// delay: it ends the connection's context, which both transports close
// the connection on.
type veille struct {
	delai    time.Duration
	mu       sync.Mutex
	enCours  int
	minuteur *time.Timer
}

// cleVeille keys a connection's veille in its context.
type cleVeille struct{}

// veiller is the context of a connection closed after delai without an
// operation.
func veiller(ctx context.Context, delai time.Duration) context.Context {
	ctx, cancel := context.WithCancel(ctx)
	v := &veille{delai: delai, minuteur: time.AfterFunc(delai, cancel)}
	context.AfterFunc(ctx, func() { v.minuteur.Stop() })
	return context.WithValue(ctx, cleVeille{}, v)
}

// activite counts the operations of websocket connections: while one
// runs, its connection is not idle.
type activite struct{}

var _ interface {
	gql.HandlerExtension
	gql.OperationInterceptor
} = activite{}

func (activite) ExtensionName() string               { return "ActiviteWS" }
func (activite) Validate(gql.ExecutableSchema) error { return nil }

// InterceptOperation marks the connection busy until the operation's
// handler ends (returns nil).
func (activite) InterceptOperation(ctx context.Context, next gql.OperationHandler) gql.ResponseHandler {
	v, ok := ctx.Value(cleVeille{}).(*veille)
	if !ok {
		return next(ctx)
	}
	v.mu.Lock()
	v.enCours++
	v.minuteur.Stop()
	v.mu.Unlock()
	h := next(ctx)
	var finie sync.Once
	return func(ctx context.Context) *gql.Response {
		r := h(ctx)
		if r == nil {
			finie.Do(func() {
				v.mu.Lock()
				if v.enCours--; v.enCours == 0 {
					v.minuteur.Reset(v.delai)
				}
				v.mu.Unlock()
			})
		}
		return r
	}
}
