// Package adapters connects the appeal to the rest of Arbitre: Depot keeps
// appeals in the event store (one stream "appel-<id>" each), Partie carries
// a commission's decision into the duplicate game through its
// DeciderAppel command.
package adapters

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"

	"arbitre/domain/appel"
	"arbitre/domain/eventstore"
)

// Depot loads and saves appeals.
type Depot struct {
	store    eventstore.Store
	registre *eventstore.Registry
}

// NewDepot returns a repository over store; registre must hold the appeal's
// event types (appel.RegisterEvents).
func NewDepot(store eventstore.Store, registre *eventstore.Registry) *Depot {
	return &Depot{store: store, registre: registre}
}

// Charger replays an appeal from its stream.
func (d *Depot) Charger(ctx context.Context, id string) (*appel.Appel, error) {
	stream, err := eventstore.AppelStream(id)
	if err != nil {
		return nil, &appel.Erreur{Code: appel.CodeAppealNotFound, Message: fmt.Sprintf("identifiant de recours %q invalide", id), Err: err}
	}
	evts, err := eventstore.ReadWholeStream(ctx, d.store, stream)
	if err != nil {
		return nil, err
	}
	if len(evts) == 0 {
		return nil, &appel.Erreur{Code: appel.CodeAppealNotFound, Message: fmt.Sprintf("le recours %s n'existe pas", id)}
	}
	a := appel.Nouveau()
	for _, e := range evts {
		payload, err := d.registre.Decode(e)
		if err != nil {
			return nil, err
		}
		if err := a.Appliquer(payload); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// Enregistrer appends the appeal's new events, expecting the stream to hold
// exactly the events the appeal was loaded with. A concurrent writer makes
// it fail with CONFLICT, wrapping the store's *eventstore.ConflictError
// (current revision), and nothing is written. Event ids derive from the
// stream, the revision and the payload: a retried save of the same events
// is idempotent, while another writer's different events at the same
// revision conflict instead of passing for a retry.
func (d *Depot) Enregistrer(ctx context.Context, a *appel.Appel, md eventstore.Metadata) error {
	nouveaux := a.Nouveaux()
	if len(nouveaux) == 0 {
		return nil
	}
	stream, err := eventstore.AppelStream(a.ID())
	if err != nil {
		return err
	}
	avant := a.Version() - len(nouveaux)
	attendu := eventstore.NoStream
	if avant > 0 {
		attendu = eventstore.Exact(uint64(avant - 1))
	}
	data := make([]eventstore.EventData, len(nouveaux))
	for i, e := range nouveaux {
		if data[i], err = d.registre.NewEventData(uuid.Nil, e, md); err != nil {
			return err
		}
		data[i].ID = uuid.NewSHA1(uuid.NameSpaceOID, fmt.Appendf(nil, "%s/%d/%s/%s", stream, avant+i, data[i].Type, data[i].Data))
	}
	if _, err := d.store.Append(ctx, stream, attendu, data...); err != nil {
		if errors.Is(err, eventstore.ErrConflict) {
			return &appel.Erreur{Code: appel.CodeConflict, Message: fmt.Sprintf("le recours %s a été modifié entre-temps : recharger", a.ID()), Err: err}
		}
		return err
	}
	return nil
}
