package graphql

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"arbitre/domain/acces"
	clqcommand "arbitre/domain/classique/command"
	"arbitre/domain/classique/cote"
	"arbitre/domain/classique/matchclassique"
	"arbitre/domain/classique/tournoiclassique"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore/streamname"
	"arbitre/graphql/model"
)

// surTournoiClassique runs a tournament command for the director and
// answers with the tournament's state.
func (r *Resolver) surTournoiClassique(ctx context.Context, id string, version *int, cmid *string, run func(ctx context.Context, app *clqcommand.Application) error) (*model.TournoiClassique, error) {
	ctx, md, err := r.commande(ctx, []acces.Role{acces.Directeur}, acces.Portee{Tournoi: id}, version, cmid)
	if err != nil {
		return nil, err
	}
	if err := run(ctx, r.classiqueApp(md)); err != nil {
		return nil, err
	}
	return r.tournoiClassiqueVue(ctx, id)
}

// surMatch runs a match command for an arbiter of the match's table (or
// the director) and answers with the match's state; the scope comes from
// the stored match, never from the request.
func (r *Resolver) surMatch(ctx context.Context, id string, version *int, cmid *string, run func(ctx context.Context, app *clqcommand.Application) error) (*model.MatchClassique, error) {
	p, err := r.Queries().Classique.Match(ctx, id)
	if err != nil {
		return nil, err
	}
	c := p.Creation()
	ctx, md, err := r.commande(ctx, []acces.Role{acces.Arbitre}, acces.Portee{Tournoi: c.Tournoi, Table: c.Table, Siege: true}, version, cmid)
	if err != nil {
		return nil, err
	}
	if err := run(ctx, r.classiqueApp(md)); err != nil {
		return nil, err
	}
	return r.matchVue(ctx, id)
}

