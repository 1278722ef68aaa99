// Package command holds the use cases of the duplicate game, one handler per
// command in the wild-workouts style: load the game, run the aggregate's
// command, save its events with optimistic concurrency. Transport code
// (GraphQL, CLI) calls only these handlers.
package command

import (
	"context"
	"errors"
	"fmt"

	"arbitre/domain/aggregate"
	"arbitre/domain/duplicate"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/idempotency"
	"arbitre/engine/correction"
	"arbitre/engine/lexicon"
)

// Depot is where games live (adapters.Depot).
type Depot = aggregate.Repository[*duplicate.Partie]

// Application is the index of every duplicate use case.
type Application struct {
	depot    Depot
	moteur   duplicate.Moteur
	horloge  eventstore.Clock
	metadata eventstore.Metadata
	// enregistree, when set, is given the game as each command saved it.
	enregistree func(p *duplicate.Partie)
}

// New returns the use cases over a repository; horloge dates the chrono's
// events and interruptions, and measures the latter on its monotonic clock
// when it has one (eventstore.MonotonicClock, §3.7); md tells who acts.
func New(depot Depot, moteur duplicate.Moteur, horloge eventstore.Clock, md eventstore.Metadata) *Application {
	return &Application{depot: depot, moteur: moteur, horloge: horloge, metadata: md}
}

// Par returns the use cases acting for another actor (who did what is
// recorded in each event's metadata).
func (a *Application) Par(md eventstore.Metadata) *Application {
	b := *a
	b.metadata = md
	return &b
}

// Enregistree returns the use cases telling f the game as a command saved
// it: its state as read, with the command's events applied and stored. The
// append guarded the stream the events went to and the game's stream
// (adapters.Depot.Enregistrer), so what the game holds of them is what the
// store holds, without reading it back.
func (a *Application) Enregistree(f func(p *duplicate.Partie)) *Application {
	b := *a
	b.enregistree = f
	return &b
}

// CreerPartie opens a game.
type CreerPartie struct {
	Partie, Tournoi string
	Numero          int
	Config          duplicate.Config
	Joueurs         []string
	// Lexique is the list the game is judged with; nil: the server's
	// default (a twinned site gives the principal's).
	Lexique *lexicon.Identite
	// Arbitres are the tables each arbiter covers (§5.9 averages).
	Arbitres []duplicate.ArbitreTables
}

// CreerPartie handles CreerPartie.
func (a *Application) CreerPartie(ctx context.Context, c CreerPartie) error {
	switch _, err := a.depot.Charger(ctx, c.Partie); {
	case err == nil:
		return &erreur.Erreur{Code: duplicate.CodeAlreadyExists, Message: fmt.Sprintf("La partie %s existe déjà", c.Partie)}
	case errors.Is(err, idempotency.ErrAlreadyApplied):
		return nil // a retried creation
	case errors.Is(err, idempotency.ErrKeyReused), erreur.CodeOf(err) == duplicate.CodeLexiqueAbsent:
		return err
	}
	p := duplicate.Nouvelle(a.moteur)
	if err := p.CreerSurLexique(c.Lexique, c.Partie, c.Tournoi, c.Numero, c.Config, c.Joueurs, c.Arbitres); err != nil {
		return err
	}
	return a.depot.Enregistrer(ctx, p, a.metadata)
}

// modifier runs a command on a game (aggregate.Run) and tells enregistree
// the game as saved.
func (a *Application) modifier(ctx context.Context, id string, f func(p *duplicate.Partie) error) error {
	p, err := aggregate.Run(ctx, a.depot, id, a.metadata, f)
	if p != nil && a.enregistree != nil {
		a.enregistree(p)
	}
	return err
}

// Tirer draws the next tirage (§3.1, §3.2); Lettres empty for the software.
type Tirer struct {
	Partie  string
	Lettres string
}

// Tirer handles Tirer.
func (a *Application) Tirer(ctx context.Context, c Tirer) error {
	return a.modifier(ctx, c.Partie, func(p *duplicate.Partie) error { return p.Tirer(c.Lettres) })
}

// ChargerFeuille loads a pre-drawn game's sheet, once, before its first
// tirage (guide §2.17); duplicate.LireFeuille reads and checks it. Tirer
// then draws each coup from it.
type ChargerFeuille struct {
	Partie  string
	Feuille duplicate.Feuille
}

