package duplicate

import "fmt"

// Code is the stable, machine-readable slug of a refused command. Clients
// (GraphQL, CLI) rely on it; the French message may change.
type Code string

// The refusal codes of the duplicate aggregate.
const (
	CodeInvalidConfig     Code = "INVALID_CONFIG"
	CodeInvalidTirage     Code = "INVALID_TIRAGE"
	CodeRejetRefused      Code = "REJET_REFUSED"
	CodeInvalidTop        Code = "INVALID_TOP"
	CodeNotInTirage       Code = "NOT_IN_TIRAGE"
	CodeInvalidWord       Code = "INVALID_WORD"
	CodeNotMaxScore       Code = "NOT_MAX_SCORE"
	CodeJokerTopRefused   Code = "JOKER_TOP_REFUSED"
	CodeMustEndGame       Code = "MUST_END_GAME"
	CodeNoSolution        Code = "NO_SOLUTION"
	CodeAnnulationRefused Code = "ANNULATION_REFUSED"
	CodeWrongState        Code = "WRONG_STATE"
	CodeGameOver          Code = "GAME_OVER"
	CodeUnknownPlayer     Code = "UNKNOWN_PLAYER"
	CodeLatePlayer        Code = "LATE_PLAYER"
	CodeInvalidBulletin   Code = "INVALID_BULLETIN"
	CodeEliminated        Code = "ELIMINATED"
	CodeExcluded          Code = "EXCLUDED"
	CodeInvalidSanction   Code = "INVALID_SANCTION"
	CodeConflict          Code = "CONFLICT"
	CodeNotFound          Code = "NOT_FOUND"
	CodeCorruptHistory    Code = "CORRUPT_HISTORY"
)

// Erreur is a refused command: a stable code, a message in the words of the
// federation, and an optional cause. A refused command records nothing.
type Erreur struct {
	Code    Code
	Message string
	Err     error
	// Version is, for CONFLICT, the number of events the game holds now:
	// reload it and retry against that version.
	Version int
}

func (e *Erreur) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Err)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

// Unwrap returns the cause.
func (e *Erreur) Unwrap() error { return e.Err }

// Is matches any *Erreur with the same code, so errors.Is(err, ErrNotMaxScore)
// works whatever the message.
func (e *Erreur) Is(target error) bool {
	t, ok := target.(*Erreur)
	return ok && t.Code == e.Code
}

// Sentinels for errors.Is, one per code.
var (
	ErrInvalidConfig     = &Erreur{Code: CodeInvalidConfig}
	ErrInvalidTirage     = &Erreur{Code: CodeInvalidTirage}
	ErrRejetRefused      = &Erreur{Code: CodeRejetRefused}
	ErrInvalidTop        = &Erreur{Code: CodeInvalidTop}
	ErrNotMaxScore       = &Erreur{Code: CodeNotMaxScore}
	ErrJokerTopRefused   = &Erreur{Code: CodeJokerTopRefused}
	ErrMustEndGame       = &Erreur{Code: CodeMustEndGame}
	ErrNoSolution        = &Erreur{Code: CodeNoSolution}
	ErrAnnulationRefused = &Erreur{Code: CodeAnnulationRefused}
	ErrWrongState        = &Erreur{Code: CodeWrongState}
	ErrGameOver          = &Erreur{Code: CodeGameOver}
	ErrUnknownPlayer     = &Erreur{Code: CodeUnknownPlayer}
	ErrLatePlayer        = &Erreur{Code: CodeLatePlayer}
	ErrInvalidBulletin   = &Erreur{Code: CodeInvalidBulletin}
	ErrEliminated        = &Erreur{Code: CodeEliminated}
	ErrExcluded          = &Erreur{Code: CodeExcluded}
	ErrInvalidSanction   = &Erreur{Code: CodeInvalidSanction}
	ErrConflict          = &Erreur{Code: CodeConflict}
	ErrNotFound          = &Erreur{Code: CodeNotFound}
	ErrCorruptHistory    = &Erreur{Code: CodeCorruptHistory}
)

func refus(code Code, format string, args ...any) error {
	return &Erreur{Code: code, Message: fmt.Sprintf(format, args...)}
}

// CodeOf returns the code of a refused command, or "" for any other error.
func CodeOf(err error) Code {
	for err != nil {
		if e, ok := err.(*Erreur); ok {
			return e.Code
		}
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			return ""
		}
		err = u.Unwrap()
	}
	return ""
}
