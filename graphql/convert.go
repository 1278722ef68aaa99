package graphql

import (
	"errors"

	"arbitre/domain/acces"
	"arbitre/domain/eventstore"
)

func deref[T ~string](s *T) T {
	if s == nil {
		return ""
	}
	return *s
}

func optional[T ~string](s T) *T {
	if s == "" {
		return nil
	}
	return &s
}

// actor is the event metadata of a request made with h.
func actor(h acces.Habilitation) eventstore.Metadata {
	return eventstore.Metadata{Actor: "jeton:" + h.JetonID, Role: string(h.Role)}
}

// accesError gives an access decision its API code.
func accesError(err error) error {
	var ae *acces.Error
	if !errors.As(err, &ae) {
		return err
	}
	code := CodeInvalidInput
	switch ae.Code {
	case acces.CodeForbidden:
		code = CodeForbidden
	case acces.CodeNotFound:
		code = CodeNotFound
	}
	return &Error{Code: code, Message: ae.Message, Cause: err}
}
