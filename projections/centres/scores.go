package centres

import (
	"context"
	"fmt"

	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/domain/federation"
)

// ScoresDesPaquets gives a twinning's ranking the bundles (zip files) in
// paquets: each opened and its manifest checked, its centre the twinning's
// principal or one of its sites (INVALID_RESULTS), before any bundle's
// events are read; nom names a bundle in an error (a file, or paquets[i]).
func ScoresDesPaquets(registre *eventstore.Registry, paquets [][]byte, nom func(i int) string) func(context.Context, *federation.Jumelage) ([]federation.PaquetSite, error) {
	return func(ctx context.Context, j *federation.Jumelage) ([]federation.PaquetSite, error) {
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
		lus := make([]federation.PaquetSite, len(archives))
		for i, a := range archives {
			p, err := a.Lire(ctx, registre)
			if err != nil {
				return nil, fmt.Errorf("%s : %w", nom(i), err)
			}
			lus[i] = p.Site()
		}
		return lus, nil
	}
}

// Site is the bundle's results with the game it plays.
func (p Paquet) Site() federation.PaquetSite {
	return federation.PaquetSite{Resultats: p.Resultats, Feuille: p.Feuille}
}
