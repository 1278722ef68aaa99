// Package command holds the use cases of the appeal, one handler per
// command in the wild-workouts style: load the appeal, run the aggregate's
// command, save its events with optimistic concurrency (a stale writer gets
// CONFLICT wrapping *eventstore.ConflictError). Transport code (GraphQL,
// CLI) calls only these handlers.
//
// The process step: once a commission upholds or amends an appeal about a
// bulletin, the decision is carried into the game by the Correcteur as a
// new event in the stream "partie-<id>" (actor: the commission, causation:
// the appeal's stream), then marked applied in the appeal's stream. If
// carrying fails, the decision stays recorded and AppliquerDecision retries.
package command

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"arbitre/domain/appel"
	"arbitre/domain/eventstore"
	"arbitre/engine/correction"
)

// Depot is where appeals live (adapters.Depot).
type Depot interface {
	Charger(ctx context.Context, id string) (*appel.Appel, error)
	Enregistrer(ctx context.Context, a *appel.Appel, md eventstore.Metadata) error
}

// DecisionBulletin is a commission's decision on one bulletin, to be
// recorded in the game as a new correction.
type DecisionBulletin struct {
	Appel      string
	Niveau     int
	Instance   appel.Instance
	Issue      appel.Issue
	Partie     string
	Coup       int
	Licence    string
	Decision   correction.Decision
	Motivation string
}

// Correcteur carries a commission's decision on a bulletin into the game
// (adapters.Partie, over the duplicate game's DeciderAppel command). It
// appends a new event and never edits a recorded one.
type Correcteur interface {
	AppliquerDecision(ctx context.Context, d DecisionBulletin, md eventstore.Metadata) error
}

// RoleCommission is the role recorded in the metadata of the events the
// process step appends to a game.
const RoleCommission = "commission"

// Application is the index of every appeal use case.
type Application struct {
	depot      Depot
	correcteur Correcteur
	horloge    eventstore.Clock
	metadata   eventstore.Metadata
}

// New returns the use cases over a repository; horloge dates filings,
// decisions and deadlines; md tells who acts.
func New(depot Depot, correcteur Correcteur, horloge eventstore.Clock, md eventstore.Metadata) *Application {
	return &Application{depot: depot, correcteur: correcteur, horloge: horloge, metadata: md}
}

// Par returns the use cases acting for another actor (who did what is
// recorded in each event's metadata).
func (a *Application) Par(md eventstore.Metadata) *Application {
	b := *a
	b.metadata = md
	return &b
}

// Revision is the optimistic concurrency check a client may add to a
// command: the revision of the appeal's stream it last read (Vue.Revision).
// Nil checks only against the state loaded by the handler.
type Revision = *uint64

// DeposerAppel files an appeal (§6.3).
type DeposerAppel struct {
	appel.Saisine
}

// DeposerAppel handles DeposerAppel; the appeal must not exist yet.
func (a *Application) DeposerAppel(ctx context.Context, c DeposerAppel) error {
	switch _, err := a.depot.Charger(ctx, c.Appel); {
	case errors.Is(err, eventstore.ErrDejaTraitee):
		return nil // a retried filing
	case errors.Is(err, eventstore.ErrCleReutilisee):
		return err
	}
	ap := appel.Nouveau()
	if err := ap.Deposer(c.Saisine, a.horloge.Now()); err != nil {
		return err
	}
	return a.depot.Enregistrer(ctx, ap, a.metadata)
}

// ComposerCommission records the commission of the current level (§6.4.1,
// §6.4.2.b).
type ComposerCommission struct {
	Appel     string
	President string
	Membres   []string
	Revision  Revision
}

// ComposerCommission handles ComposerCommission.
func (a *Application) ComposerCommission(ctx context.Context, c ComposerCommission) error {
	return a.modifier(ctx, c.Appel, c.Revision, func(ap *appel.Appel) error {
		return ap.ComposerCommission(c.President, slices.Clone(c.Membres))
	})
}

// Voter records a member's vote.
type Voter struct {
	Appel    string
	Membre   string
	Issue    appel.Issue
	Revision Revision
}

// Voter handles Voter.
func (a *Application) Voter(ctx context.Context, c Voter) error {
	return a.modifier(ctx, c.Appel, c.Revision, func(ap *appel.Appel) error { return ap.Voter(c.Membre, c.Issue) })
}

// Decider records the commission's decision at the current level.
type Decider struct {
	Appel        string
	Deliberation appel.Deliberation
	Revision     Revision
}

