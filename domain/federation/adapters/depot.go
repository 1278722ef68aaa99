// Package adapters keeps the federation's aggregates in the event store:
// one stream per event played in many centres ("federation-epreuve-<id>")
// and per twinning ("federation-jumelage-<id>").
package adapters

import (
	"context"
	"errors"
	"fmt"

	"arbitre/domain/eventstore"
	"arbitre/domain/federation"
)

// Epreuves loads and saves the events played in many centres.
type Epreuves struct {
	depot eventstore.Depot[*federation.Epreuve]
}

// NewEpreuves returns a repository over store; registre must hold the
// federation's event types (federation.Enregistrer).
func NewEpreuves(store eventstore.Store, registre *eventstore.Registry) *Epreuves {
	return &Epreuves{depot: eventstore.Depot[*federation.Epreuve]{
		Flux: eventstore.Flux{Store: store, Registry: registre}, Nouveau: federation.NouvelleEpreuve}}
}

// Charger replays an event; one never opened is at version 0.
func (d *Epreuves) Charger(ctx context.Context, id string) (*federation.Epreuve, error) {
	stream, err := eventstore.EpreuveStream(id)
	if err != nil {
		return nil, &federation.Erreur{Code: federation.CodeNotFound, Message: fmt.Sprintf("identifiant d'épreuve %q invalide", id), Err: err}
	}
	e, err := d.depot.Charger(ctx, stream)
	return e, conflit("l'épreuve "+id, err)
}

// Enregistrer appends the event's new events; a concurrent writer gets
// CONFLICT and nothing is written.
func (d *Epreuves) Enregistrer(ctx context.Context, e *federation.Epreuve, md eventstore.Metadata) error {
	stream, err := eventstore.EpreuveStream(e.ID())
	if err != nil {
		return err
	}
	return conflit("l'épreuve "+e.ID(), d.depot.Enregistrer(ctx, stream, e, md))
}

// conflit gives a store conflict the federation's CONFLICT code.
func conflit(quoi string, err error) error {
	if !errors.Is(err, eventstore.ErrConflict) {
		return err
	}
	return &federation.Erreur{Code: federation.CodeConflict, Message: quoi + " a été modifié entre-temps : recharger", Err: err}
}

// Jumelages loads and saves the twinnings.
type Jumelages struct {
	depot eventstore.Depot[*federation.Jumelage]
}

// NewJumelages returns a repository over store.
func NewJumelages(store eventstore.Store, registre *eventstore.Registry) *Jumelages {
	return &Jumelages{depot: eventstore.Depot[*federation.Jumelage]{
		Flux: eventstore.Flux{Store: store, Registry: registre}, Nouveau: federation.NouveauJumelage}}
}

// Charger replays a twinning; one never created is at version 0.
func (d *Jumelages) Charger(ctx context.Context, id string) (*federation.Jumelage, error) {
	stream, err := eventstore.JumelageStream(id)
	if err != nil {
		return nil, &federation.Erreur{Code: federation.CodeNotFound, Message: fmt.Sprintf("identifiant de jumelage %q invalide", id), Err: err}
	}
	j, err := d.depot.Charger(ctx, stream)
	return j, conflit("le jumelage "+id, err)
}

// Enregistrer appends the twinning's new events.
func (d *Jumelages) Enregistrer(ctx context.Context, j *federation.Jumelage, md eventstore.Metadata) error {
	stream, err := eventstore.JumelageStream(j.ID())
	if err != nil {
		return err
	}
	return conflit("le jumelage "+j.ID(), d.depot.Enregistrer(ctx, stream, j, md))
}
