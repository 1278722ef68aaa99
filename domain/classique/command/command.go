// Package command holds the use cases of the classique game, one method per
// command: load the tournament (ronde) or the match (partie) through its
// repository, run the aggregate's command, save its events with optimistic
// concurrency. The electronic bag's draws come from the injected
// matchclassique.Hasard. Transport code (GraphQL, CLI) only translates and calls
// these methods; it checks who may act before.
package command

import (
	"context"
	"slices"

	"arbitre/domain/aggregate"
	"arbitre/domain/classique/matchclassique"
	"arbitre/domain/classique/pairing"
	"arbitre/domain/classique/tournoiclassique"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/idempotency"
)

// Tournois is where classique tournaments live (adapters.Tournois).
type Tournois = aggregate.Repository[*tournoiclassique.TournoiClassique]

// Matchs is where matches live (adapters.Matchs).
type Matchs = aggregate.Repository[*matchclassique.Match]

// CotesConnues gives the latest cote the federation knows of a player:
// the cote after his last classique tournament by date, played here or
// imported into the archive (historique.Lecteur.CoteConnue), false without one.
type CotesConnues interface {
	CoteConnue(ctx context.Context, joueur string) (int, bool, error)
}

// Application is the index of every classique use case.
type Application struct {
	tournois Tournois
	matchs   Matchs
	regles   *matchclassique.Regles
	hasard   matchclassique.Hasard
	metadata eventstore.Metadata
	cotes    CotesConnues
}

// New returns the use cases over the repositories: regles are the rules
// matches are created under, hasard gives the electronic bag's draws, md
// tells who acts.
func New(tournois Tournois, matchs Matchs, regles *matchclassique.Regles, hasard matchclassique.Hasard, md eventstore.Metadata) *Application {
	return &Application{tournois: tournois, matchs: matchs, regles: regles, hasard: hasard, metadata: md}
}

// AvecCotesConnues makes a player registered without a cote enter with the
// latest one the federation knows (docs/archive.md), recorded in his
// registration: seeding and pairing use it.
func (a *Application) AvecCotesConnues(c CotesConnues) *Application {
	a.cotes = c
	return a
}

// sansCommande drops the client's command envelope: reading another stream
// than the one the command writes is not checked against it.
func sansCommande(ctx context.Context) context.Context {
	return idempotency.WithCommand(ctx, idempotency.Command{})
}

// surTournoi runs one command on a tournament (aggregate.Run).
func (a *Application) surTournoi(ctx context.Context, id string, commande func(*tournoiclassique.TournoiClassique) error) error {
	_, err := aggregate.Run(ctx, a.tournois, id, a.metadata, commande)
	return err
}

// OuvrirTournoi opens a tournament of Rondes rounds with its configuration
// (tournoiclassique.TournoiClassique.Ouvrir).
type OuvrirTournoi struct {
	Tournoi string
	Nom     string
	Rondes  int
	Config  tournoiclassique.Config
}

// OuvrirTournoi handles OuvrirTournoi.
func (a *Application) OuvrirTournoi(ctx context.Context, c OuvrirTournoi) error {
	t := tournoiclassique.Nouveau()
	if err := t.Ouvrir(c.Tournoi, c.Nom, c.Rondes, c.Config); err != nil {
		return err
	}
	return a.tournois.Enregistrer(ctx, t, a.metadata)
}

// Inscrire registers a player with his cote (0 without one: the one the
// federation knows, AvecCotesConnues).
type Inscrire struct {
	Tournoi string
	Joueur  string
	Nom     string
	Cote    int
}

// Inscrire handles Inscrire.
func (a *Application) Inscrire(ctx context.Context, c Inscrire) error {
	lot, err := a.cotesConnues(ctx, []tournoiclassique.Inscription{{Joueur: c.Joueur, Nom: c.Nom, Cote: c.Cote}})
	if err != nil {
		return err
	}
	return a.surTournoi(ctx, c.Tournoi, func(t *tournoiclassique.TournoiClassique) error { return t.Inscrire(c.Joueur, c.Nom, lot[0].Cote) })
}

// InscrireLot registers a whole list, all or nothing (each player without
// a cote with the one the federation knows).
type InscrireLot struct {
	Tournoi string
	Lot     []tournoiclassique.Inscription
}

// InscrireLot handles InscrireLot.
func (a *Application) InscrireLot(ctx context.Context, c InscrireLot) error {
	lot, err := a.cotesConnues(ctx, c.Lot)
	if err != nil {
		return err
	}
	return a.surTournoi(ctx, c.Tournoi, func(t *tournoiclassique.TournoiClassique) error { return t.InscrireLot(lot) })
}

// cotesConnues gives each registration without a cote the one the
// federation knows, if any.
func (a *Application) cotesConnues(ctx context.Context, lot []tournoiclassique.Inscription) ([]tournoiclassique.Inscription, error) {
	if a.cotes == nil {
		return lot, nil
	}
	out := slices.Clone(lot)
	for i := range out {
		if out[i].Cote != 0 {
			continue
		}
		c, ok, err := a.cotes.CoteConnue(ctx, out[i].Joueur)
		if err != nil {
			return nil, err
		}
		if ok {
			out[i].Cote = c
		}
	}
	return out, nil
}

// EtablirTetesDeSerie seeds the registered players by cote.
type EtablirTetesDeSerie struct {
	Tournoi string
}

// EtablirTetesDeSerie handles EtablirTetesDeSerie.
func (a *Application) EtablirTetesDeSerie(ctx context.Context, c EtablirTetesDeSerie) error {
	return a.surTournoi(ctx, c.Tournoi, (*tournoiclassique.TournoiClassique).EtablirTetesDeSerie)
}

