package command

import (
	"context"
	"fmt"

	"arbitre/domain/appel"
	"arbitre/domain/duplicate"
	dupcommand "arbitre/domain/duplicate/command"
	"arbitre/domain/eventstore"
)

// CorrecteurDuplicate is the Correcteur of the duplicate game: it applies a
// commission's decision on a bulletin through the game's DeciderAppel use
// case, a new partie.decision_commission event in the stream
// "partie-<id>"; the recorded corrections are never edited. A step of the
// process between two contexts, it lives with the use cases, not among the
// adapters.
type CorrecteurDuplicate struct {
	duplicate *dupcommand.Application
}

// NewCorrecteurDuplicate returns the Correcteur over the duplicate use cases.
func NewCorrecteurDuplicate(app *dupcommand.Application) *CorrecteurDuplicate {
	return &CorrecteurDuplicate{duplicate: app}
}

var issues = map[appel.Issue]duplicate.IssueAppel{
	appel.IssueAccueilli: duplicate.AppelAccueilli,
	appel.IssueAmende:    duplicate.AppelAmende,
	appel.IssueRejete:    duplicate.AppelRejete,
}

// VerifierDecision implements Correcteur.
func (p *CorrecteurDuplicate) VerifierDecision(ctx context.Context, d DecisionBulletin) error {
	return p.duplicate.VerifierDecisionAppel(ctx, deciderAppel(d))
}

// AppliquerDecision implements Correcteur.
func (p *CorrecteurDuplicate) AppliquerDecision(ctx context.Context, d DecisionBulletin, md eventstore.Metadata) error {
	return p.duplicate.Par(md).DeciderAppel(ctx, deciderAppel(d))
}

func deciderAppel(d DecisionBulletin) dupcommand.DeciderAppel {
	decision := d.Decision
	return dupcommand.DeciderAppel{Tournoi: d.Tournoi, Partie: d.Partie, Coup: d.Coup, Licence: d.Licence,
		Appel: d.Appel, Niveau: d.Niveau, Issue: issues[d.Issue], Decision: &decision,
		Motif: fmt.Sprintf("%s, recours %s niveau %d : %s", d.Instance, d.Appel, d.Niveau, d.Motivation)}
}
