package command

import (
	"context"

	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/domain/federation"
)

// Jumelages is where the twinnings live (adapters.Jumelages).
type Jumelages = Depot[*federation.Jumelage]

// Twinning runs the commands of the tournaments twinned over the Internet
// (guide §2.18) for one actor (NewTwinning, Par).
type Twinning struct {
	Jumelages Jumelages
	// Principal reads the principal's own games to check a site's results;
	// nil on a site, which receives none.
	Principal ReferenceDuPrincipal
	metadata  eventstore.Metadata
}

// NewTwinning returns the twinnings' use cases over their repository and
// the principal's games (nil on a site); md tells who acts.
func NewTwinning(jumelages Jumelages, principal ReferenceDuPrincipal, md eventstore.Metadata) *Twinning {
	return &Twinning{Jumelages: jumelages, Principal: principal, metadata: md}
}

// Par returns the use cases acting for another actor.
func (a *Twinning) Par(md eventstore.Metadata) *Twinning {
	b := *a
	b.metadata = md
	return &b
}

// ReferenceDuPrincipal gives what the principal knows to check a site's
// results of one of its games (centres.Principal reads it from its own
// store).
type ReferenceDuPrincipal interface {
	// Reference is the principal's sheet of game partie of its tournament
	// and the licences of the tournament's players.
	Reference(ctx context.Context, tournoi, partie string) (federation.Feuille, []string, error)
}

// Creer twins a principal with its sites under a formula, on the games of
// the principal's tournament.
type Creer struct {
	Jumelage  string
	Formule   federation.Formule
	Principal string
	Tournoi   string
	Sites     []string
}

// Creer handles Creer.
func (a *Twinning) Creer(ctx context.Context, c Creer) error {
	return a.executer(ctx, c.Jumelage, func(j *federation.Jumelage) error {
		return j.Creer(c.Jumelage, c.Formule, c.Principal, c.Tournoi, c.Sites)
	})
}

// RecevoirResultatsSite records a site's results of a game as they stand,
// checked against the principal's own game of the twinned tournament
// (Feuille is the site's game as its bundle plays it).
type RecevoirResultatsSite struct {
	Jumelage  string
	Resultats federation.ResultatsCentre
	Feuille   federation.Feuille
	Empreinte string
}

// RecevoirResultatsSite handles RecevoirResultatsSite.
func (a *Twinning) RecevoirResultatsSite(ctx context.Context, c RecevoirResultatsSite) error {
	return a.executer(ctx, c.Jumelage, func(j *federation.Jumelage) error {
		if a.Principal == nil || j.Tournoi() == "" {
			return erreur.Refus(federation.CodeJumelageInvalide, "le jumelage %s ne suit aucun tournoi du principal : il ne reçoit pas de résultats en ligne", c.Jumelage)
		}
		principal, licences, err := a.Principal.Reference(ctx, j.Tournoi(), c.Resultats.Partie)
		if err != nil {
			return err
		}
		return j.RecevoirResultats(c.Resultats, c.Empreinte, federation.Controle{Principal: principal, Site: c.Feuille, Licences: licences})
	})
}

// Couper records a site's link cut during a game, at a.
type Couper struct {
	Jumelage string
	Site     string
	Partie   string
	Instant  eventstore.Instant
}

// Couper handles Couper.
func (a *Twinning) Couper(ctx context.Context, c Couper) error {
	return a.executer(ctx, c.Jumelage, func(j *federation.Jumelage) error { return j.Couper(c.Site, c.Partie, c.Instant) })
}

// Retablir records that a site's link is back at a, with the decision the
// cut's length forces (§2.18.1.B, §2.18.2.B).
type Retablir struct {
	Jumelage string
	Site     string
	Instant  eventstore.Instant
}

// Retablir handles Retablir.
func (a *Twinning) Retablir(ctx context.Context, c Retablir) error {
	return a.executer(ctx, c.Jumelage, func(j *federation.Jumelage) error { return j.Retablir(c.Site, c.Instant) })
}

// Echeance takes, at a, the decisions of every cut past 15 minutes.
type Echeance struct {
	Jumelage string
	Instant  eventstore.Instant
}

// Echeance handles Echeance.
func (a *Twinning) Echeance(ctx context.Context, c Echeance) error {
	return a.executer(ctx, c.Jumelage, func(j *federation.Jumelage) error { return j.Echeance(c.Instant) })
}

func (a *Twinning) executer(ctx context.Context, id string, f func(*federation.Jumelage) error) error {
	return executer[*federation.Jumelage](ctx, a.Jumelages, id, a.metadata, f)
}
