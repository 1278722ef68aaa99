package graphql

import (
	"context"
	"errors"
	"fmt"

	"github.com/99designs/gqlgen/graphql"

	"arbitre/domain/acces"
	"arbitre/domain/appel"
	"arbitre/domain/classique/partie"
	"arbitre/domain/classique/ronde"
	"arbitre/domain/duplicate"
	"arbitre/domain/eventstore"
	"arbitre/domain/tournoi"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// Code is the stable error code clients read in extensions.code.
type Code string

// The codes every client may act on.
const (
	CodeInvalidInput    Code = "INVALID_INPUT"
	CodeUnauthenticated Code = "UNAUTHENTICATED"
	CodeForbidden       Code = "FORBIDDEN"
	CodeNotFound        Code = "NOT_FOUND"
	CodeConflict        Code = "CONFLICT"
	CodeInternal        Code = "INTERNAL"
)

// Error is an API error: a code, a French message a director can read, and
// the cause for the logs.
type Error struct {
	Code    Code
	Message string
	Cause   error
	// Extra goes into extensions beside the code (e.g. the current revision
	// on a conflict).
	Extra map[string]any
}

func (e *Error) Error() string {
	if e.Cause != nil {
		return e.Message + ": " + e.Cause.Error()
	}
	return e.Message
}

func (e *Error) Unwrap() error { return e.Cause }

// invalidInput reports a field the client must correct.
func invalidInput(field string, cause error) *Error {
	return &Error{Code: CodeInvalidInput, Message: fmt.Sprintf("Donnée invalide (%s) : %v", field, cause), Cause: cause}
}

// PresentError turns any resolver error into a GraphQL error with a code:
// API errors keep theirs, domain errors are translated by the registered
// translators, anything else is INTERNAL with a generic message (the
// detail goes to the logs, never to the client).
func PresentError(ctx context.Context, err error) *gqlerror.Error {
	gqlErr := graphql.DefaultErrorPresenter(ctx, err)
	var apiErr *Error
	if !errors.As(err, &apiErr) {
		apiErr = translate(err)
	}
	gqlErr.Message = sansEcho(ctx, apiErr.Message)
	ext := map[string]any{"code": string(apiErr.Code)}
	for k, v := range apiErr.Extra {
		ext[k] = v
	}
	gqlErr.Extensions = ext
	return gqlErr
}

// translate maps errors of the domain to API errors: a conflict carries the
// current version; a refused command keeps its domain code and message.
func translate(err error) *Error {
	if errors.Is(err, eventstore.ErrCleReutilisee) {
		return &Error{Code: CodeIdempotencyKeyReused, Message: "clientMutationId déjà utilisé pour une autre requête", Cause: err}
	}
	if v, ok := eventstore.VersionOf(err); ok {
		return &Error{Code: CodeConflict, Message: fmt.Sprintf("modifié entre-temps : la version actuelle est %d, recharger", v),
			Cause: err, Extra: map[string]any{"version": v}}
	}
	var dupErr *duplicate.Erreur
	if errors.As(err, &dupErr) {
		return &Error{Code: Code(dupErr.Code), Message: dupErr.Message, Cause: err}
	}
	var appelErr *appel.Erreur
	if errors.As(err, &appelErr) {
		return &Error{Code: Code(appelErr.Code), Message: appelErr.Message, Cause: err}
	}
	var tErr *tournoi.Erreur
	if errors.As(err, &tErr) {
		return &Error{Code: Code(tErr.Code), Message: tErr.Message, Cause: err}
	}
	var matchErr *partie.Erreur
	if errors.As(err, &matchErr) {
		return erreurClassique(string(matchErr.Code), matchErr.Message, err)
	}
	var rondeErr *ronde.Erreur
	if errors.As(err, &rondeErr) {
		return erreurClassique(string(rondeErr.Code), rondeErr.Message, err)
	}
	var accesErr *acces.Error
	if errors.As(err, &accesErr) {
		return accesError(err).(*Error)
	}
	var gqlErr *gqlerror.Error
	if errors.As(err, &gqlErr) && gqlErr.Extensions["code"] != nil {
		// Validation and parsing errors of gqlgen keep their own code.
		return &Error{Code: Code(fmt.Sprint(gqlErr.Extensions["code"])), Message: gqlErr.Message}
	}
	if eventstore.CodeOf(err) == eventstore.CodeInvalidArgument {
		// Unless the domain said otherwise above: a stream name is made of
		// a client's id, and one the store cannot name is his to correct.
		return &Error{Code: CodeInvalidInput, Message: "identifiant invalide : lettres, chiffres, « - » et « _ » seulement", Cause: err}
	}
	return &Error{Code: CodeInternal, Message: "Erreur interne du serveur", Cause: err}
}