// ChargerFeuille handles ChargerFeuille.
func (a *Application) ChargerFeuille(ctx context.Context, c ChargerFeuille) error {
	return a.modifier(ctx, c.Partie, func(p *duplicate.Partie) error { return p.ChargerFeuille(c.Feuille) })
}

// Rejeter rejects a tirage at the director's choice (§3.2, guide §4.2).
type Rejeter struct {
	Partie string
}

// Rejeter handles Rejeter.
func (a *Application) Rejeter(ctx context.Context, c Rejeter) error {
	return a.modifier(ctx, c.Partie, (*duplicate.Partie).Rejeter)
}

// RetenirTop records the director's top (§3.4).
type RetenirTop struct {
	Partie string
	Ref    string
	Mot    string
}

// RetenirTop handles RetenirTop.
func (a *Application) RetenirTop(ctx context.Context, c RetenirTop) error {
	return a.modifier(ctx, c.Partie, func(p *duplicate.Partie) error { return p.RetenirTop(c.Ref, c.Mot) })
}

// AnnulerCoup voids the current coup (§3.6).
type AnnulerCoup struct {
	Partie string
	Motif  string
}

// AnnulerCoup handles AnnulerCoup.
func (a *Application) AnnulerCoup(ctx context.Context, c AnnulerCoup) error {
	return a.modifier(ctx, c.Partie, func(p *duplicate.Partie) error { return p.AnnulerCoup(c.Motif) })
}

// Ramasser records the collection of the current coup's bulletins.
type Ramasser struct {
	Partie string
}

// Ramasser handles Ramasser.
func (a *Application) Ramasser(ctx context.Context, c Ramasser) error {
	return a.modifier(ctx, c.Partie, (*duplicate.Partie).Ramasser)
}

// DeposerBulletins records bulletins handed in, all or none.
type DeposerBulletins struct {
	Partie    string
	Bulletins []duplicate.BulletinDepose
}

// DeposerBulletins handles DeposerBulletins.
func (a *Application) DeposerBulletins(ctx context.Context, c DeposerBulletins) error {
	return a.modifier(ctx, c.Partie, func(p *duplicate.Partie) error {
		for _, b := range c.Bulletins {
			if err := p.DeposerBulletin(b); err != nil {
				return err
			}
		}
		return nil
	})
}

// CorrigerBulletins corrects bulletins of topped coups, all or none (§5):
// the engine decides each one and the arbiter confirms (nil Arbitrage) or
// decides otherwise with a reason.
type CorrigerBulletins struct {
	Partie      string
	Corrections []duplicate.Correction
}

// CorrigerBulletins handles CorrigerBulletins.
func (a *Application) CorrigerBulletins(ctx context.Context, c CorrigerBulletins) error {
	return a.modifier(ctx, c.Partie, func(p *duplicate.Partie) error {
		for _, k := range c.Corrections {
			if err := p.CorrigerBulletin(k); err != nil {
				return err
			}
		}
		return nil
	})
}

// CorrigerAMain records a correction decided without the engine, signed
// and motivated by the arbiter.
type CorrigerAMain struct {
	Partie     string
	Correction duplicate.Correction
}

// CorrigerAMain handles CorrigerAMain.
func (a *Application) CorrigerAMain(ctx context.Context, c CorrigerAMain) error {
	return a.modifier(ctx, c.Partie, func(p *duplicate.Partie) error { return p.CorrigerAMain(c.Correction) })
}

// ContreArbitrer records a second arbiter's confirmation or amendment of a
// corrected bulletin (double arbitrage, guide §5).
type ContreArbitrer struct {
	Partie    string
	Arbitrage duplicate.DoubleArbitrage
}

// ContreArbitrer handles ContreArbitrer.
func (a *Application) ContreArbitrer(ctx context.Context, c ContreArbitrer) error {
	return a.modifier(ctx, c.Partie, func(p *duplicate.Partie) error { return p.ContreArbitrer(c.Arbitrage) })
}

// EmettreBillet records the billet de correction of a bulletin (§5.9, guide
// §5.2).
type EmettreBillet struct {
	Partie  string
	Coup    int
	Licence string
	Arbitre string
}

// EmettreBillet handles EmettreBillet.
func (a *Application) EmettreBillet(ctx context.Context, c EmettreBillet) error {
	return a.modifier(ctx, c.Partie, func(p *duplicate.Partie) error { return p.EmettreBillet(c.Coup, c.Licence, c.Arbitre) })
}

