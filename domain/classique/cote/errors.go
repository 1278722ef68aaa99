package cote

import "arbitre/domain/erreur"

// Code identifies a kind of invalid input; codes are stable.
type Code = erreur.Code

const (
	CodeEmptyPlayerID     Code = "EMPTY_PLAYER_ID"
	CodeSelfGame          Code = "SELF_GAME"
	CodeUnknownOutcome    Code = "UNKNOWN_OUTCOME"
	CodeInvalidParameters Code = "INVALID_PARAMETERS"
	CodeInvalidThresholds Code = "INVALID_THRESHOLDS"
)

// Error is the error type returned by this package.
type Error = erreur.Erreur

func fail(code Code, format string, args ...any) error { return erreur.Refus(code, format, args...) }

// CodeOf returns the code of a cote error, or "" for any other error.
func CodeOf(err error) Code { return erreur.CodeOf(err) }
