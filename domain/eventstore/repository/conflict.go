package repository

import (
	"errors"

	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
)

// Conflict is the one mapping of a save a concurrent writer overtook: err
// as the refusal CONFLICT worded by format (the store's
// *eventstore.ConflictError stays its cause, so the use-case runner still
// decides again on it); any other error, nil included, as it is.
func Conflict(err error, format string, args ...any) error {
	if !errors.Is(err, eventstore.ErrConflict) {
		return err
	}
	return erreur.RefusCause(erreur.CodeConflict, err, format, args...)
}
