package federation

import "arbitre/domain/erreur"

// Code is the stable, machine-readable slug of a refused command.
type Code = erreur.Code

// The refusal codes of the federation's aggregates.
const (
	// CodeResultatsInvalides: a centre's results do not fit the event (a
	// player without a line per coup, a coup outside the game, a licence
	// already ranked in another centre).
	CodeResultatsInvalides Code = "INVALID_RESULTS"
	// CodeCentreDejaRecu: the centre already sent other results.
	CodeCentreDejaRecu Code = "CENTRE_ALREADY_RECEIVED"
	// CodePaquetCorrompu: a centre's bundle fails its integrity check.
	CodePaquetCorrompu Code = "CORRUPT_BUNDLE"
	// CodeJumelageInvalide: a twinning command that does not fit its sites
	// or its state.
	CodeJumelageInvalide Code = "INVALID_TWINNING"
	// CodeLiaisonCoupee: in formula 2, the link to a twinned site is cut:
	// every site stops (§2.18.2.B).
	CodeLiaisonCoupee  Code = "LINK_DOWN"
	CodeNotFound            = erreur.CodeNotFound
	CodeAlreadyExists       = erreur.CodeAlreadyExists
	CodeConflict            = erreur.CodeConflict
	CodeCorruptHistory      = erreur.CodeCorruptHistory
)
