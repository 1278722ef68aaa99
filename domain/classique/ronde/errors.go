package ronde

import (
	"arbitre/domain/erreur"
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
	// CodeIdTaken refuses an id a duplicate tournament already uses.
	CodeIdTaken Code = "classique.tournoi.tournoi_id_taken"
)

// Erreur is a refused command; it records nothing.
type Erreur = erreur.Erreur[Code]

func refus(code Code, format string, args ...any) error { return erreur.Refus(code, format, args...) }

func refusCause(code Code, cause error, format string, args ...any) error {
	return erreur.RefusCause(code, cause, format, args...)
}

// CodeOf returns the code of a refused command, or "".
func CodeOf(err error) Code { return erreur.CodeOf[Code](err) }
