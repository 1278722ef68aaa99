package acces

import "arbitre/domain/erreur"

// Code is a stable error code.
type Code = erreur.Code

// The codes of access decisions. A malformed role, table list, duration or
// tournament is INVALID_INPUT naming its field in Details["champ"].
const (
	CodeInvalidInput         = erreur.CodeInvalidInput
	CodeUnauthenticated      = erreur.CodeUnauthenticated
	CodeExpiredToken    Code = "TOKEN_EXPIRED"
	CodeForbidden            = erreur.CodeForbidden
	CodeNotFound             = erreur.CodeNotFound
)

// invalide refuses a malformed value of field champ.
func invalide(champ, message string) *erreur.Erreur {
	return &erreur.Erreur{Code: CodeInvalidInput, Message: message, Details: map[string]any{"champ": champ}}
}
