package ronde

import (
	"arbitre/domain/erreur"
)

// Code is the stable code of a refused command.
type Code = erreur.Code

// The refusal codes of the tournament aggregate.
const (
	CodeInvalidTournoi        = erreur.CodeInvalidInput
	CodeWrongState       Code = "WRONG_STATE"
	CodeInvalidPlayer    Code = "INVALID_PLAYER"
	CodeUnknownPlayer    Code = "UNKNOWN_PLAYER"
	CodeRoundIncomplete  Code = "ROUND_INCOMPLETE"
	CodePairingFailed    Code = "PAIRING_FAILED"
	CodeInvalidPairing   Code = "INVALID_PAIRING"
	CodeInvalidResult    Code = "INVALID_RESULT"
	CodeAlreadyWithdrawn Code = "ALREADY_WITHDRAWN"
	CodeCorruptHistory        = erreur.CodeCorruptHistory
	CodeConflict              = erreur.CodeConflict
	CodeNotFound              = erreur.CodeNotFound
	// CodeIdTaken refuses an id a duplicate tournament already uses.
	CodeIdTaken Code = "TOURNAMENT_ID_TAKEN"
)

// Erreur is a refused command; it records nothing.
type Erreur = erreur.Erreur

func refus(code Code, format string, args ...any) error { return erreur.Refus(code, format, args...) }

func refusCause(code Code, cause error, format string, args ...any) error {
	return erreur.RefusCause(code, cause, format, args...)
}

// CodeOf returns the code of a refused command, or "".
func CodeOf(err error) Code { return erreur.CodeOf(err) }
