// Package command holds the use cases of the appeal, one handler per
// command, each run by aggregate.Run: load the appeal of its tournament,
// run the aggregate's command, save its events with optimistic concurrency
// (a stale writer gets CONFLICT wrapping *eventstore.ConflictError; a
// client's revision is the command envelope's version). Transport code
// (GraphQL, CLI) calls only these handlers.
//
// An appeal's object is derived from the stored facts (query.Situer), never
// taken from the client: the tournament is the game's, the table the
// player's.
//
// The process step: once a commission upholds or amends an appeal about a
// bulletin, the decision is carried into the game by the Correcteur as a
// new event in the stream "partie-<id>" (actor: who decided, causation:
// the decision, "<the appeal's stream>/niveau-<n>"), then marked applied in the
// appeal's stream. The decision spans two streams, so Decider checks the
// game accepts it before writing anything, then writes the appeal first
// and the game second; the game records a decision once, so a crash
// between the writes is completed by running AppliquerDecision again
// (adapters.Reprendre, at the start of serve).
package command

import (
	"context"
	"fmt"
	"slices"
	"time"

	"arbitre/domain/aggregate"
	"arbitre/domain/appel"
	"arbitre/domain/appel/query"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/idempotency"
	"arbitre/engine/correction"
)

// Depot is where appeals live (adapters.Depot).
type Depot interface {
	// Charger loads appeal id of tournament tournoi: an appeal's id
	// belongs to its tournament.
	Charger(ctx context.Context, tournoi, id string) (*appel.Appel, error)
	Enregistrer(ctx context.Context, a *appel.Appel, md eventstore.Metadata) error
}

// Faits are the stored facts an appeal's object is checked against
// (adapters.Faits): those its object is derived from (query.Faits) and the
// tournament's games' times.
type Faits interface {
	query.Faits
	// Horaires returns the games of a tournament in its order, each with
	// the time of its first tirage and of the closure of its results (zero
	// when not yet), then
	// one appel.Horaire without a game nor times for each game of the competition
	// not created yet: the game before it is not the last (§6.3).
	Horaires(ctx context.Context, tournoi string) ([]appel.Horaire, error)
}

// echeance derives the §6.3 filing deadline of an appeal about partie (or
// about the whole tournament when partie is empty) from the tournament's
// games: the start of the game after it, else 15 minutes after the last
// game's results were closed. Nil when neither is known yet: during the break before a
// game of the competition not started, or not even created.
func echeance(horaires []appel.Horaire, partie string) *appel.Echeance {
	suivante := len(horaires)
	for i, h := range horaires {
		if partie != "" && h.Partie == partie {
			suivante = i + 1
			break
		}
	}
	var debut time.Time
	for _, h := range horaires[suivante:] {
		if !h.Debut.IsZero() {
			debut = h.Debut
			break
		}
	}
	var fin eventstore.Instant
	if len(horaires) > 0 {
		fin = horaires[len(horaires)-1].Fin
	}
	if e, ok := appel.EcheanceRecours(debut, fin); ok {
		return &e
	}
	return nil
}

// DecisionBulletin is a commission's decision on one bulletin, to be
// recorded in the game as a new correction.
type DecisionBulletin struct {
	Appel      string
	Niveau     int
	Instance   appel.Instance
	Issue      appel.Issue
	Tournoi    string
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
	// VerifierDecision tells whether the game, as it stands, accepts the
	// decision; it writes nothing.
	VerifierDecision(ctx context.Context, d DecisionBulletin) error
	// AppliquerDecision records the decision in the game once: a decision
	// of the same appeal and level already there is not recorded again.
	AppliquerDecision(ctx context.Context, d DecisionBulletin, md eventstore.Metadata) error
}

// Application is the index of every appeal use case.
type Application struct {
	depot      Depot
	faits      Faits
	correcteur Correcteur
	horloge    eventstore.Clock
	metadata   eventstore.Metadata
}

