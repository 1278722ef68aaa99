package graphql

import (
	"context"

	"arbitre/domain/eventstore"
)

// exclureDuTournoi carries an exclusion decided in a game to its tournament,
// so that the later games leave the player out (§6.1). The client's
// mutation id makes a retry harmless; its version was the game's.
func (r *Resolver) exclureDuTournoi(ctx context.Context, tournoi, licence, partie, motif string, cmid *string) error {
	h, err := habilitation(ctx)
	if err != nil {
		return err
	}
	ctx = eventstore.AvecCommande(ctx, eventstore.Commande{ID: deref(cmid)})
	return r.tournoiApp(actor(h)).Exclure(ctx, tournoi, licence, partie, motif)
}
