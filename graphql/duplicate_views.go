package graphql

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"arbitre/domain/acces"
	"arbitre/domain/duplicate"
	dupcommand "arbitre/domain/duplicate/command"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/idempotency"
	"arbitre/domain/tournoi"
	"arbitre/engine/board"
	"arbitre/graphql/model"
	"arbitre/projections/parties"
)

// commande authorizes the request for the roles on the tournament of the
// partie and returns a context carrying the client's command envelope, with
// the event metadata of the actor.
func (r *Resolver) commande(ctx context.Context, roles []acces.Role, portee acces.Portee, version *int, clientMutationID *string) (context.Context, eventstore.Metadata, error) {
	h, err := authorize(ctx, roles, portee)
	if err != nil {
		return ctx, eventstore.Metadata{}, err
	}
	ctx, err = avecCommande(ctx, h, version, clientMutationID)
	if err != nil {
		return ctx, actor(h), err
	}
	// A key reused for another request is refused whichever stream the
	// command writes to (the stream itself tells a retry).
	return ctx, actor(h), r.Cles.Check(ctx, idempotency.CommandFrom(ctx))
}

// apresPartie runs a duplicate command for the director and answers with the
// game's state.
func (r *Resolver) apresPartie(ctx context.Context, id string, version *int, cmid *string, run func(ctx context.Context, app *dupcommand.Application) error) (*model.Partie, error) {
	p, err := r.Queries().Duplicate.Partie(ctx, id)
	if err != nil {
		return nil, err
	}
	ctx, md, err := r.commande(ctx, []acces.Role{acces.Directeur}, acces.Portee{Tournoi: p.Tournoi()}, version, cmid)
	if err != nil {
		return nil, err
	}
	if err := run(ctx, r.partieApp(md)); err != nil {
		return nil, err
	}
	return r.partieVue(ctx, id)
}

// partieVue renders a game's public view as of the request (see r.vue):
// after a command, with the command's own events (an older view, or none
// for a game just created, would misreport it).
func (r *Resolver) partieVue(ctx context.Context, id string) (*model.Partie, error) {
	return r.vue(ctx, id, 0)
}

// modelePartie translates a game's view from the parties projection.
func modelePartie(p *parties.Vue) *model.Partie {
	cfg := p.Config
	v := &model.Partie{
		ID: p.ID, Tournoi: optional(p.Tournoi), Statut: p.Statut, Version: p.Version,
		Coup: p.Coup, Grille: p.Grille, Sac: p.Sac, Joueurs: p.Joueurs, Tirage: optional(p.Tirage),
		Tops: make([]model.TopRetenu, len(p.Tops)), Minuteur: p.Chrono,
		Config: &model.ConfigPartie{
			TempsParCoupSecondes: int(cfg.TempsParCoup.Seconds()), Formule: cfg.Formule, Variante: cfg.Variante,
			Source: cfg.Source, GraineTest: cfg.GraineTest != nil, Mode: cfg.Mode,
			AvertissementsGratuits: cfg.Gratuits(), SeuilSolo: cfg.SeuilSolo, TopJoue: cfg.TopJoue,
		},
	}
	if p.Numero > 0 {
		v.Numero = &p.Numero
	}
	if p.Lexique != nil {
		lexique := p.Lexique.String()
		v.Lexique = &lexique
	}
	for i, t := range p.Tops {
		v.Tops[i] = vueTop(t)
	}
	if n := len(v.Tops); n > 0 {
		v.DernierTop = &v.Tops[n-1]
	}
	if p.Statut == duplicate.StatutTirage {
		v.Reliquat, v.Nouvelles = &p.Reliquat, &p.Nouvelles
	}
	v.Rejets = make([]model.RejetTirage, len(p.Rejets))
	for i, r := range p.Rejets {
		v.Rejets[i] = model.RejetTirage{Coup: r.Coup, Reliquat: r.Reliquat, Nouvelles: r.Tirees, Motif: model.MotifRejet(r.Motif)}
	}
	// A test seed tells every tirage to come: shown once the game is over.
	if cfg.GraineTest != nil && p.Statut == duplicate.StatutTerminee {
		graine := int(*cfg.GraineTest)
		v.Config.Graine = &graine
	}
	if f := p.Fin; f != nil {
		v.Fin = &model.FinPartie{Motif: f.Motif, DernierCoup: f.DernierCoup, Annulee: f.Annulee, Vainqueur: optional(f.Vainqueur),
			ResultatsClos: p.ResultatsClos}
	}
	return v
}