// New returns the use cases over a repository; faits are what filings are
// checked against; horloge dates filings, decisions and deadlines; md
// tells who acts.
func New(depot Depot, faits Faits, correcteur Correcteur, horloge eventstore.Clock, md eventstore.Metadata) *Application {
	return &Application{depot: depot, faits: faits, correcteur: correcteur, horloge: horloge, metadata: md}
}

// Par returns the use cases acting for another actor (who did what is
// recorded in each event's metadata).
func (a *Application) Par(md eventstore.Metadata) *Application {
	b := *a
	b.metadata = md
	return &b
}

// Revision is the optimistic concurrency check a client may add to a
// command: the revision of the appeal's stream it last read (Vue.Revision),
// the envelope's version less one. Nil checks only against the state
// loaded by the handler.
type Revision = *uint64

// duTournoi is the appeals of one tournament as aggregate.Run loads them:
// an appeal's id belongs to its tournament. For a filing (creation) an
// unknown appeal is the empty one.
type duTournoi struct {
	depot    Depot
	tournoi  string
	creation bool
}

func (d duTournoi) Charger(ctx context.Context, id string) (*appel.Appel, error) {
	ap, err := d.depot.Charger(ctx, d.tournoi, id)
	if d.creation && erreur.CodeOf(err) == appel.CodeAppealNotFound {
		return appel.Nouveau(), nil
	}
	return ap, err
}

func (d duTournoi) Enregistrer(ctx context.Context, ap *appel.Appel, md eventstore.Metadata) error {
	return d.depot.Enregistrer(ctx, ap, md)
}

// reportee saves the mark of a decision carried into the game caused by
// that decision (Cause), like the game's event that carries it.
type reportee struct{ duTournoi }

func (r reportee) Enregistrer(ctx context.Context, ap *appel.Appel, md eventstore.Metadata) error {
	for _, e := range ap.Pending() {
		if d, ok := e.(appel.DecisionAppliquee); ok {
			md.CausationID = Cause(ap, d.Niveau)
		}
	}
	return r.duTournoi.Enregistrer(ctx, ap, md)
}

// modifier runs a command on appeal id of tournament tournoi for the
// acting token; a client's revision becomes the envelope's version.
func (a *Application) modifier(ctx context.Context, tournoi, id string, revision Revision, decide func(ap *appel.Appel) error) error {
	if revision != nil {
		c := idempotency.CommandFrom(ctx)
		version := int(*revision) + 1
		c.Version = &version
		ctx = idempotency.WithCommand(ctx, c)
	}
	_, err := aggregate.Run(ctx, duTournoi{depot: a.depot, tournoi: tournoi}, id, a.metadata, decide)
	return err
}

// DeposerAppel files an appeal (§6.3).
type DeposerAppel struct {
	appel.Saisine
}

// DeposerAppel handles DeposerAppel; the appeal must not exist yet in its
// tournament (ALREADY_EXISTS, without its revision): another tournament's
// appeal under the same id is another appeal. The object recorded is the
// one query.Situer derives; a tournament or a table the client names that
// differs from it is refused (INVALID_APPEAL). The deadline of §6.3 is
// derived from the tournament's games (echeance), never taken from the
// client: a late appeal is DEADLINE_PASSED.
func (a *Application) DeposerAppel(ctx context.Context, c DeposerAppel) error {
	o, err := query.Queries{Faits: a.faits}.Situer(ctx, c.Objet)
	if err != nil {
		return err
	}
	switch {
	case c.Objet.Tournoi != "" && c.Objet.Tournoi != o.Tournoi:
		return &erreur.Erreur{Code: appel.CodeInvalidAppeal, Message: fmt.Sprintf("la partie %s appartient au tournoi %s, pas au tournoi indiqué", o.Partie, o.Tournoi)}
	case c.Objet.Table != 0 && c.Objet.Table != o.Table:
		return &erreur.Erreur{Code: appel.CodeInvalidAppeal, Message: fmt.Sprintf("%s est inscrit à la table %d, pas à la table %d", o.Licence, o.Table, c.Objet.Table)}
	}
	s := c.Saisine
	s.Objet = o
	s.Echeance = nil
	depot := duTournoi{depot: a.depot, tournoi: o.Tournoi, creation: true}
	_, err = aggregate.Run(ctx, depot, c.Appel, a.metadata, func(ap *appel.Appel) error {
		if ap.Version() > 0 {
			return &erreur.Erreur{Code: appel.CodeAlreadyExists, Message: fmt.Sprintf("l'identifiant de recours %s est déjà pris : en choisir un autre", c.Appel)}
		}
		if o.Tournoi != "" {
			horaires, err := a.faits.Horaires(sansCommande(ctx), o.Tournoi)
			if err != nil {
				return err
			}
			s.Echeance = echeance(horaires, o.Partie)
		}
		return ap.Deposer(s, eventstore.ReadClock(a.horloge))
	})
	return err
}

