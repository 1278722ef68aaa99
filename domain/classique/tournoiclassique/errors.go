package tournoiclassique

import (
	"arbitre/domain/erreur"
)

// Code is the stable code of a refused command.
type Code = erreur.Code

// The refusal codes of the tournament aggregate.
const (
	CodeInvalidInput          = erreur.CodeInvalidInput
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