func vueTop(t duplicate.TopRetenu) model.TopRetenu {
	return model.TopRetenu{Coup: t.Coup, Mot: t.Mot, Reference: t.Ref, Score: t.Score, Cases: casesDe(t.Ref, len(t.Mot))}
}

// casesDe lists the squares a word covers, e.g. H4 H5 H6.
func casesDe(ref string, n int) []string {
	r, err := board.ParseRef(ref)
	if err != nil {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		row, col := r.Row, r.Col+i
		if r.Vertical {
			row, col = r.Row+i, r.Col
		}
		out[i] = string(rune('A'+row)) + strconv.Itoa(col+1)
	}
	return out
}

func vueTournoi(t *tournoi.Tournoi) *model.Tournoi {
	v := &model.Tournoi{ID: t.ID(), Nom: t.Nom(), Version: t.Version(), Parties: t.Parties(), Homologue: t.Homologue(), Joueurs: []model.Joueur{}}
	if n := t.NombreParties(); n > 0 {
		v.NombreParties = &n
	}
	for _, j := range t.Joueurs() {
		mj := model.Joueur{Licence: j.Licence, Nom: j.Nom, Club: optional(j.Club), Federation: optional(j.Federation), Serie: optional(j.Serie)}
		if j.Table > 0 {
			table := j.Table
			mj.Table = &table
		}
		v.Joueurs = append(v.Joueurs, mj)
	}
	return v
}

func joueurDe(in model.JoueurInput) tournoi.Joueur {
	j := tournoi.Joueur{Licence: in.Licence, Nom: in.Nom, Club: deref(in.Club), Federation: deref(in.Federation), Serie: deref(in.Serie)}
	if in.Table != nil {
		j.Table = *in.Table
	}
	return j
}

// configDe reads the game configuration; the domain validates it.
func configDe(in model.ConfigPartieInput) (duplicate.Config, error) {
	cfg := duplicate.Config{
		TempsParCoup: time.Duration(in.TempsParCoupSecondes) * time.Second,
		Formule:      deref(in.Formule), Variante: deref(in.Variante),
		Source: deref(in.Source), Mode: deref(in.Mode), AvertissementsGratuits: in.AvertissementsGratuits,
		TopJoue: deref(in.TopJoue),
	}
	if in.Graine != nil {
		if *in.Graine < 0 {
			return cfg, refusal("graine", fmt.Sprintf("%d est négative", *in.Graine), nil)
		}
		cfg.GraineTest = new(uint64(*in.Graine))
	}
	if in.SeuilSolo != nil {
		if *in.SeuilSolo < 1 {
			return cfg, refusal("seuilSolo", fmt.Sprintf("%d joueur(s) : le seuil des solos est d'au moins 1 (§3.5)", *in.SeuilSolo), nil)
		}
		cfg.SeuilSolo = *in.SeuilSolo
	}
	return cfg, nil
}

func joueursDe(in []model.JoueurInput) []tournoi.Joueur {
	out := make([]tournoi.Joueur, len(in))
	for i, j := range in {
		out[i] = joueurDe(j)
	}
	return out
}

// vueChrono reads the chrono at the server's time (§1.3, §3.3).
func vueChrono(c duplicate.Chrono, horloge eventstore.Clock) *model.Chrono {
	now := eventstore.ReadClock(horloge)
	l := c.A(now)
	return &model.Chrono{Coup: c.Coup, Etat: l.Etat, TempsAccordeSecondes: int(c.Duree / time.Second),
		EcouleMs: int(l.Ecoule.Milliseconds()), RestantMs: int(l.Restant.Milliseconds()),
		AlerteSecondes: int(l.Alerte / time.Second), HeureServeur: now.Wall}
}