// ComposerCommission records the commission of the current level (§6.4.1,
// §6.4.2.b).
type ComposerCommission struct {
	Tournoi   string
	Appel     string
	President string
	Membres   []string
	Revision  Revision
}

// ComposerCommission handles ComposerCommission.
func (a *Application) ComposerCommission(ctx context.Context, c ComposerCommission) error {
	return a.modifier(ctx, c.Tournoi, c.Appel, c.Revision, func(ap *appel.Appel) error {
		return ap.ComposerCommission(c.President, slices.Clone(c.Membres))
	})
}

// Voter records a member's vote.
type Voter struct {
	Tournoi  string
	Appel    string
	Membre   string
	Issue    appel.Issue
	Revision Revision
}

// Voter handles Voter.
func (a *Application) Voter(ctx context.Context, c Voter) error {
	return a.modifier(ctx, c.Tournoi, c.Appel, c.Revision, func(ap *appel.Appel) error { return ap.Voter(c.Membre, c.Issue) })
}

// Decider records the commission's decision at the current level.
type Decider struct {
	Tournoi      string
	Appel        string
	Deliberation appel.Deliberation
	Revision     Revision
}

// Decider handles Decider and carries an upheld or amended decision on a
// bulletin into the game (the process step). It checks the game accepts
// the decision before writing anything: a refusal of the game (e.g. a
// score above the top, a bulletin not corrected) records nothing.
// DECISION_NOT_APPLIED means the decision is recorded but writing it into
// the game failed (the cause is wrapped): AppliquerDecision completes it.
func (a *Application) Decider(ctx context.Context, c Decider) error {
	err := a.modifier(ctx, c.Tournoi, c.Appel, c.Revision, func(ap *appel.Appel) error {
		if err := ap.Decider(c.Deliberation, a.horloge.Now()); err != nil {
			return err
		}
		d, ok := ap.AAppliquer()
		if !ok {
			return nil
		}
		return a.correcteur.VerifierDecision(sansCommande(ctx), decisionBulletin(ap, d))
	})
	if err != nil {
		return err
	}
	return a.AppliquerDecision(ctx, AppliquerDecision{Tournoi: c.Tournoi, Appel: c.Appel})
}

// sansCommande drops the client's command envelope: reading other streams
// and the process step, which writes under its own causation (the
// decision), are not the client's command.
func sansCommande(ctx context.Context) context.Context {
	return idempotency.WithCommand(ctx, idempotency.Command{})
}

func decisionBulletin(ap *appel.Appel, d appel.DecisionRendue) DecisionBulletin {
	o := ap.Objet()
	return DecisionBulletin{Appel: ap.ID(), Niveau: d.Niveau, Instance: d.Instance, Issue: d.Issue, Tournoi: o.Tournoi,
		Partie: o.Partie, Coup: o.Coup, Licence: o.Licence, Decision: *d.Decision, Motivation: d.Motivation}
}

