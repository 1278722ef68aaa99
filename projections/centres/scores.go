package centres

import (
	"arbitre/domain/erreur"
	"arbitre/domain/federation"
)

// ScoresJumeles are the players' scores of the sites' bundles, bundle by
// bundle: what the twinned rankings rank (guide §2.18.1.C, §2.18.2.C), the
// same for `arbitre jumelage classement` and the API's classementJumele.
// One site's game given twice would count twice: it is refused
// (RESULTATS_INVALIDES).
func ScoresJumeles(paquets []Paquet) ([]federation.ScorePartie, error) {
	var scores []federation.ScorePartie
	vus := map[[2]string]bool{}
	for _, p := range paquets {
		cle := [2]string{p.Resultats.Centre, p.Resultats.Partie}
		if vus[cle] {
			return nil, erreur.Refus(federation.CodeResultatsInvalides, "le paquet du site %s pour la partie %s est donné deux fois", cle[0], cle[1])
		}
		vus[cle] = true
		for _, j := range p.Resultats.Joueurs {
			scores = append(scores, federation.ScorePartie{Site: p.Resultats.Centre, Partie: p.Resultats.Partie,
				Licence: j.Licence, Nom: j.Nom, Serie: j.Serie, Score: j.Score})
		}
	}
	return scores, nil
}