// RenvoyerCommission sends a bulletin to the commission d'arbitrage (§5.3.3,
// §6.3).
type RenvoyerCommission struct {
	Partie string
	Renvoi duplicate.RenvoiCommission
}

// RenvoyerCommission handles RenvoyerCommission.
func (a *Application) RenvoyerCommission(ctx context.Context, c RenvoyerCommission) error {
	return a.modifier(ctx, c.Partie, func(p *duplicate.Partie) error { return p.RenvoyerCommission(c.Renvoi) })
}

// DeciderAppel is the appeal commission's decision on one bulletin (§6.3).
type DeciderAppel struct {
	// Tournoi is the appeal's tournament: the game must belong to it.
	Tournoi string
	Partie  string
	Coup    int
	Licence string
	// Appel is the appeal's id in its tournament (appel.Flux) and Niveau the level
	// that decided: together they name the decision, recorded once.
	Appel  string
	Niveau int
	// Issue is upheld, rejected or amended.
	Issue duplicate.IssueAppel
	// Decision is the new correction when upheld or amended; nil when
	// rejected.
	Decision *correction.Decision
	// Motif is the commission's rationale.
	Motif string
}

// decider runs the decision on the game.
func (c DeciderAppel) decider(p *duplicate.Partie) error {
	if p.Tournoi() != c.Tournoi {
		return &erreur.Erreur{Code: duplicate.CodeNotFound,
			Message: fmt.Sprintf("la partie %s n'appartient pas au tournoi %s du recours %s", c.Partie, c.Tournoi, c.Appel)}
	}
	return p.DeciderAppel(duplicate.DecisionCommission{Coup: c.Coup, Licence: c.Licence, Appel: c.Appel, Niveau: c.Niveau,
		Issue: c.Issue, Decision: c.Decision, Motif: c.Motif})
}

// DeciderAppel records the commission's decision as a new event
// partie.decision_commission: the recorded corrections are never edited,
// and the standings follow the new decision. A decision already recorded
// (same appeal and level) records nothing. Bad input records nothing and
// returns an *erreur.Erreur (INVALID_BULLETIN, NOT_FOUND, CONFLICT...).
func (a *Application) DeciderAppel(ctx context.Context, c DeciderAppel) error {
	return a.modifier(ctx, c.Partie, c.decider)
}

// VerifierDecisionAppel tells whether the game as it stands accepts the
// decision, with DeciderAppel's refusals, and writes nothing.
func (a *Application) VerifierDecisionAppel(ctx context.Context, c DeciderAppel) error {
	p, err := a.depot.Charger(ctx, c.Partie)
	if err != nil {
		return err
	}
	return c.decider(p)
}

// SanctionDisciplinaire is a disciplinary decision of the director on a
// player's coup: an avertissement (§5.5, cumulating under §5.8), a zéro
// (§5.7) or the exclusion for cheating or proven fraud (§6.1).
type SanctionDisciplinaire struct {
	Partie  string
	Coup    int
	Licence string
	Nature  duplicate.NatureSanction
	Motif   string
}

// SanctionDisciplinaire records the decision as partie.sanction_disciplinaire,
// signed by the acting director (the metadata's actor). Bad input records
// nothing and returns a *erreur.Erreur (INVALID_SANCTION, UNKNOWN_PLAYER,
// EXCLUDED, RESULTS_CLOSED, NOT_FOUND, CONFLICT...).
func (a *Application) SanctionDisciplinaire(ctx context.Context, c SanctionDisciplinaire) error {
	return a.modifier(ctx, c.Partie, func(p *duplicate.Partie) error {
		return p.Sanctionner(duplicate.SanctionDisciplinaire{Coup: c.Coup, Licence: c.Licence, Nature: c.Nature,
			Motif: c.Motif, Par: a.metadata.Actor})
	})
}

// CloreResultats closes the results of a game that is over: the director
// confirms missing (ConfirmerManquants) the bulletins still missing or
// uncorrected, or the command is refused (BULLETINS_PENDING). After it no
// bulletin, correction, double arbitrage or sanction is recorded.
type CloreResultats struct {
	Partie             string
	ConfirmerManquants bool
}

// CloreResultats handles CloreResultats.
func (a *Application) CloreResultats(ctx context.Context, c CloreResultats) error {
	return a.modifier(ctx, c.Partie, func(p *duplicate.Partie) error {
		return p.CloreResultats(c.ConfirmerManquants, eventstore.ReadClock(a.horloge))
	})
}

