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
