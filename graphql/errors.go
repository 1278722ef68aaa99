package graphql

import (
	"context"
	"errors"
	"fmt"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/engine/tile"
)

// Code is the stable error code clients read in extensions.code; every
// code is listed in schema/erreurs.graphqls and docs/erreurs.md.
type Code = erreur.Code

// The codes of the API itself, beside the domain's.
const (
	CodeInvalidInput    = erreur.CodeInvalidInput
	CodeUnauthenticated = erreur.CodeUnauthenticated
	CodeForbidden       = erreur.CodeForbidden
	CodeNotFound        = erreur.CodeNotFound
	CodeConflict        = erreur.CodeConflict
	CodeInternal        = erreur.CodeInternal
	// CodeValidationFailed: the request does not fit the schema.
	CodeValidationFailed Code = "GRAPHQL_VALIDATION_FAILED"
	// CodeParseFailed: the request is not GraphQL.
	CodeParseFailed Code = "GRAPHQL_PARSE_FAILED"
	// CodeJournalAltere: an event read as evidence no longer matches the
	// hash chain of the log (issue 16).
	CodeJournalAltere Code = "JOURNAL_ALTERE"
	// CodeTimeout: the operation passed its deadline (server.Delais).
	CodeTimeout Code = "TIMEOUT"
)

// Error is the one error type of the API: a code, a French message a
// director can read, the details a client acts on and the cause for the
// logs.
type Error = erreur.Erreur

// invalidInput reports a field the client must correct: a refusal's French
// message completes the sentence; any other cause (a parser's) goes to
// extensions.detail.
func invalidInput(field string, cause error) *Error {
	var refus *Error
	if errors.As(cause, &refus) {
		return refusal(field, refus.Message, cause)
	}
	var lecture *tile.ErreurLecture
	if errors.As(cause, &lecture) {
		return refusal(field, lecture.Error(), cause)
	}
	return refusal(field, "valeur illisible", cause).Avec("detail", cause.Error())
}

// refusal is the INVALID_INPUT of a field: its name « quoted » (and in
// extensions.champ) and the rule it breaks, without repeating the input.
func refusal(field, rule string, cause error) *Error {
	return &Error{Code: CodeInvalidInput, Message: fmt.Sprintf("Donnée invalide (« %s ») : %s", field, rule),
		Details: map[string]any{"champ": field}, Err: cause}
}

// PresentError turns any resolver error into a GraphQL error with a code:
// a refusal (erreur.Erreur) keeps its code, message and details; store
// conflicts, gqlgen's own errors and invalid stream names are given theirs;
// anything else is INTERNAL with a generic message (the detail goes to the
// logs, never to the client).
func PresentError(ctx context.Context, err error) *gqlerror.Error {
	gqlErr := graphql.DefaultErrorPresenter(ctx, err)
	e := translate(ctx, err)
	gqlErr.Message = sansEcho(ctx, e.Message)
	ext := map[string]any{"code": string(e.Code)}
	for k, v := range e.Details {
		ext[k] = v
	}
	if detail, ok := ext["detail"].(string); ok {
		ext["detail"] = sansEcho(ctx, detail)
	}
	gqlErr.Extensions = ext
	return gqlErr
}

// translate gives any error its refusal: the one path from errors to the
// client.
func translate(ctx context.Context, err error) *Error {
	if errors.Is(err, context.DeadlineExceeded) {
		return &Error{Code: CodeTimeout, Message: "Délai dépassé : la requête a pris trop de temps, la découper ou la renvoyer", Err: err}
	}
	if errors.Is(err, eventstore.ErrCleReutilisee) {
		return &Error{Code: CodeIdempotencyKeyReused, Message: "clientMutationId déjà utilisé pour une autre requête", Err: err}
	}
	if errors.Is(err, eventstore.ErrTampered) {
		return &Error{Code: CodeJournalAltere, Err: err,
			Message: "Le journal des événements a été modifié : cette partie ne peut plus servir de preuve ; lancer « arbitre store verify »"}
	}
	var refus *Error
	if errors.As(err, &refus) && refus.Code != CodeConflict {
		return refus
	}
	if v, ok := eventstore.VersionOf(err); ok || refus != nil {
		return conflit(ctx, refus, v, ok, err)
	}
	var gqlErr *gqlerror.Error
	if errors.As(err, &gqlErr) {
		return erreurGraphQL(gqlErr)
	}
	if eventstore.CodeOf(err) == eventstore.CodeInvalidArgument {
		// A stream name is made of a client's id, and one the store
		// cannot name is his to correct.
		return &Error{Code: CodeInvalidInput, Message: "Identifiant invalide : lettres, chiffres, « - » et « _ » seulement", Err: err}
	}
	return &Error{Code: CodeInternal, Message: "Erreur interne du serveur", Err: err}
}

// conflit says what to do about a concurrent change: a client that sent the
// version it read reloads; one that did not (the server already retried)
// sends the same request again with the same clientMutationId, which is
// never applied twice. The current version, when known, is in
// extensions.version.
func conflit(ctx context.Context, refus *Error, version int, connue bool, err error) *Error {
	details := map[string]any{}
	if refus != nil {
		for k, v := range refus.Details {
			details[k] = v
		}
	}
	if _, ok := details["version"]; !ok && connue {
		details["version"] = version
	}
	msg := "Modifié entre-temps par une autre requête, rien n'a été enregistré : renvoyer la même requête avec le même clientMutationId"
	if versionEnvoyee(ctx) {
		msg = "Modifié entre-temps : la version envoyée n'est plus la version actuelle, recharger avant de recommencer"
	}
	return &Error{Code: CodeConflict, Message: msg, Details: details, Err: err}
}

// versionEnvoyee reports that the client sent the version it read: the
// mutation's version (or, on an appeal, revision) argument, or the command
// envelope's.
func versionEnvoyee(ctx context.Context) bool {
	if fc := graphql.GetFieldContext(ctx); fc != nil {
		for _, arg := range []string{"version", "revision"} {
			if v, ok := fc.Args[arg].(*int); ok && v != nil {
				return true
			}
		}
	}
	return eventstore.CommandeDe(ctx).Version != nil
}

// erreurGraphQL gives gqlgen's own errors (English, about the request's
// text) a French message; their text goes to extensions.detail. One without
// a code wrapping a cause is an argument gqlgen could not read; without a
// cause, a failure (a recovered panic). Errors of the server's extensions
// (depth, introspection) already speak French.
func erreurGraphQL(gqlErr *gqlerror.Error) *Error {
	code := Code(fmt.Sprint(gqlErr.Extensions["code"]))
	detail := map[string]any{"detail": gqlErr.Message}
	switch code {
	case CodeParseFailed:
		return &Error{Code: code, Message: "Requête GraphQL illisible : vérifier la syntaxe", Details: detail}
	case CodeValidationFailed:
		return &Error{Code: code, Message: "Requête GraphQL non conforme au schéma : vérifier les champs, les arguments et leurs types", Details: detail}
	case "<nil>":
		if gqlErr.Err == nil {
			return &Error{Code: CodeInternal, Message: "Erreur interne du serveur", Err: gqlErr}
		}
		return &Error{Code: CodeInvalidInput, Message: "Requête GraphQL refusée : vérifier les arguments", Details: detail, Err: gqlErr}
	}
	return &Error{Code: code, Message: gqlErr.Message}
}
