package appel

import (
	"fmt"

	"arbitre/domain/erreur"
)

// Code is the stable, machine-readable slug of a refused command. Clients
// (GraphQL extensions.code, CLI) rely on it; the French message may change.
type Code = erreur.Code

// The refusal codes of the appeal aggregate.
const (
	CodeInvalidAppeal             Code = "INVALID_APPEAL"
	CodeAppealNotFound            Code = "APPEAL_NOT_FOUND"
	CodeNotFound                       = erreur.CodeNotFound
	CodeAlreadyExists                  = erreur.CodeAlreadyExists
	CodeAppealAlreadyFiled        Code = "APPEAL_ALREADY_FILED"
	CodeDeadlinePassed            Code = "DEADLINE_PASSED"
	CodeDeadlineRunning           Code = "DEADLINE_RUNNING"
	CodeInvalidCommission         Code = "INVALID_COMMISSION"
	CodeCommissionNotComposed     Code = "COMMISSION_NOT_COMPOSED"
	CodeCommissionAlreadyComposed Code = "COMMISSION_ALREADY_COMPOSED"
	CodeMemberInvolved            Code = "MEMBER_INVOLVED"
	CodeNotAMember                Code = "NOT_A_MEMBER"
	CodeVoteAlreadyCast           Code = "VOTE_ALREADY_CAST"
	CodeVotesIncomplete           Code = "VOTES_INCOMPLETE"
	CodeMajorityMismatch          Code = "MAJORITY_MISMATCH"
	CodeNoMajority                Code = "NO_MAJORITY"
	CodeAppealAlreadyDecided      Code = "APPEAL_ALREADY_DECIDED"
	CodeAppealNotDecided          Code = "APPEAL_NOT_DECIDED"
	CodeAppealFinal               Code = "APPEAL_FINAL"
	CodeAppealClosed              Code = "APPEAL_CLOSED"
	CodeDossierIncomplete         Code = "APPEAL_FILE_INCOMPLETE"
	CodeNothingToApply            Code = "NOTHING_TO_APPLY"
	CodeDecisionNotApplied        Code = "DECISION_NOT_APPLIED"
	CodeConflict                       = erreur.CodeConflict
	CodeCorruptHistory                 = erreur.CodeCorruptHistory
)

// Inconnu is the answer for appeal id when nobody filed it, and for an
// appeal outside the caller's scope: the same words, so that the answer
// does not tell one from the other.
func Inconnu(id string) *erreur.Erreur {
	return &erreur.Erreur{Code: CodeAppealNotFound, Message: fmt.Sprintf("le recours %s n'existe pas", id)}
}

// Sentinels for errors.Is, for the codes callers test.
var (
	ErrAppealNotFound       = &erreur.Erreur{Code: CodeAppealNotFound}
	ErrDeadlineRunning      = &erreur.Erreur{Code: CodeDeadlineRunning}
	ErrAppealAlreadyDecided = &erreur.Erreur{Code: CodeAppealAlreadyDecided}
	ErrConflict             = &erreur.Erreur{Code: CodeConflict}
)
