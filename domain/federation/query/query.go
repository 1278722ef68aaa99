// Package query answers the questions asked of the federation's events
// (guide §2.17) and twinnings (§2.18): one method of Queries per question,
// as the use cases of package command are one method per command.
package query

import (
	"context"

	"arbitre/domain/aggregate"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore/idempotency"
	"arbitre/domain/federation"
)

// Queries reads the events and the twinnings through their repositories. A
// read loads the state as stored: the command envelope in the context, if
// any, is not checked.
type Queries struct {
	Epreuves  aggregate.Repository[*federation.Epreuve]
	Jumelages aggregate.Repository[*federation.Jumelage]
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

// Classement is the event's national ranking (§2.17.2–2.17.4).
func (q Queries) Classement(ctx context.Context, epreuve string) (federation.National, error) {
	e, err := q.Epreuves.Charger(idempotency.WithNoCommand(ctx), epreuve)
	if err != nil {
		return federation.National{}, err
	}
	if e.Version() == 0 {
		return federation.National{}, erreur.Refus(federation.CodeNotFound, "l'épreuve %s n'existe pas", epreuve)
	}
	return e.Classement(), nil
}

// Jumelage is twinning id as stored (an empty one when it does not exist).
func (q Queries) Jumelage(ctx context.Context, id string) (*federation.Jumelage, error) {
	return q.Jumelages.Charger(idempotency.WithNoCommand(ctx), id)
}

// Donnes are the bundles given to a twinning's ranking, read once the
// twinning is found, so that it can check them against the twinning before
// reading them whole.
type Donnes func(ctx context.Context, j *federation.Jumelage) ([]federation.PaquetSite, error)

// ClassementJumele asks for a twinning's ranking, with the bundles given
// to it.
type ClassementJumele struct {
	Jumelage string
	Donnes   Donnes
}

// ClassementJumele ranks the sites' scores under the twinning's formula and
// decisions (§2.18.1.C, §2.18.2.C): the bundles given and, for the sites
// and games they leave out, the results the sites sent online and the
// principal's own games, read from its store. A site's bundle given is
// checked as its results sent online are (federation.VerifierSite), against
// the principal's bundle of the same game given along, else the principal's
// game in its store.
func (q Queries) ClassementJumele(ctx context.Context, c ClassementJumele) (federation.ClassementJumele, error) {
	j, err := q.Jumelage(ctx, c.Jumelage)
	if err != nil {
		return federation.ClassementJumele{}, err
	}
	if j.Version() == 0 {
		return federation.ClassementJumele{}, erreur.Refus(federation.CodeNotFound, "le jumelage %s n'existe pas", c.Jumelage)
	}
	paquets, err := c.Donnes(ctx, j)
	if err != nil {
		return federation.ClassementJumele{}, err
	}
	if err := q.verifierPaquets(ctx, j, paquets); err != nil {
		return federation.ClassementJumele{}, err
	}
	scores, err := federation.ScoresDesSites(paquets)
	if err != nil {
		return federation.ClassementJumele{}, err
	}
	autres := j.Scores()
	if q.Principal != nil && j.Tournoi() != "" {
		siens, err := q.Principal.Scores(ctx, j.Principal(), j.Tournoi())
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
func (q Queries) verifierPaquets(ctx context.Context, j *federation.Jumelage, paquets []federation.PaquetSite) error {
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
		if !ok && q.Principal != nil && j.Tournoi() != "" {
			f, inscrits, err := q.Principal.Reference(ctx, j.Tournoi(), p.Resultats.Partie)
			if err != nil {
				return err
			}
			feuille, ok = f, true
			principal[p.Resultats.Partie], licences = f, append(licences, inscrits...)
		}
		if !ok {
			return erreur.Refus(federation.CodeResultatsInvalides, "le paquet du site %s pour la partie %s ne se vérifie "+
				"que contre la partie du principal : donner aussi le paquet du principal %s pour cette partie", p.Resultats.Centre, p.Resultats.Partie, j.Principal())
		}
		if err := j.VerifierSite(p.Resultats, federation.Controle{Principal: feuille, Site: p.Feuille, Licences: licences, Autres: sites}); err != nil {
			return err
		}
	}
	return nil
}
