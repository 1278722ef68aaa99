// Package command holds the use cases of the classique game, one method per
// command: load the tournament (ronde) or the match (partie) through its
// repository, run the aggregate's command, save its events with optimistic
// concurrency. The electronic bag's draws come from the injected
// partie.Hasard. Transport code (GraphQL, CLI) only translates and calls
// these methods; it checks who may act before.
package command

import (
	"context"
	"slices"

	"arbitre/domain/aggregate"
	"arbitre/domain/classique/pairing"
	"arbitre/domain/classique/partie"
	"arbitre/domain/classique/ronde"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/idempotency"
	"arbitre/engine/tile"
)

// Tournois is where classique tournaments live (adapters.Tournois).
type Tournois = aggregate.Repository[*ronde.Tournoi]

// Matchs is where matches live (adapters.Matchs).
type Matchs = aggregate.Repository[*partie.Partie]

// CotesConnues gives the latest cote the federation knows of a player:
// the cote after his last classique tournament by date, played here or
// imported into the archive (historique.CotesConnues), false without one.
type CotesConnues interface {
	CoteConnue(ctx context.Context, joueur string) (int, bool, error)
}

// Application is the index of every classique use case.
type Application struct {
	tournois Tournois
	matchs   Matchs
	regles   *partie.Regles
	hasard   partie.Hasard
	metadata eventstore.Metadata
	cotes    CotesConnues
}

