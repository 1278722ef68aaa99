// Package erreur is the refused command of every aggregate: a stable code a
// client can act on, a message in the federation's words and an optional
// cause. Each domain package names its own codes (a string type) and
// aliases Erreur to its instantiation, so errors.As and errors.Is work per
// package.
package erreur

import (
	"errors"
	"fmt"
)

// Erreur is a refused command; it records nothing and changes nothing.
type Erreur[C ~string] struct {
	Code    C
	Message string
	Err     error
}

func (e *Erreur[C]) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Err)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

// Unwrap returns the cause, so errors.As still finds, for instance, an
// *eventstore.ConflictError behind a CONFLICT.
func (e *Erreur[C]) Unwrap() error { return e.Err }

// Is matches any *Erreur of the same code type with the same code, so
// errors.Is(err, sentinel) works whatever the message.
func (e *Erreur[C]) Is(target error) bool {
	t, ok := target.(*Erreur[C])
	return ok && t.Code == e.Code
}

// ErrorCode returns the stable code.
func (e *Erreur[C]) ErrorCode() C { return e.Code }

// Refus builds a refusal with a formatted message.
func Refus[C ~string](code C, format string, args ...any) error {
	return &Erreur[C]{Code: code, Message: fmt.Sprintf(format, args...)}
}

// RefusCause builds a refusal wrapping its cause.
func RefusCause[C ~string](code C, cause error, format string, args ...any) error {
	return &Erreur[C]{Code: code, Message: fmt.Sprintf(format, args...), Err: cause}
}

// CodeOf returns the code of a refusal of code type C, or "" for any other
// error.
func CodeOf[C ~string](err error) C {
	var e *Erreur[C]
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}
