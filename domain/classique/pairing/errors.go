package pairing

import "arbitre/domain/erreur"

// Code identifies a kind of invalid request; codes are stable and safe to
// show to clients or store in events.
type Code string

const (
	CodeInvalidRound           Code = "pairing.invalid_round"
	CodeUnknownMethod          Code = "pairing.unknown_method"
	CodeEmptyPlayerID          Code = "pairing.empty_player_id"
	CodeDuplicatePlayer        Code = "pairing.duplicate_player"
	CodeUnknownPlayerInHistory Code = "pairing.unknown_player_in_history"
	CodeSelfMeetingInHistory   Code = "pairing.self_meeting_in_history"
	CodeInvalidStarts          Code = "pairing.invalid_starts"
	CodeNobodyToPair           Code = "pairing.nobody_to_pair"
	CodeNoByeCandidate         Code = "pairing.no_bye_candidate"
	CodeRoundOutOfRange        Code = "pairing.round_out_of_range"
	CodeTournamentTooLarge     Code = "pairing.tournament_too_large"
)

// Error is the error type returned by this package.
type Error = erreur.Erreur[Code]

func fail(code Code, format string, args ...any) error { return erreur.Refus(code, format, args...) }

// CodeOf returns the code of a pairing error, or "" for any other error.
func CodeOf(err error) Code { return erreur.CodeOf[Code](err) }
