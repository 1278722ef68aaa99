package ronde

import (
	"errors"
	"fmt"
)

// Code is the stable slug of a refused command.
type Code string

// The refusal codes of the tournament aggregate.
const (
	CodeInvalidTournoi   Code = "classique.tournoi.invalid"
	CodeWrongState       Code = "classique.tournoi.wrong_state"
	CodeInvalidPlayer    Code = "classique.tournoi.invalid_player"
	CodeUnknownPlayer    Code = "classique.tournoi.unknown_player"
	CodeRoundIncomplete  Code = "classique.tournoi.round_incomplete"
	CodePairingFailed    Code = "classique.tournoi.pairing_failed"
	CodeInvalidPairing   Code = "classique.tournoi.invalid_pairing"
	CodeInvalidResult    Code = "classique.tournoi.invalid_result"
	CodeAlreadyWithdrawn Code = "classique.tournoi.already_withdrawn"
	CodeCorruptHistory   Code = "classique.tournoi.corrupt_history"
	CodeConflict         Code = "classique.tournoi.conflict"
	CodeNotFound         Code = "classique.tournoi.not_found"
)

// Erreur is a refused command; it records nothing.
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

// Is matches any *Erreur with the same code.
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

// CodeOf returns the code of a refused command, or "".
func CodeOf(err error) Code {
	var e *Erreur
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}
