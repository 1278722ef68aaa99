package graphql

import (
	"context"

	"arbitre/domain/duplicate"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore/streamname"
	"arbitre/graphql/model"
)

// dePartie matches the streams of game id: its own and its tables'
// (eventstore.TableStream).
func dePartie(id string) func(stream string) bool {
	return func(stream string) bool {
		kind, partie, err := streamname.ParseStream(stream)
		return err == nil && kind == streamname.KindPartie && partie == id
	}
}

// vue returns the view of game id once the parties projection has applied
// the event at position pos, or (pos 0) every event recorded when the
// request arrived, waiting as long as ctx may last (attendreRunner): a
// client reads its own writes. The view itself is read without ctx's
// cancellation: it is kept for every request of the game (parties.Lecteur).
func (r *Resolver) vue(ctx context.Context, id string, pos uint64) (*model.Partie, error) {
	if _, err := streamname.PartieStream(id); err != nil {
		return nil, &erreur.Erreur{Code: duplicate.CodeNotFound, Message: "identifiant de partie invalide", Err: err}
	}
	if err := r.attendreRunner(ctx, r.PartiesRunner, pos); err != nil {
		return nil, err
	}
	return r.vues.Vue(context.WithoutCancel(ctx), id)
}
