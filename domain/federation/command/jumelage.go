package command

import (
	"context"
	"fmt"

	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/domain/federation"
)

// Jumelages is where the twinnings live (adapters.Jumelages).
type Jumelages = Depot[*federation.Jumelage]

// Twinning runs the commands of the tournaments twinned over the Internet
// (guide §2.18).
type Twinning struct {
	Jumelages Jumelages
	// Principal reads the principal's own games for the rankings; nil on a
	// site, which ranks nothing.
	Principal ScoresDuPrincipal
}

// ScoresDuPrincipal gives the principal's own players' scores in the games
// of its tournament, and what it knows to check a site's results of one of
// them (centres.Principal reads them from its own store).
type ScoresDuPrincipal interface {
	Scores(ctx context.Context, principal, tournoi string) ([]federation.ScorePartie, error)
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
func (a Twinning) Creer(ctx context.Context, c Creer, md eventstore.Metadata) error {
	return a.executer(ctx, c.Jumelage, md, func(j *federation.Jumelage) error {
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
func (a Twinning) RecevoirResultatsSite(ctx context.Context, c RecevoirResultatsSite, md eventstore.Metadata) error {
	return a.executer(ctx, c.Jumelage, md, func(j *federation.Jumelage) error {
		if a.Principal == nil || j.Tournoi() == "" {
			return &erreur.Erreur{Code: federation.CodeJumelageInvalide, Message: "le jumelage " + c.Jumelage + " ne suit aucun tournoi du principal : il ne reçoit pas de résultats en ligne"}
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
func (a Twinning) Couper(ctx context.Context, c Couper, md eventstore.Metadata) error {
	return a.executer(ctx, c.Jumelage, md, func(j *federation.Jumelage) error { return j.Couper(c.Site, c.Partie, c.Instant) })
}

// Retablir records that a site's link is back at a, with the decision the
// cut's length forces (§2.18.1.B, §2.18.2.B).
type Retablir struct {
	Jumelage string
	Site     string
	Instant  eventstore.Instant
}

// Retablir handles Retablir.
func (a Twinning) Retablir(ctx context.Context, c Retablir, md eventstore.Metadata) error {
	return a.executer(ctx, c.Jumelage, md, func(j *federation.Jumelage) error { return j.Retablir(c.Site, c.Instant) })
}

// Echeance takes, at a, the decisions of every cut past 15 minutes.
type Echeance struct {
	Jumelage string
	Instant  eventstore.Instant
}

// Echeance handles Echeance.
func (a Twinning) Echeance(ctx context.Context, c Echeance, md eventstore.Metadata) error {
	return a.executer(ctx, c.Jumelage, md, func(j *federation.Jumelage) error { return j.Echeance(c.Instant) })
}

// Donnes are the bundles given to a twinning's ranking, read once the
// twinning is found, so that it can check them against the twinning before
// reading them whole.
type Donnes func(ctx context.Context, j *federation.Jumelage) ([]federation.PaquetSite, error)

// Classement ranks the sites' scores under the twinning's formula and
// decisions (§2.18.1.C, §2.18.2.C): the bundles given and, for the sites
// and games they leave out, the results the sites sent online and the
// principal's own games, read from its store. A site's bundle given is
// checked as its results sent online are (federation.VerifierSite), against
// the principal's bundle of the same game given along, else the principal's
// game in its store.
func (a Twinning) Classement(ctx context.Context, id string, donnes Donnes) (federation.ClassementJumele, error) {
	j, err := a.Jumelages.Charger(ctx, id)
	if err != nil {
		return federation.ClassementJumele{}, err
	}
	if j.Version() == 0 {
		return federation.ClassementJumele{}, &erreur.Erreur{Code: federation.CodeNotFound, Message: "le jumelage " + id + " n'existe pas"}
	}
	paquets, err := donnes(ctx, j)
	if err != nil {
		return federation.ClassementJumele{}, err
	}
	if err := a.verifierPaquets(ctx, j, paquets); err != nil {
		return federation.ClassementJumele{}, err
	}
	scores, err := federation.ScoresDesSites(paquets)
	if err != nil {
		return federation.ClassementJumele{}, err
	}
	autres := j.Scores()
	if a.Principal != nil && j.Tournoi() != "" {
		siens, err := a.Principal.Scores(ctx, j.Principal(), j.Tournoi())
		if err != nil {
			return federation.ClassementJumele{}, err
		}
		autres = append(siens, autres...)
	}
	bundles := map[[2]string]bool{}
	for _, s := range scores {
		bundles[[2]string{s.Site, s.Partie}] = true
	}
	for _, s := range autres {
		if !bundles[[2]string{s.Site, s.Partie}] {
			scores = append(scores, s)
		}
	}
	return j.Classement(scores), nil
}

// verifierPaquets checks the sites' bundles given to a ranking: each
// against the principal's game (its bundle given along, else its store)
// and the licences of the principal's players and of the other sites.
func (a Twinning) verifierPaquets(ctx context.Context, j *federation.Jumelage, paquets []federation.PaquetSite) error {
	principal := map[string]federation.Feuille{}
	var licences []string
	var sites []federation.ResultatsCentre
	for _, p := range paquets {
		if p.Resultats.Centre == j.Principal() {
			principal[p.Resultats.Partie] = p.Feuille
			for _, joueur := range p.Resultats.Joueurs {
				licences = append(licences, joueur.Licence)
			}
		} else {
			sites = append(sites, p.Resultats)
		}
	}
	for _, p := range paquets {
		if p.Resultats.Centre == j.Principal() {
			continue
		}
		feuille, ok := principal[p.Resultats.Partie]
		if !ok && a.Principal != nil && j.Tournoi() != "" {
			f, inscrits, err := a.Principal.Reference(ctx, j.Tournoi(), p.Resultats.Partie)
			if err != nil {
				return err
			}
			feuille, ok = f, true
			principal[p.Resultats.Partie], licences = f, append(licences, inscrits...)
		}
		if !ok {
			return &erreur.Erreur{Code: federation.CodeResultatsInvalides, Message: fmt.Sprintf("le paquet du site %s pour la partie %s ne se vérifie "+
				"que contre la partie du principal : donner aussi le paquet du principal %s pour cette partie", p.Resultats.Centre, p.Resultats.Partie, j.Principal())}
		}
		if err := j.VerifierSite(p.Resultats, federation.Controle{Principal: feuille, Site: p.Feuille, Licences: licences, Autres: sites}); err != nil {
			return err
		}
	}
	return nil
}

func (a Twinning) executer(ctx context.Context, id string, md eventstore.Metadata, f func(*federation.Jumelage) error) error {
	return executer[*federation.Jumelage](ctx, a.Jumelages, id, md, f)
}
