package cote

import "arbitre/domain/erreur"

// Code identifies a kind of invalid input; codes are stable.
type Code string

const (
	CodeEmptyPlayerID     Code = "cote.empty_player_id"
	CodeSelfGame          Code = "cote.self_game"
	CodeUnknownOutcome    Code = "cote.unknown_outcome"
	CodeInvalidParameters Code = "cote.invalid_parameters"
	CodeInvalidThresholds Code = "cote.invalid_thresholds"
)

// Error is the error type returned by this package.
type Error = erreur.Erreur[Code]

func fail(code Code, format string, args ...any) error { return erreur.Refus(code, format, args...) }

// CodeOf returns the code of a cote error, or "" for any other error.
func CodeOf(err error) Code { return erreur.CodeOf[Code](err) }
