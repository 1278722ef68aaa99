// Package adapters stores duplicate games in the event store: one stream
// "partie-<id>" per game, events encoded through the registry under their
// explicit versioned names.
package adapters

import (
	"context"
	"fmt"

	"arbitre/domain/duplicate"
	"arbitre/domain/eventstore"
)

// Depot loads and saves games.
type Depot struct {
	depot eventstore.Depot[*duplicate.Partie]
}

// Registre returns a registry holding the duplicate game's event types.
func Registre() (*eventstore.Registry, error) {
	r := eventstore.NewRegistry()
	return r, duplicate.Enregistrer(r)
}

// NewDepot returns a repository over store; moteur validates tops of the
// games it loads.
func NewDepot(store eventstore.Store, registre *eventstore.Registry, moteur duplicate.Moteur) *Depot {
	return &Depot{depot: eventstore.Depot[*duplicate.Partie]{
		Flux:    eventstore.Flux{Store: store, Registry: registre},
		Nouveau: func() *duplicate.Partie { return duplicate.Nouvelle(moteur) },
	}}
}

// Charger replays a game from its stream. With a command envelope in ctx
// it also reports eventstore.ErrDejaTraitee when the command was applied
// already, and a conflict when the client's version is not the stream's.
// A game created under a lexicon the engines do not hold is LEXIQUE_ABSENT:
// nothing is decided on it with another list.
func (d *Depot) Charger(ctx context.Context, id string) (*duplicate.Partie, error) {
	stream, err := eventstore.PartieStream(id)
	if err != nil {
		return nil, &duplicate.Erreur{Code: duplicate.CodeNotFound, Message: fmt.Sprintf("identifiant de partie %q invalide", id), Err: err}
	}
	p, err := d.depot.Charger(ctx, stream)
	if err != nil {
		return nil, d.conflit(id, err)
	}
	if p.Version() == 0 {
		return nil, &duplicate.Erreur{Code: duplicate.CodeNotFound, Message: fmt.Sprintf("la partie %s n'existe pas", id)}
	}
	if err := p.ExigerLexique(); err != nil {
		return nil, err
	}
	return p, nil
}

// Enregistrer appends the game's new events, expecting the stream to hold
// exactly the events the game was loaded with. A concurrent writer makes it
// fail with CONFLICT, nothing is written and the events stay new.
func (d *Depot) Enregistrer(ctx context.Context, p *duplicate.Partie, md eventstore.Metadata) error {
	stream, err := eventstore.PartieStream(p.ID())
	if err != nil {
		return err
	}
	return d.conflit(p.ID(), d.depot.Enregistrer(ctx, stream, p, md))
}

// conflit gives a store conflict the game's CONFLICT code and the current
// version; other errors pass through.
func (d *Depot) conflit(id string, err error) error {
	version, ok := eventstore.VersionOf(err)
	if !ok {
		return err
	}
	conflit := &duplicate.Erreur{Code: duplicate.CodeConflict, Message: fmt.Sprintf("la partie %s a été modifiée entre-temps (version %d) : recharger", id, version), Err: err}
	return conflit.Avec("version", version)
}
