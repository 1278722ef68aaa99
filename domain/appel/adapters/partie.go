package adapters

import (
	"context"
	"fmt"

	"arbitre/domain/appel"
	"arbitre/domain/appel/command"
	"arbitre/domain/duplicate"
	dupcommand "arbitre/domain/duplicate/command"
	"arbitre/domain/eventstore"
)

// Partie applies a commission's decision on a bulletin through the
// duplicate game's DeciderAppel command: a new partie.decision_commission
// event in the stream "partie-<id>"; the recorded corrections are never
// edited.
type Partie struct {
	duplicate *dupcommand.Application
}

// NewPartie returns the adapter over the duplicate use cases.
func NewPartie(app *dupcommand.Application) *Partie { return &Partie{duplicate: app} }

var issues = map[appel.Issue]duplicate.IssueAppel{
	appel.IssueAccueilli: duplicate.AppelAccueilli,
	appel.IssueAmende:    duplicate.AppelAmende,
	appel.IssueRejete:    duplicate.AppelRejete,
}

// VerifierDecision implements command.Correcteur.
func (p *Partie) VerifierDecision(ctx context.Context, d command.DecisionBulletin) error {
	return p.duplicate.VerifierDecisionAppel(ctx, deciderAppel(d))
}

// AppliquerDecision implements command.Correcteur.
func (p *Partie) AppliquerDecision(ctx context.Context, d command.DecisionBulletin, md eventstore.Metadata) error {
	return p.duplicate.Par(md).DeciderAppel(ctx, deciderAppel(d))
}

func deciderAppel(d command.DecisionBulletin) dupcommand.DeciderAppel {
	decision := d.Decision
	return dupcommand.DeciderAppel{Tournoi: d.Tournoi, Partie: d.Partie, Coup: d.Coup, Licence: d.Licence,
		Appel: d.Appel, Niveau: d.Niveau, Issue: issues[d.Issue], Decision: &decision,
		Motif: fmt.Sprintf("%s, recours %s niveau %d : %s", d.Instance, d.Appel, d.Niveau, d.Motivation)}
}
