// Package erreur is the refused command of every aggregate and of the API: a
// stable UPPER_SNAKE code a client can act on, a complete message in French,
// the details a client needs to act (they become GraphQL extensions) and an
// optional cause. It is the one error type that reaches a client, built
// with the one constructor Refus (RefusCause with a cause) and read with
// CodeOf; every package uses it as it is and declares its codes as
// erreur.Code constants, all listed in schema/erreurs.graphqls and
// docs/erreurs.md.
package erreur

import (
	"errors"
	"fmt"
)

// Code is the stable identifier a client reads in extensions.code.
type Code string

// The codes every package may return; packages alias the ones they use.
const (
	// CodeInvalidInput: a value the client must correct (Details "champ").
	CodeInvalidInput Code = "INVALID_INPUT"
	// CodeUnauthenticated: no valid token.
	CodeUnauthenticated Code = "UNAUTHENTICATED"
	// CodeForbidden: the token does not allow this action.
	CodeForbidden Code = "FORBIDDEN"
	// CodeNotFound: the named object does not exist.
	CodeNotFound Code = "NOT_FOUND"
	// CodeAlreadyExists: an object with this id already exists.
	CodeAlreadyExists Code = "ALREADY_EXISTS"
	// CodeConflict: the object changed since the client read it (Details
	// "version" when the current version is known).
	CodeConflict Code = "CONFLICT"
	// CodeCorruptHistory: the stored events cannot be replayed.
	CodeCorruptHistory Code = "CORRUPT_HISTORY"
	// CodeLexiqueAbsent: the game was created under a lexicon the server
	// has not loaded (Details "lexique": the label to load).
	CodeLexiqueAbsent Code = "LEXICON_NOT_LOADED"
	// CodeInternal: a failure of the server; the detail goes to the logs.
	CodeInternal Code = "INTERNAL"
)

// Erreur is a refused command; it records nothing and changes nothing.
type Erreur struct {
	Code Code
	// Message is for people: French, complete, without technical words.
	Message string
	// Details go into the GraphQL extensions beside the code (e.g. the
	// current version on CONFLICT, the field on INVALID_INPUT, the
	// technical detail under "detail").
	Details map[string]any
	Err     error
}

func (e *Erreur) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Err)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

// Unwrap returns the cause, so errors.As still finds, for instance, an
// *eventstore.ConflictError behind a CONFLICT.
func (e *Erreur) Unwrap() error { return e.Err }

// Is matches any *Erreur with the same code, so errors.Is(err, sentinel)
// works whatever the message.
func (e *Erreur) Is(target error) bool {
	t, ok := target.(*Erreur)
	return ok && t.Code == e.Code
}

// ErrorCode returns the stable code.
func (e *Erreur) ErrorCode() Code { return e.Code }

// Avec returns the refusal with one more detail for the client.
func (e *Erreur) Avec(cle string, valeur any) *Erreur {
	details := make(map[string]any, len(e.Details)+1)
	for k, v := range e.Details {
		details[k] = v
	}
	details[cle] = valeur
	copie := *e
	copie.Details = details
	return &copie
}

// Refus builds a refusal with a formatted message.
func Refus(code Code, format string, args ...any) error {
	return &Erreur{Code: code, Message: fmt.Sprintf(format, args...)}
}

// RefusCause builds a refusal wrapping its cause.
func RefusCause(code Code, cause error, format string, args ...any) error {
	return &Erreur{Code: code, Message: fmt.Sprintf(format, args...), Err: cause}
}

// CodeOf returns the code of a refusal, or "" for any other error.
func CodeOf(err error) Code {
	var e *Erreur
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// Lexique is a word list as a refusal names it: its label (in the details)
// and its identity for people (in the message). The engine's
// lexicon.Identite is one; erreur imports nothing of the module.
type Lexique interface {
	fmt.Stringer
	Etiquette() string
}

// LexiqueAbsent refuses to act on a game whose lexicon is not loaded:
// judging it with another list would change its tops and its bulletins.
func LexiqueAbsent(id Lexique) *Erreur {
	return &Erreur{Code: CodeLexiqueAbsent, Details: map[string]any{"lexique": id.Etiquette()},
		Message: fmt.Sprintf("La partie se joue avec le lexique %s, que ce serveur n'a pas chargé : relancer le serveur avec --lexicon vers ce lexique", id)}
}