// ArriveeEnRetard adds a late player (§6.2).
type ArriveeEnRetard struct {
	Partie  string
	Licence string
}

// ArriveeEnRetard handles ArriveeEnRetard.
func (a *Application) ArriveeEnRetard(ctx context.Context, c ArriveeEnRetard) error {
	return a.modifier(ctx, c.Partie, func(p *duplicate.Partie) error { return p.ArriveeEnRetard(c.Licence) })
}

// RetirerJoueur withdraws a player added late by mistake, with the reason.
type RetirerJoueur struct {
	Partie  string
	Licence string
	Motif   string
}

// RetirerJoueur handles RetirerJoueur.
func (a *Application) RetirerJoueur(ctx context.Context, c RetirerJoueur) error {
	return a.modifier(ctx, c.Partie, func(p *duplicate.Partie) error { return p.RetirerJoueur(c.Licence, c.Motif) })
}

// Interrompre starts an interruption now (§3.7, guide §2.13).
type Interrompre struct {
	Partie string
}

// Interrompre handles Interrompre.
func (a *Application) Interrompre(ctx context.Context, c Interrompre) error {
	return a.modifier(ctx, c.Partie, func(p *duplicate.Partie) error { return p.Interrompre(eventstore.ReadClock(a.horloge)) })
}

// Reprendre ends the interruption now (§3.7, guide §2.13).
type Reprendre struct {
	Partie string
}

// Reprendre handles Reprendre.
func (a *Application) Reprendre(ctx context.Context, c Reprendre) error {
	return a.modifier(ctx, c.Partie, func(p *duplicate.Partie) error { return p.Reprendre(eventstore.ReadClock(a.horloge)) })
}

// DemarrerChrono starts the chrono of the coup now, server's time (§1.3, §3.3).
type DemarrerChrono struct {
	Partie string
}

// DemarrerChrono handles DemarrerChrono.
func (a *Application) DemarrerChrono(ctx context.Context, c DemarrerChrono) error {
	return a.modifier(ctx, c.Partie, func(p *duplicate.Partie) error { return p.DemarrerChrono(eventstore.ReadClock(a.horloge)) })
}

// SuspendreChrono pauses the chrono of the coup now.
type SuspendreChrono struct {
	Partie string
}

// SuspendreChrono handles SuspendreChrono.
func (a *Application) SuspendreChrono(ctx context.Context, c SuspendreChrono) error {
	return a.modifier(ctx, c.Partie, func(p *duplicate.Partie) error { return p.SuspendreChrono(eventstore.ReadClock(a.horloge)) })
}

// ReprendreChrono resumes the chrono of the coup now.
type ReprendreChrono struct {
	Partie string
}

// ReprendreChrono handles ReprendreChrono.
func (a *Application) ReprendreChrono(ctx context.Context, c ReprendreChrono) error {
	return a.modifier(ctx, c.Partie, func(p *duplicate.Partie) error { return p.ReprendreChrono(eventstore.ReadClock(a.horloge)) })
}

// Eliminer decides the eliminations of the coup (§3.8.3, guide §2.14–2.15).
type Eliminer struct {
	Partie string
}

// Eliminer handles Eliminer.
func (a *Application) Eliminer(ctx context.Context, c Eliminer) error {
	return a.modifier(ctx, c.Partie, (*duplicate.Partie).Eliminer)
}

// AnnulerEliminations undoes, with the director's reason, the eliminations
// decided in error on the last coup played (§3.8.3).
type AnnulerEliminations struct {
	Partie string
	Motif  string
}

// AnnulerEliminations handles AnnulerEliminations.
func (a *Application) AnnulerEliminations(ctx context.Context, c AnnulerEliminations) error {
	return a.modifier(ctx, c.Partie, func(p *duplicate.Partie) error { return p.AnnulerEliminations(c.Motif) })
}

// Topper records a player's time on a coup of a topping (§3.8.4).
type Topper struct {
	Partie   string
	Coup     int
	Licence  string
	Secondes int
	Trouve   bool
}

// Topper handles Topper.
func (a *Application) Topper(ctx context.Context, c Topper) error {
	return a.modifier(ctx, c.Partie, func(p *duplicate.Partie) error { return p.Topper(c.Coup, c.Licence, c.Secondes, c.Trouve) })
}
