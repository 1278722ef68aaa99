package duplicate

import "arbitre/domain/erreur"

// Code is the stable, machine-readable slug of a refused command. Clients
// (GraphQL, CLI) rely on it; the French message may change.
type Code = erreur.Code

// The refusal codes of the duplicate aggregate.
const (
	CodeInvalidConfig     Code = "INVALID_CONFIG"
	CodeInvalidTirage     Code = "INVALID_DRAW"
	CodeRejetRefused      Code = "REJECTION_REFUSED"
	CodeInvalidTop        Code = "INVALID_TOP"
	CodeNotInTirage       Code = "NOT_IN_DRAW"
	CodeInvalidWord       Code = "INVALID_WORD"
	CodeNotMaxScore       Code = "NOT_MAX_SCORE"
	CodeTopNotPlayed      Code = "TOP_NOT_PLAYED"
	CodeInvalidTopping    Code = "INVALID_TOPPING"
	CodeJokerTopRefused   Code = "JOKER_TOP_REFUSED"
	CodeJokerNotKept      Code = "JOKER_NOT_KEPT"
	CodeMustEndGame       Code = "MUST_END_GAME"
	CodeNoSolution        Code = "NO_SOLUTION"
	CodeAnnulationRefused Code = "CANCELLATION_REFUSED"
	CodeWrongState        Code = "WRONG_STATE"
	CodeGameOver          Code = "GAME_OVER"
	CodeUnknownPlayer     Code = "UNKNOWN_PLAYER"
	CodeLatePlayer        Code = "LATE_PLAYER"
	CodeInvalidBulletin   Code = "INVALID_BULLETIN"
	CodeEliminated        Code = "ELIMINATED"
	CodeExcluded          Code = "EXCLUDED"
	CodeInvalidSanction   Code = "INVALID_SANCTION"
	CodeResultsClosed     Code = "RESULTS_CLOSED"
	CodeBulletinsPending  Code = "BULLETINS_PENDING"
	CodeConflict               = erreur.CodeConflict
	CodeNotFound               = erreur.CodeNotFound
	CodeAlreadyExists          = erreur.CodeAlreadyExists
	CodeLexiqueAbsent          = erreur.CodeLexiqueAbsent
	CodeCorruptHistory         = erreur.CodeCorruptHistory
)

// Sentinels for errors.Is, for the codes callers test.
var (
	ErrInvalidConfig  = &erreur.Erreur{Code: CodeInvalidConfig}
	ErrCorruptHistory = &erreur.Erreur{Code: CodeCorruptHistory}
)
