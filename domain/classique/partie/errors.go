package partie

import (
	"errors"
	"fmt"
)

// Code is the stable slug of a refused command; clients rely on it, the
// message may change.
type Code string

// The refusal codes of the match aggregate.
const (
	CodeInvalidMatch      Code = "classique.match.invalid"
	CodeAlreadyCreated    Code = "classique.match.already_created"
	CodeUnknownPlayer     Code = "classique.match.unknown_player"
	CodeWrongPhase        Code = "classique.match.wrong_phase"
	CodeNotYourTurn       Code = "classique.match.not_your_turn"
	CodeDrawPending       Code = "classique.match.draw_pending"
	CodeInvalidDraw       Code = "classique.match.invalid_draw"
	CodeInvalidPlacement  Code = "classique.match.invalid_placement"
	CodeExchangeRefused   Code = "classique.match.exchange_refused"
	CodeTimeExhausted     Code = "classique.match.time_exhausted"
	CodeEndPending        Code = "classique.match.end_pending"
	CodeNothingToContest  Code = "classique.match.nothing_to_contest"
	CodeInvalidContest    Code = "classique.match.invalid_contest"
	CodeBlockageRefused   Code = "classique.match.blockage_refused"
	CodeInvalidPenalty    Code = "classique.match.invalid_penalty"
	CodeAbandonRefused    Code = "classique.match.abandon_refused"
	CodeInvalidSheet      Code = "classique.match.invalid_sheet"
	CodeCorruptHistory    Code = "classique.match.corrupt_history"
	CodeConflict          Code = "classique.match.conflict"
	CodeNotFound          Code = "classique.match.not_found"
	CodeInvalidDesignator Code = "classique.match.invalid_designation"
)

// Erreur is a refused command: a stable code, a message and an optional
// cause. A refused command records nothing and changes nothing.
type Erreur struct {
	Code    Code
	Message string
	Err     error
}

func (e *Erreur) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Err)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

// Unwrap returns the cause.
func (e *Erreur) Unwrap() error { return e.Err }

// Is matches any *Erreur with the same code, so errors.Is(err, &Erreur{Code: c}) works.
func (e *Erreur) Is(target error) bool {
	t, ok := target.(*Erreur)
	return ok && t.Code == e.Code
}

func refus(code Code, format string, args ...any) error {
	return &Erreur{Code: code, Message: fmt.Sprintf(format, args...)}
}

func refusCause(code Code, cause error, format string, args ...any) error {
	return &Erreur{Code: code, Message: fmt.Sprintf(format, args...), Err: cause}
}

// CodeOf returns the code of a refused command, or "" for any other error.
func CodeOf(err error) Code {
	var e *Erreur
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}
