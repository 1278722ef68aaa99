package graphql

import (
	"arbitre/domain/tournoi/command"
	"context"
)

// exclureDuTournoi carries an exclusion decided in a game to its tournament,
// so that the later games leave the player out and, when annulerParties,
// his earlier games are annulled (§6.1). The client's
// mutation id makes a retry harmless; its version was the game's.
func (r *Resolver) exclureDuTournoi(ctx context.Context, tournoi, licence, partie, motif string, annulerParties bool, cmid *string) error {
	h, err := habilitation(ctx)
	if err != nil {
		return err
	}
	if ctx, err = avecCommande(ctx, h, nil, cmid); err != nil {
		return err
	}
	return r.tournoiApp(actor(h)).Exclure(ctx, command.Exclure{Tournoi: tournoi, Licence: licence, Partie: partie, Motif: motif, AnnulerParties: annulerParties})
}
