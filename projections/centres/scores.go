package centres

import "arbitre/domain/federation"

// ScoresJumeles are the players' scores of the sites' bundles, bundle by
// bundle: what the twinned rankings rank (guide §2.18.1.C, §2.18.2.C), the
// same for `arbitre jumelage classement` and the API's classementJumele.
func ScoresJumeles(paquets []Paquet) []federation.ScorePartie {
	var scores []federation.ScorePartie
	for _, p := range paquets {
		for _, j := range p.Resultats.Joueurs {
			scores = append(scores, federation.ScorePartie{Site: p.Resultats.Centre, Partie: p.Resultats.Partie,
				Licence: j.Licence, Nom: j.Nom, Serie: j.Serie, Score: j.Score})
		}
	}
	return scores
}
