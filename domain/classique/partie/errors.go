package partie

import (
	"arbitre/domain/erreur"
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
type Erreur = erreur.Erreur[Code]

func refus(code Code, format string, args ...any) error { return erreur.Refus(code, format, args...) }

func refusCause(code Code, cause error, format string, args ...any) error {
	return erreur.RefusCause(code, cause, format, args...)
}

// CodeOf returns the code of a refused command, or "" for any other error.
func CodeOf(err error) Code { return erreur.CodeOf[Code](err) }
