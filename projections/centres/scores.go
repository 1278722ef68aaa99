package centres

import (
	"context"
	"fmt"

	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/domain/federation"
)

// ScoresDesPaquets gives a twinning's ranking the scores of the bundles
// (zip files) in paquets: each opened and its manifest checked, its centre
// the twinning's principal or one of its sites (RESULTATS_INVALIDES), before
// any bundle's events are read; nom names a bundle in an error (a file, or
// paquets[i]).
func ScoresDesPaquets(registre *eventstore.Registry, paquets [][]byte, nom func(i int) string) func(context.Context, *federation.Jumelage) ([]federation.ScorePartie, error) {
	return func(ctx context.Context, j *federation.Jumelage) ([]federation.ScorePartie, error) {
		archives := make([]*Archive, len(paquets))
		for i, data := range paquets {
			a, err := Ouvrir(ctx, data)
			if err != nil {
				return nil, fmt.Errorf("%s : %w", nom(i), err)
			}
			if !j.Centre(a.Manifeste.Centre) {
				return nil, erreur.Refus(federation.CodeResultatsInvalides, "%s : le centre %s n'est pas du jumelage %s", nom(i), a.Manifeste.Centre, j.ID())
			}
			archives[i] = a
		}
		lus := make([]Paquet, len(archives))
		for i, a := range archives {
			var err error
			if lus[i], err = a.Lire(ctx, registre); err != nil {
				return nil, fmt.Errorf("%s : %w", nom(i), err)
			}
		}
		return ScoresJumeles(lus)
	}
}

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