// Cause names a level's decision: "<the appeal's stream>/niveau-<n>"
// (appel.Flux; "appel-<id>/niveau-<n>" for an appeal filed while ids were
// global), the causation of the events that carry it into the game.
func Cause(ap *appel.Appel, niveau int) string {
	return fmt.Sprintf("%s/niveau-%d", ap.Flux(), niveau)
}

// AppliquerDecision carries the decision in force of an appeal into the
// game if it has not been yet; nothing to do is not an error. Run again
// after a crash between the two writes, it completes the decision: the
// game records it once, then the appeal marks it applied.
type AppliquerDecision struct {
	Tournoi string
	Appel   string
}

// AppliquerDecision handles AppliquerDecision; the events it writes are
// signed by the acting token and caused by the decision (Cause).
func (a *Application) AppliquerDecision(ctx context.Context, c AppliquerDecision) error {
	ctx = sansCommande(ctx)
	depot := reportee{duTournoi{depot: a.depot, tournoi: c.Tournoi}}
	_, err := aggregate.Run(ctx, depot, c.Appel, a.metadata, func(ap *appel.Appel) error {
		d, ok := ap.AAppliquer()
		if !ok {
			return nil
		}
		md := a.metadata
		md.CausationID = Cause(ap, d.Niveau)
		if err := a.correcteur.AppliquerDecision(ctx, decisionBulletin(ap, d), md); err != nil {
			return &erreur.Erreur{Code: appel.CodeDecisionNotApplied, Message: fmt.Sprintf("recours %s décidé, décision pas encore reportée dans la partie %s : elle le sera au prochain essai ou au redémarrage du serveur", ap.ID(), ap.Objet().Partie), Err: err}
		}
		return ap.MarquerAppliquee(d.Niveau)
	})
	return err
}

// FormerRecoursFISF takes a decided appeal to the FISF (§6.4.2).
type FormerRecoursFISF struct {
	Tournoi string
	Appel   string
	appel.RecoursFISF
	Revision Revision
}

// FormerRecoursFISF handles FormerRecoursFISF.
func (a *Application) FormerRecoursFISF(ctx context.Context, c FormerRecoursFISF) error {
	return a.modifier(ctx, c.Tournoi, c.Appel, c.Revision, func(ap *appel.Appel) error {
		return ap.FormerRecoursFISF(c.RecoursFISF, a.horloge.Now())
	})
}

// DemanderPieces records the FISF président's request for documents
// (§6.4.2.c).
type DemanderPieces struct {
	Tournoi  string
	Appel    string
	Pieces   string
	Revision Revision
}

// DemanderPieces handles DemanderPieces.
func (a *Application) DemanderPieces(ctx context.Context, c DemanderPieces) error {
	return a.modifier(ctx, c.Tournoi, c.Appel, c.Revision, func(ap *appel.Appel) error {
		return ap.DemanderPieces(c.Pieces, eventstore.ReadClock(a.horloge))
	})
}

// CompleterDossier records the documents received (§6.4.2.c).
type CompleterDossier struct {
	Tournoi  string
	Appel    string
	Revision Revision
}

// CompleterDossier handles CompleterDossier.
func (a *Application) CompleterDossier(ctx context.Context, c CompleterDossier) error {
	return a.modifier(ctx, c.Tournoi, c.Appel, c.Revision, func(ap *appel.Appel) error { return ap.CompleterDossier(eventstore.ReadClock(a.horloge)) })
}

// Classer closes a FISF dossier left incomplete for two weeks (§6.4.2.c).
type Classer struct {
	Tournoi  string
	Appel    string
	Revision Revision
}

// Classer handles Classer.
func (a *Application) Classer(ctx context.Context, c Classer) error {
	return a.modifier(ctx, c.Tournoi, c.Appel, c.Revision, func(ap *appel.Appel) error { return ap.Classer(eventstore.ReadClock(a.horloge)) })
}