// New returns the use cases over the repositories: regles are the rules
// matches are created under, hasard gives the electronic bag's draws, md
// tells who acts.
func New(tournois Tournois, matchs Matchs, regles *partie.Regles, hasard partie.Hasard, md eventstore.Metadata) *Application {
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
func (a *Application) surTournoi(ctx context.Context, id string, commande func(*ronde.Tournoi) error) error {
	_, err := aggregate.Run(ctx, a.tournois, id, a.metadata, commande)
	return err
}

// surMatch runs one command on a match (aggregate.Run).
func (a *Application) surMatch(ctx context.Context, id string, commande func(*partie.Partie) error) error {
	_, err := aggregate.Run(ctx, a.matchs, id, a.metadata, commande)
	return err
}

// OuvrirTournoi opens a tournament of rondes rounds with its configuration
// (ronde.Ouvrir).
func (a *Application) OuvrirTournoi(ctx context.Context, id, nom string, rondes int, cfg ronde.Config) error {
	t, err := ronde.Ouvrir(id, nom, rondes, cfg)
	if err != nil {
		return err
	}
	return a.tournois.Enregistrer(ctx, t, a.metadata)
}

// Inscrire registers a player with his cote (0 without one: the one the
// federation knows, AvecCotesConnues).
func (a *Application) Inscrire(ctx context.Context, tournoi, joueur, nom string, cote int) error {
	lot, err := a.cotesConnues(ctx, []ronde.Inscription{{Joueur: joueur, Nom: nom, Cote: cote}})
	if err != nil {
		return err
	}
	return a.surTournoi(ctx, tournoi, func(t *ronde.Tournoi) error { return t.Inscrire(joueur, nom, lot[0].Cote) })
}

// InscrireLot registers a whole list, all or nothing (each player without
// a cote with the one the federation knows).
func (a *Application) InscrireLot(ctx context.Context, tournoi string, lot []ronde.Inscription) error {
	lot, err := a.cotesConnues(ctx, lot)
	if err != nil {
		return err
	}
	return a.surTournoi(ctx, tournoi, func(t *ronde.Tournoi) error { return t.InscrireLot(lot) })
}

// cotesConnues gives each registration without a cote the one the
// federation knows, if any.
func (a *Application) cotesConnues(ctx context.Context, lot []ronde.Inscription) ([]ronde.Inscription, error) {
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
func (a *Application) EtablirTetesDeSerie(ctx context.Context, tournoi string) error {
	return a.surTournoi(ctx, tournoi, (*ronde.Tournoi).EtablirTetesDeSerie)
}

// ProposerRonde records the software's pairing of the next round.
func (a *Application) ProposerRonde(ctx context.Context, tournoi string, methode pairing.Method, roiEviteRevanches bool) error {
	return a.surTournoi(ctx, tournoi, func(t *ronde.Tournoi) error { return t.Proposer(methode, roiEviteRevanches) })
}

// AmenderRonde records the director's amendment of the proposal.
func (a *Application) AmenderRonde(ctx context.Context, tournoi string, tables []ronde.TableAmendee, exempt, motif string) error {
	return a.surTournoi(ctx, tournoi, func(t *ronde.Tournoi) error { return t.Amender(tables, exempt, motif) })
}

// PublierRonde publishes the proposed (or amended) round.
func (a *Application) PublierRonde(ctx context.Context, tournoi string) error {
	return a.surTournoi(ctx, tournoi, (*ronde.Tournoi).Publier)
}

// CreerMatch opens the match a published table of the tournament plays:
// its round, table and players, the table's first player starting, come
// from the tournament, never from the caller.
func (a *Application) CreerMatch(ctx context.Context, tournoi, match string) error {
	t, err := a.tournois.Charger(sansCommande(ctx), tournoi)
	if err != nil {
		return err
	}
	numero, tb, err := tableDuMatch(t, match)
	if err != nil {
		return err
	}
	p, err := partie.Creer(a.regles, partie.Creation{Match: match, Tournoi: tournoi, Ronde: numero, Table: tb.Numero,
		Joueurs: [2]string{tb.Premier, tb.Second}, Premier: tb.Premier})
	if err != nil {
		return err
	}
	return a.matchs.Enregistrer(ctx, p, a.metadata)
}

// tableDuMatch finds the published table a match is played at.
func tableDuMatch(t *ronde.Tournoi, match string) (int, ronde.Table, error) {
	for _, pub := range t.Publiees() {
		for _, tb := range pub.Tables {
			if tb.Match == match {
				return pub.Ronde, tb, nil
			}
		}
	}
	return 0, ronde.Table{}, erreur.Refus(erreur.CodeNotFound, "aucune table publiée du tournoi %s ne joue le match %s", t.ID(), match)
}

// EnregistrerResultat copies the match's validated feuille de match into
// the tournament.
func (a *Application) EnregistrerResultat(ctx context.Context, tournoi, match string) error {
	return a.surTournoi(ctx, tournoi, func(t *ronde.Tournoi) error {
		p, err := a.matchs.Charger(sansCommande(ctx), match)
		if err != nil {
			return err
		}
		f, ok := p.Feuille()
		if !ok {
			return erreur.Refus(erreur.CodeInvalidInput, "la feuille de match de %s n'est pas validée (signée par les deux joueurs ou saisie par l'arbitre)", match)
		}
		return t.EnregistrerResultat(match, f)
	})
}

// SaisirResultat records the result of a table from its paper feuille de
// match.
func (a *Application) SaisirResultat(ctx context.Context, tournoi, match string, s ronde.Saisie) error {
	return a.surTournoi(ctx, tournoi, func(t *ronde.Tournoi) error { return t.SaisirResultat(match, s) })
}

// CorrigerResultat replaces the result of a table, for a reason.
func (a *Application) CorrigerResultat(ctx context.Context, tournoi, match string, s ronde.Saisie, motif string) error {
	return a.surTournoi(ctx, tournoi, func(t *ronde.Tournoi) error { return t.CorrigerResultat(match, s, motif) })
}

// RetirerJoueur withdraws a player from the rest of the tournament.
func (a *Application) RetirerJoueur(ctx context.Context, tournoi, joueur, motif string) error {
	return a.surTournoi(ctx, tournoi, func(t *ronde.Tournoi) error { return t.Retirer(joueur, motif) })
}

// CloreTournoi closes the tournament.
func (a *Application) CloreTournoi(ctx context.Context, tournoi string) error {
	return a.surTournoi(ctx, tournoi, (*ronde.Tournoi).Clore)
}

// auHasard draws n letters from the match's bag as a player would: the
// electronic bag, from the source the Hasard gives for this match at its
// version.
func (a *Application) auHasard(p *partie.Partie, n int) string {
	return partie.TirerAuHasard(p.Sac(), n, a.hasard.Source(p.ID(), p.Version()))
}

// TirerLettres records the letters a player draws (§3.2.2, §4.1.4); with
// lettres empty the electronic bag draws them.
func (a *Application) TirerLettres(ctx context.Context, match, joueur, lettres string) error {
	return a.surMatch(ctx, match, func(p *partie.Partie) error {
		if lettres == "" {
			_, n := p.TirageDu()
			return p.Tirer(joueur, a.auHasard(p, n))
		}
		return p.Tirer(joueur, lettres)
	})
}

// PlacerMot records a word placed (§4.1).
func (a *Application) PlacerMot(ctx context.Context, match, joueur, reference, mot string) error {
	return a.surMatch(ctx, match, func(p *partie.Partie) error { return p.PlacerMot(joueur, reference, mot) })
}

// Passer records a pass (§4.2).
func (a *Application) Passer(ctx context.Context, match, joueur string) error {
	return a.surMatch(ctx, match, func(p *partie.Partie) error { return p.Passer(joueur) })
}

// Echanger records an exchange (§4.3); with tirees empty the electronic bag
// draws as many letters as the player puts back.
func (a *Application) Echanger(ctx context.Context, match, joueur, rejetees, tirees string) error {
	return a.surMatch(ctx, match, func(p *partie.Partie) error {
		if out, err := tile.ParseRack(rejetees); err == nil && tirees == "" {
			return p.Echanger(joueur, rejetees, a.auHasard(p, out.Size()))
		}
		return p.Echanger(joueur, rejetees, tirees)
	})
}

// Contester records the contestation of the last play (§5).
func (a *Application) Contester(ctx context.Context, match, joueur string, mots []string) error {
	return a.surMatch(ctx, match, func(p *partie.Partie) error { return p.Contester(joueur, mots) })
}

// Cloturer closes a game whose reliquat is exhausted (§7).
func (a *Application) Cloturer(ctx context.Context, match, joueur string) error {
	return a.surMatch(ctx, match, func(p *partie.Partie) error { return p.Cloturer(joueur) })
}

// ConstaterBlocage ends a blocked game (§7).
func (a *Application) ConstaterBlocage(ctx context.Context, match string) error {
	return a.surMatch(ctx, match, (*partie.Partie).ConstaterBlocage)
}

// DeclarerTempsEpuise records that a player's time is out (§6, §7).
func (a *Application) DeclarerTempsEpuise(ctx context.Context, match, joueur string) error {
	return a.surMatch(ctx, match, func(p *partie.Partie) error { return p.DeclarerTempsEpuise(joueur) })
}

// Penaliser records a penalty (§4.1.3, §8, §9); lettres counts the letters
// of a per-letter penalty.
func (a *Application) Penaliser(ctx context.Context, match, joueur string, motif partie.Motif, lettres int) error {
	return a.surMatch(ctx, match, func(p *partie.Partie) error { return p.Penaliser(joueur, motif, lettres) })
}

// DemanderAbandon records a player's request to abandon (§9).
func (a *Application) DemanderAbandon(ctx context.Context, match, joueur string) error {
	return a.surMatch(ctx, match, func(p *partie.Partie) error { return p.DemanderAbandon(joueur) })
}

// RepondreAbandon records the opponent's answer to an abandon (§9).
func (a *Application) RepondreAbandon(ctx context.Context, match, joueur string, accepte bool) error {
	return a.surMatch(ctx, match, func(p *partie.Partie) error { return p.RepondreAbandon(joueur, accepte) })
}

// ConstaterAbandon records a unilateral abandon (§9).
func (a *Application) ConstaterAbandon(ctx context.Context, match, joueur string) error {
	return a.surMatch(ctx, match, func(p *partie.Partie) error { return p.ConstaterAbandon(joueur) })
}

// DeclarerDefaite records a defeat by the arbiter's decision (§9).
func (a *Application) DeclarerDefaite(ctx context.Context, match, joueur string, huitLettres bool) error {
	return a.surMatch(ctx, match, func(p *partie.Partie) error { return p.DeclarerDefaite(joueur, huitLettres) })
}

// DeclarerForfait records the forfeit of an absent player (§9).
func (a *Application) DeclarerForfait(ctx context.Context, match, joueur string) error {
	return a.surMatch(ctx, match, func(p *partie.Partie) error { return p.DeclarerForfait(joueur) })
}

// SignerFeuille records a player's signature of the feuille de match with
// the scores he reads (§2.1.5).
func (a *Application) SignerFeuille(ctx context.Context, match, joueur string, scores [2]int) error {
	return a.surMatch(ctx, match, func(p *partie.Partie) error { return p.SignerFeuille(joueur, scores) })
}

// TrancherDesaccord records the arbiter's scores when the players disagree
// (§7).
func (a *Application) TrancherDesaccord(ctx context.Context, match string, scores [2]int) error {
	return a.surMatch(ctx, match, func(p *partie.Partie) error { return p.TrancherDesaccord(scores) })
}
