package matchclassique

import (
	"arbitre/domain/erreur"
)

// Code is the stable code of a refused command; clients rely on it, the
// message may change.
type Code = erreur.Code

// The refusal codes of the match aggregate.
const (
	CodeInvalidMatch           = erreur.CodeInvalidInput
	CodeAlreadyCreated         = erreur.CodeAlreadyExists
	CodeUnknownPlayer     Code = "UNKNOWN_PLAYER"
	CodeWrongPhase        Code = "WRONG_PHASE"
	CodeNotYourTurn       Code = "NOT_YOUR_TURN"
	CodeDrawPending       Code = "DRAW_PENDING"
	CodeInvalidDraw       Code = "INVALID_DRAW"
	CodeInvalidPlacement  Code = "INVALID_PLACEMENT"
	CodeExchangeRefused   Code = "EXCHANGE_REFUSED"
	CodeTimeExhausted     Code = "TIME_EXHAUSTED"
	CodeEndPending        Code = "END_PENDING"
	CodeNothingToContest  Code = "NOTHING_TO_CONTEST"
	CodeInvalidContest    Code = "INVALID_CONTEST"
	CodeBlockageRefused   Code = "BLOCKAGE_REFUSED"
	CodeInvalidPenalty    Code = "INVALID_PENALTY"
	CodeAbandonRefused    Code = "ABANDON_REFUSED"
	CodeInvalidSheet      Code = "INVALID_SHEET"
	CodeCorruptHistory         = erreur.CodeCorruptHistory
	CodeConflict               = erreur.CodeConflict
	CodeNotFound               = erreur.CodeNotFound
	CodeLexiqueAbsent          = erreur.CodeLexiqueAbsent
	CodeInvalidDesignator Code = "INVALID_DESIGNATION"
)
