package tournoiclassique

import (
	"arbitre/domain/aggregate"
	"arbitre/domain/classique/matchclassique"
	"arbitre/domain/erreur"
)

// FeuilleDeMatch is the validated feuille de match of a published table.
type FeuilleDeMatch struct {
	Match   string
	Feuille matchclassique.FeuilleValidee
}

// EnregistrerResultats copies the validated feuilles de match of published
// tables into the tournament, each once, all or nothing. A round's results
// in one batch cost one copy of the tournament, not one per result.
func (t *TournoiClassique) EnregistrerResultats(lot []FeuilleDeMatch) error {
	return aggregate.Decide(t, func(c *TournoiClassique) error {
		for _, f := range lot {
			ev, err := c.resultat(f.Match, f.Feuille)
			if err != nil {
				return err
			}
			if err := aggregate.Record(c, ev); err != nil {
				return err
			}
		}
		return nil
	})
}

// resultat is the event that copies feuille f of a published table, refused
// when the match has its result already or the feuille names other players.
func (t *TournoiClassique) resultat(match string, f matchclassique.FeuilleValidee) (ResultatEnregistre, error) {
	if t.clos {
		return ResultatEnregistre{}, erreur.Refus(CodeWrongState, "Le tournoi est clos")
	}
	if _, done := t.resultats[match]; done {
		return ResultatEnregistre{}, erreur.Refus(CodeInvalidResult, "Résultat refusé : le match %s a déjà son résultat", match)
	}
	for _, r := range t.publiees {
		for _, tb := range r.Tables {
			if tb.Match != match {
				continue
			}
			if f.Joueurs != [2]string{tb.Premier, tb.Second} && f.Joueurs != [2]string{tb.Second, tb.Premier} {
				return ResultatEnregistre{}, erreur.Refus(CodeInvalidResult, "Résultat refusé : la feuille de %s nomme %v, la table oppose %s à %s", match, f.Joueurs, tb.Premier, tb.Second)
			}
			return ResultatEnregistre{Ronde: r.Ronde, Table: tb.Numero, Match: match, Joueurs: f.Joueurs, Premier: f.Premier,
				Fin: string(f.Fin), Scores: f.Scores, Perdant: f.Perdant, PointsDeMatch: f.PointsDeMatch}, nil
		}
	}
	return ResultatEnregistre{}, erreur.Refus(CodeInvalidResult, "Résultat refusé : aucune table publiée ne joue le match %s", match)
}
