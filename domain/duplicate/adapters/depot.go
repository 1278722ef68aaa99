// Package adapters stores duplicate games in the event store: one stream
// "partie-<id>" per game, events encoded through the registry under their
// explicit versioned names.
package adapters

import (
	"context"
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

// Charger replays a game from its stream. With a command envelope in ctx
// it also reports eventstore.ErrDejaTraitee when the command was applied
// already, and a conflict when the client's version is not the stream's.
func (d *Depot) Charger(ctx context.Context, id string) (*duplicate.Partie, error) {
	stream, err := eventstore.PartieStream(id)
	if err != nil {
		return nil, &duplicate.Erreur{Code: duplicate.CodeNotFound, Message: fmt.Sprintf("identifiant de partie %q invalide", id), Err: err}
	}
	evts, err := eventstore.ReadWholeStream(ctx, d.store, stream)
	if err != nil {
		return nil, err
	}
	if err := eventstore.CommandeDe(ctx).Verifier(stream, evts); err != nil {
		return nil, d.conflit(id, err)
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
	md = eventstore.CommandeDe(ctx).Metadata(md)
	data := make([]eventstore.EventData, len(nouveaux))
	for i, e := range nouveaux {
		if data[i], err = d.registre.NewEventData(uuid.Nil, e, md); err != nil {
			return err
		}
		data[i].ID = idEvenement(stream, avant+i, &data[i])
	}
	_, err = d.store.Append(ctx, stream, attendu, data...)
	return d.conflit(p.ID(), err)
}

// conflit gives a store conflict the game's CONFLICT code and the current
// version; other errors pass through.
func (d *Depot) conflit(id string, err error) error {
	version, ok := eventstore.VersionOf(err)
	if !ok {
		return err
	}
	return &duplicate.Erreur{Code: duplicate.CodeConflict, Message: fmt.Sprintf("la partie %s a été modifiée entre-temps (version %d) : recharger", id, version), Err: err, Version: version}
}

// idEvenement names an event by its place in the stream, its content and
// the request that caused it: the same request retried gives the same ids
// (the store recognizes the retry and writes nothing), while another writer
// at the same place (another request or other content) gets other ids and
// a conflict, never a silent success.
func idEvenement(stream string, revision int, e *eventstore.EventData) uuid.UUID {
	h := fmt.Appendf(nil, "%s/%d/%s/%d/%s/%s/%s/%s/", stream, revision, e.Type, e.Version,
		e.Metadata.Actor, e.Metadata.Role, e.Metadata.CorrelationID, e.Metadata.CausationID)
	return uuid.NewSHA1(uuid.NameSpaceOID, append(h, e.Data...))
}