// Decider handles Decider, then carries an upheld or amended decision on a
// bulletin into the game (the process step). DECISION_NOT_APPLIED means
// the decision is recorded but the game refused or failed (the cause is
// wrapped): AppliquerDecision retries.
func (a *Application) Decider(ctx context.Context, c Decider) error {
	err := a.modifier(ctx, c.Appel, c.Revision, func(ap *appel.Appel) error {
		return ap.Decider(c.Deliberation, a.horloge.Now())
	})
	if err != nil {
		return err
	}
	return a.AppliquerDecision(ctx, AppliquerDecision{Appel: c.Appel})
}

// AppliquerDecision carries the decision in force of an appeal into the
// game if it has not been yet; nothing to do is not an error.
type AppliquerDecision struct {
	Appel string
}

// AppliquerDecision handles AppliquerDecision.
func (a *Application) AppliquerDecision(ctx context.Context, c AppliquerDecision) error {
	ap, err := a.depot.Charger(ctx, c.Appel)
	if err != nil {
		return err
	}
	d, ok := ap.AAppliquer()
	if !ok {
		return nil
	}
	stream, err := eventstore.AppelStream(ap.ID())
	if err != nil {
		return err
	}
	o := ap.Objet()
	md := eventstore.Metadata{Actor: string(d.Instance), Role: RoleCommission, CorrelationID: a.metadata.CorrelationID, CausationID: stream}
	if err := a.correcteur.AppliquerDecision(ctx, DecisionBulletin{Appel: ap.ID(), Niveau: d.Niveau, Instance: d.Instance,
		Issue: d.Issue, Partie: o.Partie, Coup: o.Coup, Licence: o.Licence, Decision: *d.Decision, Motivation: d.Motivation}, md); err != nil {
		return &appel.Erreur{Code: appel.CodeDecisionNotApplied, Message: fmt.Sprintf("recours %s décidé, décision non appliquée à la partie %s : réessayer", ap.ID(), o.Partie), Err: err}
	}
	if err := ap.MarquerAppliquee(d.Niveau); err != nil {
		return err
	}
	return a.depot.Enregistrer(ctx, ap, md)
}

// FormerRecoursFISF takes a decided appeal to the FISF (§6.4.2).
type FormerRecoursFISF struct {
	Appel string
	appel.RecoursFISF
	Revision Revision
}

// FormerRecoursFISF handles FormerRecoursFISF.
func (a *Application) FormerRecoursFISF(ctx context.Context, c FormerRecoursFISF) error {
	return a.modifier(ctx, c.Appel, c.Revision, func(ap *appel.Appel) error {
		return ap.FormerRecoursFISF(c.RecoursFISF, a.horloge.Now())
	})
}

// DemanderPieces records the FISF président's request for documents
// (§6.4.2.c).
type DemanderPieces struct {
	Appel    string
	Pieces   string
	Revision Revision
}

// DemanderPieces handles DemanderPieces.
func (a *Application) DemanderPieces(ctx context.Context, c DemanderPieces) error {
	return a.modifier(ctx, c.Appel, c.Revision, func(ap *appel.Appel) error {
		return ap.DemanderPieces(c.Pieces, a.horloge.Now())
	})
}

// CompleterDossier records the documents received (§6.4.2.c).
type CompleterDossier struct {
	Appel    string
	Revision Revision
}

// CompleterDossier handles CompleterDossier.
func (a *Application) CompleterDossier(ctx context.Context, c CompleterDossier) error {
	return a.modifier(ctx, c.Appel, c.Revision, func(ap *appel.Appel) error { return ap.CompleterDossier(a.horloge.Now()) })
}

// Classer closes a FISF dossier left incomplete for two weeks (§6.4.2.c).
type Classer struct {
	Appel    string
	Revision Revision
}

// Classer handles Classer.
func (a *Application) Classer(ctx context.Context, c Classer) error {
	return a.modifier(ctx, c.Appel, c.Revision, func(ap *appel.Appel) error { return ap.Classer(a.horloge.Now()) })
}

func (a *Application) modifier(ctx context.Context, id string, revision Revision, f func(ap *appel.Appel) error) error {
	ap, err := a.depot.Charger(ctx, id)
	if errors.Is(err, eventstore.ErrDejaTraitee) {
		return nil // a retried command, applied already
	}
	if err != nil {
		return err
	}
	if courante := uint64(ap.Version() - 1); revision != nil && *revision != courante {
		stream, _ := eventstore.AppelStream(id)
		return &appel.Erreur{Code: appel.CodeConflict, Message: fmt.Sprintf("le recours %s a été modifié entre-temps : recharger", id),
			Err: &eventstore.ConflictError{Stream: stream, Expected: eventstore.Exact(*revision), Current: courante, StreamExists: true}}
	}
	if err := f(ap); err != nil {
		return err
	}
	return a.depot.Enregistrer(ctx, ap, a.metadata)
}
