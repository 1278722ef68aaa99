package acces

// Code is a stable error code.
type Code string

// The codes of access decisions.
const (
	CodeInvalidRole     Code = "INVALID_ROLE"
	CodeInvalidTables   Code = "INVALID_TABLES"
	CodeInvalidDuration Code = "INVALID_DURATION"
	CodeUnknownToken    Code = "UNAUTHENTICATED"
	CodeExpiredToken    Code = "TOKEN_EXPIRED"
	CodeForbidden       Code = "FORBIDDEN"
	CodeNotFound        Code = "NOT_FOUND"
	CodeWrongTournament Code = "WRONG_TOURNAMENT"
)

// Error is an access error with a French message for the client.
type Error struct {
	Code    Code
	Message string
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

// ErrorCode returns the stable code.
func (e *Error) ErrorCode() string { return string(e.Code) }
