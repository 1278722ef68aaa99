package graphql

import (
	"context"
	"fmt"

	"arbitre/domain/acces"
	appeldom "arbitre/domain/appel"
	appcommand "arbitre/domain/appel/command"
	appquery "arbitre/domain/appel/query"
	"arbitre/domain/erreur"
	"arbitre/graphql/model"
)

// surAppel runs a commission command on appeal id of tournament tournoi,
// which must be the token's, and answers with the appeal's state.
func (r *Resolver) surAppel(ctx context.Context, tournoi, id string, run func(ctx context.Context, app *appcommand.Application) error) (*model.Appel, error) {
	v, err := r.appelDansLaPortee(ctx, tournoi, id)
	if err != nil {
		return nil, err
	}
	ctx, md, err := r.commande(ctx, []acces.Role{acces.Commission}, acces.Portee{Tournoi: v.Tournoi}, nil, nil)
	if err != nil {
		return nil, err
	}
	if err := run(ctx, r.appelApp(md)); err != nil {
		return nil, err
	}
	return r.vueAppel(ctx, tournoi, id)
}

// tournoiDesAppels is the tournament whose appeals a list shows: a game's
// stored tournament, never one the client names beside it, or the named
// tournament once it is known to exist.
func (r *Resolver) tournoiDesAppels(ctx context.Context, partie, tournoi string) (string, error) {
	if (partie == "") == (tournoi == "") {
		return "", refusal("appels", "donner une partie ou un tournoi, pas les deux", nil)
	}
	if partie != "" {
		p, err := r.partieVue(ctx, partie)
		if err != nil {
			return "", err
		}
		return deref(p.Tournoi), nil
	}
	t, err := r.Queries().Tournoi.Tournoi(ctx, tournoi)
	if err != nil {
		return "", err
	}
	if t.Version() == 0 {
		return "", &erreur.Erreur{Code: CodeNotFound, Message: fmt.Sprintf("le tournoi %s n'existe pas", tournoi)}
	}
	return tournoi, nil
}

func revisionDe(v *int) appcommand.Revision {
	if v == nil {
		return nil
	}
	rev := uint64(*v)
	return &rev
}

// appelDansLaPortee is appeal id of tournament tournoi for the request:
// the commission and the director of its tournament, the arbiters of the
// appellant's table (of any table for an appeal on no player's seat) read
// it; to anyone else it is unknown, in the same words as an id nobody used
// (appeldom.Inconnu), so that another table learns neither that it exists
// nor its revision (issue 28 item 10). Ids belong to their tournament: the
// same id in another tournament is another appeal.
func (r *Resolver) appelDansLaPortee(ctx context.Context, tournoi, id string) (*model.Appel, error) {
	v, err := r.vueAppel(ctx, tournoi, id)
	if err != nil {
		return nil, err
	}
	if !voitAppel(ctx, v) {
		return nil, appeldom.Inconnu(id)
	}
	return v, nil
}

// voitAppel says whether the request's token may read appeal v
// (appelDansLaPortee).
func voitAppel(ctx context.Context, v *model.Appel) bool {
	_, err := authorize(ctx, []acces.Role{acces.Arbitre, acces.Commission},
		acces.Portee{Tournoi: v.Tournoi, Table: deref(v.Table), Siege: v.Licence != nil})
	return err == nil
}

func (r *Resolver) vueAppel(ctx context.Context, tournoi, id string) (*model.Appel, error) {
	a, err := r.Queries().Appel.Appel(ctx, appquery.Designation{Tournoi: tournoi, ID: id})
	if err != nil {
		return nil, err
	}
	v := &model.Appel{ID: a.ID, Tournoi: a.Objet.Tournoi, Partie: optional(a.Objet.Partie), Licence: optional(a.Objet.Licence),
		Statut: a.Statut, DeposeLe: a.DeposeLe, Revision: int(a.Revision), Niveaux: []model.NiveauAppel{}, Historique: []model.Acte{}}
	if a.Objet.Coup > 0 {
		coup := a.Objet.Coup
		v.Coup = &coup
	}
	if a.Objet.Table > 0 {
		table := a.Objet.Table
		v.Table = &table
	}
	if a.DecisionEnVigueur != nil {
		v.DecisionEnVigueur = vueDecision(*a.DecisionEnVigueur)
	}
	for _, n := range a.Niveaux {
		v.Niveaux = append(v.Niveaux, vueNiveau(n))
	}
	for _, e := range a.Historique {
		v.Historique = append(v.Historique, model.Acte{Quand: e.Quand, Type: e.Type, Acteur: e.Acteur, Role: e.Role})
	}
	return v, nil
}

func vueNiveau(n appeldom.Niveau) model.NiveauAppel {
	v := model.NiveauAppel{Numero: n.Numero, Instance: n.Instance, Requerant: n.Requerant.Identite,
		Qualite: n.Requerant.Qualite, Motif: n.Motif, President: optional(n.President),
		Membres: append([]string{}, n.Membres...), Votes: []model.VoteAppel{}}
	if n.Contestee != nil {
		v.Contestee = vueDecision(*n.Contestee)
	}
	if n.Demandee != nil {
		v.Demandee = vueDecision(*n.Demandee)
	}
	for _, vote := range n.Votes {
		v.Votes = append(v.Votes, model.VoteAppel{Membre: vote.Membre, Issue: vote.Issue})
	}
	if n.Decision != nil {
		v.Issue = optional(n.Decision.Issue)
		v.Motivation = optional(n.Decision.Motivation)
	}
	return v
}
