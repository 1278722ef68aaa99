package acces

import "arbitre/domain/erreur"

// Code is a stable error code.
type Code = erreur.Code

// The codes of access decisions. A malformed role, table list, duration or
// tournament is INVALID_INPUT naming its field in Details["champ"].
const (
	CodeInvalidInput      = erreur.CodeInvalidInput
	CodeUnknownToken      = erreur.CodeUnauthenticated
	CodeExpiredToken Code = "TOKEN_EXPIRED"
	CodeForbidden         = erreur.CodeForbidden
	CodeNotFound          = erreur.CodeNotFound
)

// Error is an access error with a French message for the client.
type Error = erreur.Erreur

// invalide refuses a malformed value of field champ.
func invalide(champ, message string) *Error {
	return &Error{Code: CodeInvalidInput, Message: message, Details: map[string]any{"champ": champ}}
}