// ProposerRonde records the software's pairing of the next round.
type ProposerRonde struct {
	Tournoi           string
	Methode           pairing.Method
	RoiEviteRevanches bool
}

// ProposerRonde handles ProposerRonde.
func (a *Application) ProposerRonde(ctx context.Context, c ProposerRonde) error {
	return a.surTournoi(ctx, c.Tournoi, func(t *tournoiclassique.TournoiClassique) error { return t.Proposer(c.Methode, c.RoiEviteRevanches) })
}

// AmenderRonde records the director's amendment of the proposal.
type AmenderRonde struct {
	Tournoi string
	Tables  []tournoiclassique.TableAmendee
	Exempt  string
	Motif   string
}

// AmenderRonde handles AmenderRonde.
func (a *Application) AmenderRonde(ctx context.Context, c AmenderRonde) error {
	return a.surTournoi(ctx, c.Tournoi, func(t *tournoiclassique.TournoiClassique) error { return t.Amender(c.Tables, c.Exempt, c.Motif) })
}

// PublierRonde publishes the proposed (or amended) round.
type PublierRonde struct {
	Tournoi string
}

// PublierRonde handles PublierRonde.
func (a *Application) PublierRonde(ctx context.Context, c PublierRonde) error {
	return a.surTournoi(ctx, c.Tournoi, (*tournoiclassique.TournoiClassique).Publier)
}

// CreerMatch opens the match a published table of the tournament plays:
// its round, table and players, the table's first player starting, come
// from the tournament, never from the caller.
type CreerMatch struct {
	Tournoi string
	Match   string
}

// CreerMatch handles CreerMatch.
func (a *Application) CreerMatch(ctx context.Context, c CreerMatch) error {
	t, err := a.tournois.Charger(sansCommande(ctx), c.Tournoi)
	if err != nil {
		return err
	}
	numero, tb, err := tableDuMatch(t, c.Match)
	if err != nil {
		return err
	}
	p := matchclassique.Nouveau(a.regles)
	if err := p.Creer(matchclassique.Creation{Match: c.Match, Tournoi: c.Tournoi, Ronde: numero, Table: tb.Numero,
		Joueurs: [2]string{tb.Premier, tb.Second}, Premier: tb.Premier}); err != nil {
		return err
	}
	return a.matchs.Enregistrer(ctx, p, a.metadata)
}

// tableDuMatch finds the published table a match is played at.
func tableDuMatch(t *tournoiclassique.TournoiClassique, match string) (int, tournoiclassique.Table, error) {
	for _, pub := range t.Publiees() {
		for _, tb := range pub.Tables {
			if tb.Match == match {
				return pub.Ronde, tb, nil
			}
		}
	}
	return 0, tournoiclassique.Table{}, erreur.Refus(erreur.CodeNotFound, "aucune table publiée du tournoi %s ne joue le match %s", t.ID(), match)
}

// EnregistrerResultat copies the match's validated feuille de match into
// the tournament.
type EnregistrerResultat struct {
	Tournoi string
	Match   string
}

// EnregistrerResultat handles EnregistrerResultat.
func (a *Application) EnregistrerResultat(ctx context.Context, c EnregistrerResultat) error {
	return a.surTournoi(ctx, c.Tournoi, func(t *tournoiclassique.TournoiClassique) error {
		p, err := a.matchs.Charger(sansCommande(ctx), c.Match)
		if err != nil {
			return err
		}
		f, ok := p.Feuille()
		if !ok {
			return erreur.Refus(erreur.CodeInvalidInput, "la feuille de match de %s n'est pas validée (signée par les deux joueurs ou saisie par l'arbitre)", c.Match)
		}
		return t.EnregistrerResultat(c.Match, f)
	})
}

// SaisirResultat records the result of a table from its paper feuille de
// match.
type SaisirResultat struct {
	Tournoi string
	Match   string
	Saisie  tournoiclassique.Saisie
}

// SaisirResultat handles SaisirResultat.
func (a *Application) SaisirResultat(ctx context.Context, c SaisirResultat) error {
	return a.surTournoi(ctx, c.Tournoi, func(t *tournoiclassique.TournoiClassique) error { return t.SaisirResultat(c.Match, c.Saisie) })
}

// CorrigerResultat replaces the result of a table, for a reason.
type CorrigerResultat struct {
	Tournoi string
	Match   string
	Saisie  tournoiclassique.Saisie
	Motif   string
}

// CorrigerResultat handles CorrigerResultat.
func (a *Application) CorrigerResultat(ctx context.Context, c CorrigerResultat) error {
	return a.surTournoi(ctx, c.Tournoi, func(t *tournoiclassique.TournoiClassique) error {
		return t.CorrigerResultat(c.Match, c.Saisie, c.Motif)
	})
}

// RetirerJoueur withdraws a player from the rest of the tournament.
type RetirerJoueur struct {
	Tournoi string
	Joueur  string
	Motif   string
}

// RetirerJoueur handles RetirerJoueur.
func (a *Application) RetirerJoueur(ctx context.Context, c RetirerJoueur) error {
	return a.surTournoi(ctx, c.Tournoi, func(t *tournoiclassique.TournoiClassique) error { return t.Retirer(c.Joueur, c.Motif) })
}

// CloreTournoi closes the tournament.
type CloreTournoi struct {
	Tournoi string
}

// CloreTournoi handles CloreTournoi.
func (a *Application) CloreTournoi(ctx context.Context, c CloreTournoi) error {
	return a.surTournoi(ctx, c.Tournoi, (*tournoiclassique.TournoiClassique).Clore)
}
