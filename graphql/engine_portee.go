package graphql

import (
	"context"
	"fmt"

	"arbitre/domain/duplicate"
	dupquery "arbitre/domain/duplicate/query"
	"arbitre/domain/erreur"
)

// exigerPositionDansLaPortee lets the engine's queries analyse pos for a
// token without tournament, and for a token of one tournament only when
// pos is the current position (grid and tirage) of one of that
// tournament's games: otherwise the public grid and tirage of another
// tournament's open coup would give its unpublished top (issue 28 item 7).
// Any other position is FORBIDDEN, including variants of a game's.
func (r *Resolver) exigerPositionDansLaPortee(ctx context.Context, pos position) error {
	h, err := habilitation(ctx)
	if err != nil || h.Tournoi == "" {
		return err
	}
	refus := &erreur.Erreur{Code: CodeForbidden, Message: fmt.Sprintf("un jeton du tournoi %s n'analyse que la position en cours d'une partie de ce tournoi ; pour une autre position, il faut un jeton sans tournoi", h.Tournoi)}
	t, err := r.Queries().Tournoi.Tournoi(ctx, h.Tournoi)
	if err != nil {
		return err
	}
	for _, id := range t.Parties() {
		trouvee := false
		err := r.Queries().Duplicate.Consulter(ctx, dupquery.Consultation{Partie: id, Lire: func(p *duplicate.Partie) error {
			trouvee = p.Grille() == pos.board && p.Rack() == pos.rack
			return nil
		}})
		if err != nil {
			return err
		}
		if trouvee {
			return nil
		}
	}
	return refus
}
