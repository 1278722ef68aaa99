package eventstore

import (
	"errors"
	"fmt"
)

// Code is a stable, machine-readable kind of store failure, for the
// domain's adapters and the command-line tools. These kinds (and Error)
// are internal: they never reach an API client as such. The API
// (graphql/errors.go) translates them into erreur.Erreur codes — a
// conflict into CONFLICT, an id the store cannot name into INVALID_INPUT,
// anything else into INTERNAL — and the domain wraps them in its own
// refusals.
type Code string

// Error codes of the event store.
const (
	CodeConflict            Code = "eventstore.conflict"
	CodeDuplicateEventID    Code = "eventstore.duplicate_event_id"
	CodeInvalidArgument     Code = "eventstore.invalid_argument"
	CodeInvalidEvent        Code = "eventstore.invalid_event"
	CodeUnknownEventType    Code = "eventstore.unknown_event_type"
	CodeFutureSchemaVersion Code = "eventstore.future_schema_version"
	CodeMalformedPayload    Code = "eventstore.malformed_payload"
	CodeCorruptStore        Code = "eventstore.corrupt_store"
	CodeForeignEvent        Code = "eventstore.foreign_event"
	CodeUnavailable         Code = "eventstore.unavailable"
	CodeClosed              Code = "eventstore.closed"
	CodeTampered            Code = "eventstore.tampered"
	CodeKeyReused           Code = "eventstore.key_reused"
)

// Sentinels for errors.Is. Every error of this package and of the backends
// matches the sentinel of its code.
var (
	ErrConflict            = &Error{Code: CodeConflict}
	ErrDuplicateEventID    = &Error{Code: CodeDuplicateEventID}
	ErrInvalidArgument     = &Error{Code: CodeInvalidArgument}
	ErrInvalidEvent        = &Error{Code: CodeInvalidEvent}
	ErrUnknownEventType    = &Error{Code: CodeUnknownEventType}
	ErrFutureSchemaVersion = &Error{Code: CodeFutureSchemaVersion}
	ErrMalformedPayload    = &Error{Code: CodeMalformedPayload}
	ErrCorruptStore        = &Error{Code: CodeCorruptStore}
	ErrUnavailable         = &Error{Code: CodeUnavailable}
	ErrClosed              = &Error{Code: CodeClosed}
	ErrTampered            = &Error{Code: CodeTampered}
	// ErrKeyReused is an append refused because its idempotency key
	// served another request (BoundKeys); idempotency.ErrKeyReused is
	// the same error.
	ErrKeyReused = &Error{Code: CodeKeyReused, Message: "client mutation id already used for another request"}
)

// Error is an event store error with a stable code, a message and an
// optional cause.
type Error struct {
	Code    Code
	Message string
	Err     error
}

func newError(code Code, message string, cause error) *Error {
	return &Error{Code: code, Message: message, Err: cause}
}

// NewError builds an *Error; backends use it so every failure has a code.
func NewError(code Code, message string, cause error) error {
	return newError(code, message, cause)
}

func (e *Error) Error() string {
	msg := string(e.Code)
	if e.Message != "" {
		msg += ": " + e.Message
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Is matches any *Error with the same code, so errors.Is(err, ErrConflict)
// works whatever the message.
func (e *Error) Is(target error) bool {
	var t *Error
	return errors.As(target, &t) && t.Code == e.Code
}

// ErrorCode returns the stable code.
func (e *Error) ErrorCode() Code { return e.Code }

// ConflictError is returned when an append's expected revision does not
// match the stream. Nothing was written.
type ConflictError struct {
	Stream   string
	Expected ExpectedRevision
	// Current is the revision of the last event of the stream; meaningful
	// only when StreamExists is true.
	Current      uint64
	StreamExists bool
}

func (e *ConflictError) Error() string {
	current := "no stream"
	if e.StreamExists {
		current = "revision " + uitoa(e.Current)
	}
	return fmt.Sprintf("%s: stream %s: expected %s, found %s", CodeConflict, e.Stream, e.Expected, current)
}

// Is matches ErrConflict.
func (e *ConflictError) Is(target error) bool { return target == ErrConflict }

// ErrorCode returns CodeConflict.
func (e *ConflictError) ErrorCode() Code { return CodeConflict }

// UnknownEventTypeError is returned when an event type has no registration.
type UnknownEventTypeError struct {
	Type string
}

func (e *UnknownEventTypeError) Error() string {
	return fmt.Sprintf("%s: event type %q is not registered", CodeUnknownEventType, e.Type)
}

// Is matches ErrUnknownEventType.
func (e *UnknownEventTypeError) Is(target error) bool { return target == ErrUnknownEventType }

// ErrorCode returns CodeUnknownEventType.
func (e *UnknownEventTypeError) ErrorCode() Code { return CodeUnknownEventType }

// FutureSchemaVersionError is returned when a payload was written by a newer
// version of Arbitre than the one reading it.
type FutureSchemaVersionError struct {
	Type      string
	Version   int
	Supported int
}

func (e *FutureSchemaVersionError) Error() string {
	return fmt.Sprintf("%s: event type %q has schema version %d, this build reads up to %d", CodeFutureSchemaVersion, e.Type, e.Version, e.Supported)
}

// Is matches ErrFutureSchemaVersion.
func (e *FutureSchemaVersionError) Is(target error) bool { return target == ErrFutureSchemaVersion }

// ErrorCode returns CodeFutureSchemaVersion.
func (e *FutureSchemaVersionError) ErrorCode() Code { return CodeFutureSchemaVersion }

// CodeOf returns the stable code of an error from this package or a backend,
// or "" for any other error.
func CodeOf(err error) Code {
	var coded interface{ ErrorCode() Code }
	if errors.As(err, &coded) {
		return coded.ErrorCode()
	}
	return ""
}
