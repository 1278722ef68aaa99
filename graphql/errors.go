package graphql

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/idempotency"
	"arbitre/engine/tile"
	"arbitre/graphql/generated"
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
	// CodeRateLimited: too many requests (graphql/server's limit per token
	// and address), or bundles from one centre (debitCentres).
	CodeRateLimited Code = "RATE_LIMITED"
	// CodeJournalAltere: an event read as evidence no longer matches the
	// hash chain of the log (issue 16).
	CodeJournalAltere Code = "LOG_TAMPERED"
	// CodeTimeout: the operation passed its deadline (server.Delais).
	CodeTimeout Code = "TIMEOUT"
	// CodeUnavailable: a read model had not applied the events recorded
	// when the read arrived (a projection late past the operation's
	// deadline, or parked): nothing stale is answered; or the store could
	// not read or commit (a full disk): nothing is recorded.
	CodeUnavailable Code = "UNAVAILABLE"
)

// invalidInput reports a field the client must correct: a refusal's French
// message completes the sentence; any other cause (a parser's) goes to
// extensions.detail.
func invalidInput(field string, cause error) *erreur.Erreur {
	var refus *erreur.Erreur
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
func refusal(field, rule string, cause error) *erreur.Erreur {
	return &erreur.Erreur{Code: CodeInvalidInput, Message: fmt.Sprintf("Donnée invalide (« %s ») : %s", field, rule),
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
	if ancien, ok := erreur.AncienNom(e.Code); ok {
		ext["ancienCode"] = string(ancien)
	}
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
func translate(ctx context.Context, err error) *erreur.Erreur {
	if errors.Is(err, context.DeadlineExceeded) {
		return &erreur.Erreur{Code: CodeTimeout, Message: "Délai dépassé : la requête a pris trop de temps, la découper ou la renvoyer", Err: err}
	}
	if errors.Is(err, idempotency.ErrKeyReused) {
		return &erreur.Erreur{Code: CodeIdempotencyKeyReused, Message: "clientMutationId déjà utilisé pour une autre requête", Err: err}
	}
	if errors.Is(err, eventstore.ErrTampered) {
		return &erreur.Erreur{Code: CodeJournalAltere, Err: err,
			Message: "Le journal des événements a été modifié : cette partie ne peut plus servir de preuve ; lancer « arbitre store verify »"}
	}
	if eventstore.CodeOf(err) == eventstore.CodeUnavailable {
		// Checked before gqlgen's wrapper (every resolver error comes
		// wrapped with its path): a full disk is not the client's input.
		if errors.Is(err, eventstore.ErrOutcomeUnknown) {
			return &erreur.Erreur{Code: CodeUnavailable, Err: err, Message: "Journal des événements indisponible (écriture sur disque en échec) : " +
				"l'enregistrement de cette requête n'est pas certain ; la renvoyer plus tard avec le même clientMutationId, elle ne sera jamais appliquée deux fois"}
		}
		return &erreur.Erreur{Code: CodeUnavailable, Err: err, Message: "Journal des événements indisponible (disque plein, erreur d'écriture ou de lecture, serveur qui s'arrête) : " +
			"rien n'est enregistré par cette requête ; la renvoyer plus tard (une mutation avec le même clientMutationId)"}
	}
	var refus *erreur.Erreur
	if errors.As(err, &refus) && refus.Code != CodeConflict {
		return refus
	}
	if v, ok := idempotency.VersionOf(err); ok || refus != nil {
		return conflit(ctx, refus, v, ok, err)
	}
	var gqlErr *gqlerror.Error
	if errors.As(err, &gqlErr) && !cheminDeResolveur(err, gqlErr) {
		return erreurGraphQL(gqlErr)
	}
	if eventstore.CodeOf(err) == eventstore.CodeInvalidArgument {
		// A stream name is made of a client's id, and one the store
		// cannot name is his to correct.
		return &erreur.Erreur{Code: CodeInvalidInput, Message: "Identifiant invalide : lettres, chiffres, « - » et « _ » seulement", Err: err}
	}
	return &erreur.Erreur{Code: CodeInternal, Message: "Erreur interne du serveur", Err: err}
}

// deResolveur is an error a resolver (or a directive) returned, as
// FieldMiddleware marks it: gqlgen wraps it with its path exactly like an
// argument it could not read, and one without a code of its own is the
// server's failure (a store read, a bug), not the client's.
type deResolveur struct{ err error }

func (e *deResolveur) Error() string { return e.err.Error() }
func (e *deResolveur) Unwrap() error { return e.err }

// cheminDeResolveur tells that gqlErr is only gqlgen's path around an
// error a resolver returned (no code, the resolver's error inside).
func cheminDeResolveur(err error, gqlErr *gqlerror.Error) bool {
	var r *deResolveur
	return gqlErr.Extensions["code"] == nil && errors.As(err, &r)
}

// FieldMiddleware is the API's one field middleware (AroundFields): it
// checks the field's arguments before its resolver runs (verifierEntrees),
// then marks the errors resolvers and directives return (deResolveur), so
// that PresentError does not take one without a code for an argument
// gqlgen could not read (INVALID_INPUT): it is INTERNAL. A list of GraphQL
// errors is left as it is (gqlgen reports each). One middleware, not two:
// gqlgen runs it for every field of every answer.
func FieldMiddleware(ctx context.Context, next graphql.Resolver) (any, error) {
	res, err := verifierEntrees(ctx, next)
	if _, liste := err.(gqlerror.List); err != nil && !liste {
		err = &deResolveur{err: err}
	}
	return res, err
}

// conflit says what to do about a concurrent change: a client that sent the
// version it read reloads; one that did not (the server already retried)
// sends the same request again with the same clientMutationId, which is
// never applied twice. The current version, when known, is in
// extensions.version.
func conflit(ctx context.Context, refus *erreur.Erreur, version int, connue bool, err error) *erreur.Erreur {
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
	return &erreur.Erreur{Code: CodeConflict, Message: msg, Details: details, Err: err}
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
	return idempotency.CommandFrom(ctx).Version != nil
}

// erreurGraphQL gives gqlgen's own errors (English, about the request's
// text) a French message; their text goes to extensions.detail. One without
// a code wrapping a cause is an argument gqlgen could not read; without a
// cause, a failure (a recovered panic). Errors of the server's extensions
// (depth, introspection) already speak French.
func erreurGraphQL(gqlErr *gqlerror.Error) *erreur.Erreur {
	code := Code(fmt.Sprint(gqlErr.Extensions["code"]))
	detail := map[string]any{"detail": gqlErr.Message}
	switch code {
	case CodeParseFailed:
		return &erreur.Erreur{Code: code, Message: "Requête GraphQL illisible : vérifier la syntaxe", Details: detail}
	case CodeValidationFailed:
		if refus := enumInconnu(gqlErr); refus != nil {
			return refus
		}
		return &erreur.Erreur{Code: code, Message: "Requête GraphQL non conforme au schéma : vérifier les champs, les arguments et leurs types", Details: detail}
	case "<nil>":
		if gqlErr.Err == nil {
			return &erreur.Erreur{Code: CodeInternal, Message: "Erreur interne du serveur", Err: gqlErr}
		}
		return &erreur.Erreur{Code: CodeInvalidInput, Message: "Requête GraphQL refusée : vérifier les arguments", Details: detail, Err: gqlErr}
	}
	details := map[string]any{}
	for k, v := range gqlErr.Extensions {
		if k != "code" {
			details[k] = v
		}
	}
	return &erreur.Erreur{Code: code, Message: gqlErr.Message, Details: details}
}

// gqlparser's messages for an enum value the schema does not list: a
// literal, a variable's value, and a string literal.
var (
	enumLitteral = regexp.MustCompile(`^Value "([^"]*)" does not exist in "\[*([A-Za-z_0-9]+)[\]!]*" enum\.`)
	enumVariable = regexp.MustCompile(`^(.*) is not a valid ([A-Za-z_0-9]+)$`)
	enumChaine   = regexp.MustCompile(`^Enum "\[*([A-Za-z_0-9]+)[\]!]*" cannot represent non-enum value: "?(.*?)"?\.`)
)

// enumInconnu is the INVALID_INPUT of an enum value the schema does not
// list (issue 26 item 8), with the values allowed, as graphql/server's
// exactEnums says it of a value that differs only in case; nil for any
// other validation error.
func enumInconnu(gqlErr *gqlerror.Error) *erreur.Erreur {
	var valeur, enum, champ string
	if m := enumLitteral.FindStringSubmatch(gqlErr.Message); m != nil {
		valeur, enum = m[1], m[2]
	} else if m := enumVariable.FindStringSubmatch(gqlErr.Message); m != nil {
		valeur, enum = m[1], m[2]
	} else if m := enumChaine.FindStringSubmatch(gqlErr.Message); m != nil {
		valeur, enum = m[2], m[1]
	} else {
		return nil
	}
	def := generated.NewExecutableSchema(generated.Config{}).Schema().Types[enum]
	if def == nil || len(def.EnumValues) == 0 {
		return nil
	}
	champ = def.Name
	if len(gqlErr.Path) > 1 && gqlErr.Path[0] == ast.PathName("variable") {
		champ = "$" + strings.TrimPrefix(gqlErr.Path[1:].String(), ".")
	}
	return RefusEnum(def, valeur, champ)
}

// RefusEnum is the INVALID_INPUT of value, which the enum def does not list,
// sent as champ: the field, the value and the values allowed.
func RefusEnum(def *ast.Definition, valeur, champ string) *erreur.Erreur {
	if r := []rune(valeur); len(r) > 32 { // a client's input is not echoed at length
		valeur = string(r[:32]) + "…"
	}
	permises := make([]string, len(def.EnumValues))
	for i, v := range def.EnumValues {
		permises[i] = v.Name
	}
	return &erreur.Erreur{Code: CodeInvalidInput, Details: map[string]any{"champ": champ, "permises": permises},
		Message: fmt.Sprintf("Donnée invalide (« %s ») : valeur %q inconnue de %s ; valeurs permises : %s", champ, valeur, def.Name, strings.Join(permises, ", "))}
}
