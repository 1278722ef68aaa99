package pairing

import "arbitre/domain/erreur"

// Code identifies a kind of invalid request; codes are stable and safe to
// show to clients.
type Code = erreur.Code

const (
	CodeInvalidRound           Code = "INVALID_ROUND"
	CodeUnknownMethod          Code = "UNKNOWN_METHOD"
	CodeEmptyPlayerID          Code = "EMPTY_PLAYER_ID"
	CodeDuplicatePlayer        Code = "DUPLICATE_PLAYER"
	CodeUnknownPlayerInHistory Code = "UNKNOWN_PLAYER_IN_HISTORY"
	CodeSelfMeetingInHistory   Code = "SELF_MEETING_IN_HISTORY"
	CodeInvalidStarts          Code = "INVALID_STARTS"
	CodeNobodyToPair           Code = "NOBODY_TO_PAIR"
	CodeNoByeCandidate         Code = "NO_BYE_CANDIDATE"
	CodeRoundOutOfRange        Code = "ROUND_OUT_OF_RANGE"
	CodeTournamentTooLarge     Code = "TOURNAMENT_TOO_LARGE"
)