// lireTournoiClassique reads a tournament; nil when there is no such
// tournament.
func (r *Resolver) lireTournoiClassique(ctx context.Context, id string) (*model.TournoiClassique, error) {
	t, err := r.Queries().Classique.Tournoi(ctx, id)
	if erreur.CodeOf(err) == tournoiclassique.CodeNotFound {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return vueTournoiClassique(t)
}

// tournoiClassiqueVue answers a command with the tournament's state.
func (r *Resolver) tournoiClassiqueVue(ctx context.Context, id string) (*model.TournoiClassique, error) {
	v, err := r.lireTournoiClassique(context.WithoutCancel(ctx), id)
	if err == nil && v == nil {
		err = &erreur.Erreur{Code: CodeNotFound, Message: fmt.Sprintf("le tournoi classique %s n'existe pas", id)}
	}
	return v, err
}

func vueTournoiClassique(t *tournoiclassique.TournoiClassique) (*model.TournoiClassique, error) {
	v := &model.TournoiClassique{ID: t.ID(), Nom: t.Nom(), Version: t.Version(), Rondes: t.Rondes(), Clos: t.Clos(),
		Inscrits: []model.InscritClassique{}, TetesDeSerie: t.TetesDeSerie(), Publiees: []model.RondeClassique{}, Classement: []model.LigneClassique{}}
	if v.TetesDeSerie == nil {
		v.TetesDeSerie = []string{}
	}
	noms := map[string]string{}
	for _, i := range t.Inscrits() {
		noms[i.Joueur] = i.Nom
		v.Inscrits = append(v.Inscrits, model.InscritClassique{Joueur: i.Joueur, Nom: i.Nom, Cote: i.Cote, Retire: i.Retire})
	}
	for _, pub := range t.Publiees() {
		v.Publiees = append(v.Publiees, model.RondeClassique{Ronde: pub.Ronde, Tables: vueTables(pub.Tables, t.Resultat),
			Exempt: optional(pub.Exempt), Amendee: pub.Amende})
	}
	if prop, amend := t.Proposition(); prop != nil {
		raisons, err := vueRaisons(t, prop.Tables, prop.Exempt)
		if err != nil {
			return nil, err
		}
		p := &model.PropositionClassique{Ronde: prop.Ronde, Methode: prop.Method, Tables: vueTables(prop.Tables, aucunResultat),
			Exempt: optional(prop.Exempt), AdversaireRetire: append([]string{}, prop.AdversaireRetire...), Raisons: raisons}
		if amend != nil {
			raisons, err := vueRaisons(t, amend.Tables, amend.Exempt)
			if err != nil {
				return nil, err
			}
			p.Amendement = &model.AmendementClassique{Tables: vueTables(amend.Tables, aucunResultat), Exempt: optional(amend.Exempt),
				Motif: optional(amend.Motif), Raisons: raisons}
		}
		v.Proposition = p
	}
	cfg := t.Config()
	v.Config = &model.ConfigClassique{Politique: cfg.Departage.Nom(), Departage: append([]tournoiclassique.Critere{}, cfg.Departage.Criteres...),
		ExAequo: cfg.Departage.ExAequo, ExemptPointsDeMatch: cfg.Exempt.PointsDeMatch, ExemptScore: cfg.Exempt.Score,
		ExemptScoreAdverse: cfg.Exempt.ScoreAdverse}
	for _, l := range t.Classement() {
		v.Classement = append(v.Classement, model.LigneClassique{Rang: l.Rang, Joueur: l.Joueur, Nom: noms[l.Joueur],
			PointsDeMatch: l.PointsDeMatch, Ppm: l.PPM, Pdep: l.Pdep, Ecart: l.Ecart, Cote: l.Cote, Parties: l.Parties,
			Exempts: l.Exempts, Retire: l.Retire})
	}
	return v, nil
}

// vueRaisons explains a pairing of the pending round (tournoiclassique.TournoiClassique.Raisons).
func vueRaisons(t *tournoiclassique.TournoiClassique, tables []tournoiclassique.Table, exempt string) (*model.RaisonsAppariement, error) {
	ex, err := t.Raisons(tables, exempt)
	if err != nil {
		return nil, err
	}
	v := &model.RaisonsAppariement{Revanches: ex.Repeats, Tables: make([]model.RaisonTableClassique, len(ex.Tables)),
		Exempt: optional(ex.Bye), TexteExempt: optional(ex.Bye.Texte())}
	for i, tb := range ex.Tables {
		v.Tables[i] = model.RaisonTableClassique{Numero: tb.Number, Debut: tb.Start, TexteDebut: tb.Start.Texte()}
		if tb.RepeatOf > 0 {
			v.Tables[i].Revanche = &tb.RepeatOf
		}
	}
	return v, nil
}

// configClassiqueDe reads a tournament's settings over the defaults
// (tournoiclassique.ConfigParDefaut); the domain validates them.
func configClassiqueDe(in *model.ConfigClassiqueInput) tournoiclassique.Config {
	cfg := tournoiclassique.ConfigParDefaut()
	if in == nil {
		return cfg
	}
	if in.Departage != nil {
		cfg.Departage.Criteres = in.Departage
	}
	cfg.Departage.ExAequo = in.ExAequo != nil && *in.ExAequo
	for _, f := range []struct{ in, cfg *int }{
		{in.ExemptPointsDeMatch, &cfg.Exempt.PointsDeMatch}, {in.ExemptScore, &cfg.Exempt.Score}, {in.ExemptScoreAdverse, &cfg.Exempt.ScoreAdverse},
	} {
		if f.in != nil {
			*f.cfg = *f.in
		}
	}
	return cfg
}

// aucunResultat is the results of tables not yet published.
func aucunResultat(string) (tournoiclassique.ResultatEnregistre, bool) {
	return tournoiclassique.ResultatEnregistre{}, false
}

func vueTables(tables []tournoiclassique.Table, resultat func(match string) (tournoiclassique.ResultatEnregistre, bool)) []model.TableClassique {
	out := make([]model.TableClassique, len(tables))
	for i, tb := range tables {
		out[i] = model.TableClassique{Numero: tb.Numero, Premier: tb.Premier, Second: tb.Second, Match: optional(tb.Match)}
		if res, ok := resultat(tb.Match); ok {
			out[i].Resultat = &model.ResultatClassique{Joueurs: res.Joueurs[:], Premier: res.Premier, Fin: matchclassique.Fin(res.Fin),
				Scores: res.Scores[:], Perdant: res.Perdant, PointsDeMatch: res.PointsDeMatch[:], Correction: optional(res.Correction)}
		}
	}
	return out
}

// matchVue loads a match and renders it for the request: racks only for
// the arbiters of its table, the commission and the director while it is
// played.
func (r *Resolver) matchVue(ctx context.Context, id string) (*model.MatchClassique, error) {
	p, err := r.Queries().Classique.Match(context.WithoutCancel(ctx), id)
	if err != nil {
		return nil, err
	}
	return vueMatch(p, voitChevalets(ctx, p)), nil
}

// voitChevalets says whether the request may see the racks (accesChevalets).
func voitChevalets(ctx context.Context, p *matchclassique.Match) bool {
	return accesChevalets(ctx, p) == nil
}

// accesChevalets lets anyone see the racks once the game is over, and the
// staff of the table before; otherwise it says why not.
func accesChevalets(ctx context.Context, p *matchclassique.Match) error {
	if p.Finie() {
		return nil
	}
	c := p.Creation()
	_, err := authorize(ctx, []acces.Role{acces.Arbitre, acces.Commission}, acces.Portee{Tournoi: c.Tournoi, Table: c.Table, Siege: true})
	return err
}

func vueMatch(p *matchclassique.Match, chevalets bool) *model.MatchClassique {
	c := p.Creation()
	grille := p.Grille()
	sac := p.Sac()
	scores := p.Scores()
	v := &model.MatchClassique{ID: c.Match, Tournoi: optional(c.Tournoi), Ronde: c.Ronde, Table: c.Table, Manche: c.Manche,
		Joueurs: c.Joueurs[:], Premier: c.Premier, Designation: c.Designation, Lexique: c.Lexique,
		Version: p.Version(), Phase: p.Phase(), Scores: scores[:], Trait: p.Trait(), Grille: grille.Rows(),
		Sac: sac.Size(), FinEnAttente: p.FinEnAttente(), Passes: p.Passes(),
		TempsEpuise: []bool{p.TempsEpuise(0), p.TempsEpuise(1)}, Journal: []model.CoupClassique{}}
	if j, n := p.TirageDu(); j >= 0 {
		v.TirageDu, v.ATirer = &j, n
	}
	if chevalets {
		a, b := p.Chevalet(0), p.Chevalet(1)
		v.Chevalets = []string{a.String(), b.String()}
	}
	if j, mots, ok := p.Contestable(); ok {
		v.Contestable = &model.CoupContestable{Joueur: j, Mots: mots}
	}
	if fin, ok := p.Fin(); ok {
		v.Fin = &model.FinMatch{Fin: fin.Fin, Joueur: fin.Joueur, Ajustements: fin.Ajustements[:], Scores: fin.Scores[:],
			Perdant: fin.Perdant, PointsDeMatch: fin.PointsDeMatch[:]}
	}
	if f, ok := p.Feuille(); ok {
		v.Feuille = &model.ResultatClassique{Joueurs: f.Joueurs[:], Premier: f.Premier, Fin: f.Fin, Scores: f.Scores[:],
			Perdant: f.Perdant, PointsDeMatch: f.PointsDeMatch[:]}
	}
	for _, coup := range p.Journal() {
		mc := model.CoupClassique{Joueur: coup.Joueur, Genre: coup.Genre, Reference: optional(coup.Ref), Mot: optional(coup.Mot),
			Motif: optional(matchclassique.Motif(coup.Motif)), Points: coup.Points, Cumul: coup.Cumul}
		if chevalets { // the letters of an exchange come from the rack
			mc.Chevalet, mc.Lettres = optional(coup.Chevalet), optional(coup.Lettres)
		}
		v.Journal = append(v.Journal, mc)
	}
	return v
}

// saisieDe reads the director's entry of a paper feuille de match: no
// scores stands for none (a forfeit), else exactly two.
func saisieDe(fin *matchclassique.Fin, scores []int, joueur *string) (tournoiclassique.Saisie, error) {
	s := tournoiclassique.Saisie{Fin: deref(fin), Joueur: deref(joueur)}
	if scores == nil {
		return s, nil
	}
	var err error
	s.Scores, err = scoresDe(scores)
	return s, err
}

// scoresDe reads the two scores of a feuille de match, in the order of the
// match's players.
func scoresDe(scores []int) ([2]int, error) {
	if len(scores) != 2 {
		return [2]int{}, refusal("scores", fmt.Sprintf("%d scores au lieu de 2", len(scores)), nil)
	}
	return [2]int{scores[0], scores[1]}, nil
}

// concerneTournoiClassique selects the stream of a classique tournament:
// its rounds, results and standings change only there.
func concerneTournoiClassique(id string) func(stream string) bool {
	stream, _ := tournoiclassique.Stream(id)
	return func(s string) bool { return s == stream }
}

// concerneMatch selects a match's stream.
func concerneMatch(id string) func(stream string) bool {
	stream, _ := streamname.MatchStream(id)
	return func(s string) bool { return s == stream }
}

// vueCotes lists the cotes of the projection with their série from the
// default thresholds.
func (r *Resolver) vueCotes(ctx context.Context) ([]model.CoteClassique, error) {
	cotes, err := r.CotesClassiques.ListeCotes(ctx)
	if err != nil {
		return nil, err
	}
	seuils := cote.DefaultThresholds()
	out := make([]model.CoteClassique, len(cotes))
	for i, c := range cotes {
		out[i] = model.CoteClassique{Joueur: c.Joueur, Cote: c.Cote, Tournois: c.Tournois, Serie: seuils.SerieOf(c.Cote),
			Politique: c.Politique, VersionPolitique: c.Version}
	}
	return out, nil
}

// cotesCalculees are a closed tournament's cotes before and after, by
// player; none while it is open or until the cotes projection rated it.
func (r *Resolver) cotesCalculees(ctx context.Context, t *model.TournoiClassique) ([]model.CoteDuTournoi, error) {
	out := []model.CoteDuTournoi{}
	if !t.Clos {
		return out, nil
	}
	cotes, err := r.Archives.CotesDuTournoi(ctx, t.ID)
	if err != nil {
		return nil, err
	}
	for _, j := range slices.Sorted(maps.Keys(cotes)) {
		out = append(out, model.CoteDuTournoi{Joueur: j, Avant: cotes[j][0], Apres: cotes[j][1]})
	}
	return out, nil
}
