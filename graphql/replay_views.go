package graphql

import (
	"encoding/json"
	"fmt"
	"strings"

	"arbitre/domain/duplicate"
	"arbitre/domain/duplicate/query"
	"arbitre/engine/correction"
	"arbitre/graphql/model"
)

func vueReplay(p *duplicate.Partie, e *query.Etat) *model.Replay {
	v := &model.Replay{Partie: e.Partie, Coup: e.Coup, Lexique: e.Lexique.String(), Grille: e.Lignes, Tirage: e.Tirage, Reliquat: e.Reliquat, Sac: e.Sac,
		Rejets: []string{}, Solutions: []model.SolutionTop{}, Bulletins: []model.BulletinRejoue{}, Journal: []model.Acte{}}
	for c := 1; c <= p.ProchainCoup(); c++ {
		if _, ok := p.Top(c); ok {
			v.DernierCoup = c
		}
	}
	for _, r := range e.Rejets {
		v.Rejets = append(v.Rejets, r.Reliquat+r.Tirees)
	}
	if e.Top.Mot != "" {
		top := vueTop(e.Top)
		v.Top = &top
	}
	for _, s := range e.Solutions {
		v.Solutions = append(v.Solutions, model.SolutionTop{Mot: s.Move.WordString(), Reference: s.Move.Ref().String(),
			Score: int(s.Move.Score), AvecJoker: s.Joker, FinDePartie: s.FinDePartie, Admissible: s.Admissible})
	}
	for _, b := range e.Bulletins {
		ecrit, _ := json.Marshal(b.Bulletin)
		br := model.BulletinRejoue{Licence: b.Licence, Ecrit: string(ecrit), Moteur: rejouee(b.Maintenant), Ecart: b.Differe, Differences: []string{}}
		if b.Table > 0 {
			table := b.Table
			br.Table = &table
		}
		if b.EnVigueur != nil {
			br.Enregistree = rejouee(*b.EnVigueur)
		}
		for _, d := range b.Differences {
			br.Differences = append(br.Differences, fmt.Sprintf("%s : %s → %s", d.Field, d.Recorded, d.Now))
		}
		v.Bulletins = append(v.Bulletins, br)
	}
	for _, a := range e.Actes {
		v.Journal = append(v.Journal, model.Acte{Quand: a.A, Type: a.Type, Acteur: a.Acteur, Role: a.Role})
	}
	return v
}

// sanctions are the French words of a decision's sanction.
var sanctions = map[correction.Sanction]string{
	correction.None: "", correction.Warning: "avertissement", correction.Penalty: "pénalité",
	correction.Zero: "zéro", correction.Average: "moyenne",
}

func rejouee(d correction.Decision) *model.DecisionRejouee {
	parts := []string{fmt.Sprintf("%d pts", d.Paid)}
	if s := sanctions[d.Sanction]; s != "" {
		parts = append(parts, s)
	}
	if d.Place != "" {
		parts = append(parts, "en "+d.Place)
	}
	texte := strings.Join(parts, ", ")
	if len(d.Reasons) > 0 {
		rs := make([]string, len(d.Reasons))
		for i, r := range d.Reasons {
			rs[i] = string(r)
		}
		texte += " (" + strings.Join(rs, ", ") + ")"
	}
	return &model.DecisionRejouee{Texte: texte, Decision: vueDecision(d)}
}
