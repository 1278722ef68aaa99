// Package adapters stores duplicate games in the event store: one stream
// "partie-<id>" per game, events encoded through the registry under their
// explicit versioned names.
package adapters

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"

	"arbitre/domain/duplicate"
	"arbitre/domain/eventstore"
)

// Depot loads and saves games.
type Depot struct {
	store    eventstore.Store
	registre *eventstore.Registry
	moteur   duplicate.Moteur
}

// Registre returns a registry holding the duplicate game's event types.
func Registre() (*eventstore.Registry, error) {
	r := eventstore.NewRegistry()
	return r, duplicate.Enregistrer(r)
}

// NewDepot returns a repository over store; moteur validates tops of the
// games it loads.
func NewDepot(store eventstore.Store, registre *eventstore.Registry, moteur duplicate.Moteur) *Depot {
	return &Depot{store: store, registre: registre, moteur: moteur}
}

// Charger replays a game from its stream.
func (d *Depot) Charger(ctx context.Context, id string) (*duplicate.Partie, error) {
	stream, err := eventstore.PartieStream(id)
	if err != nil {
		return nil, &duplicate.Erreur{Code: duplicate.CodeNotFound, Message: fmt.Sprintf("identifiant de partie %q invalide", id), Err: err}
	}
	evts, err := eventstore.ReadWholeStream(ctx, d.store, stream)
	if err != nil {
		return nil, err
	}
	if len(evts) == 0 {
		return nil, &duplicate.Erreur{Code: duplicate.CodeNotFound, Message: fmt.Sprintf("la partie %s n'existe pas", id)}
	}
	p := duplicate.Nouvelle(d.moteur)
	for _, e := range evts {
		payload, err := d.registre.Decode(e)
		if err != nil {
			return nil, err
		}
		if err := p.Appliquer(payload); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// Enregistrer appends the game's new events, expecting the stream to hold
// exactly the events the game was loaded with. A concurrent writer makes it
// fail with CONFLICT and nothing is written.
func (d *Depot) Enregistrer(ctx context.Context, p *duplicate.Partie, md eventstore.Metadata) error {
	nouveaux := p.Nouveaux()
	if len(nouveaux) == 0 {
		return nil
	}
	stream, err := eventstore.PartieStream(p.ID())
	if err != nil {
		return err
	}
	avant := p.Version() - len(nouveaux)
	attendu := eventstore.NoStream
	if avant > 0 {
		attendu = eventstore.Exact(uint64(avant - 1))
	}
	data := make([]eventstore.EventData, len(nouveaux))
	for i, e := range nouveaux {
		id := uuid.NewSHA1(uuid.NameSpaceOID, fmt.Appendf(nil, "%s/%d", stream, avant+i))
		if data[i], err = d.registre.NewEventData(id, e, md); err != nil {
			return err
		}
	}
	if _, err := d.store.Append(ctx, stream, attendu, data...); err != nil {
		if errors.Is(err, eventstore.ErrConflict) {
			return &duplicate.Erreur{Code: duplicate.CodeConflict, Message: fmt.Sprintf("la partie %s a été modifiée entre-temps : recharger", p.ID()), Err: err}
		}
		return err
	}
	return nil
}
