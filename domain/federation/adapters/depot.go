// Package adapters keeps the federation's aggregates in the event store:
// one stream per event played in many centres ("federation-epreuve-<id>")
// and per twinning ("federation-jumelage-<id>").
package adapters

import (
	"context"
	"fmt"

	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/repository"
	"arbitre/domain/eventstore/streamname"
	"arbitre/domain/federation"
)

// agregat is one of the federation's aggregates.
type agregat interface {
	repository.Aggregate
	ID() string
}

// Depot loads and saves one kind of the federation's aggregates.
type Depot[A agregat] struct {
	depot repository.Repository[A]
	// flux names an aggregate's stream; quoi names it for people.
	flux func(id string) (string, error)
	quoi string
}

// Epreuves loads and saves the events played in many centres.
type Epreuves = Depot[*federation.Epreuve]

// Jumelages loads and saves the twinnings.
type Jumelages = Depot[*federation.Jumelage]

// NewEpreuves returns a repository over store; registre must hold the
// federation's event types (federation.RegisterEvents).
func NewEpreuves(store eventstore.Store, registre *eventstore.Registry) *Epreuves {
	return &Epreuves{depot: repository.Repository[*federation.Epreuve]{
		Streams: repository.Streams{Store: store, Registry: registre}, New: federation.NouvelleEpreuve},
		flux: streamname.EpreuveStream, quoi: "l'épreuve"}
}

// NewJumelages returns a repository over store.
func NewJumelages(store eventstore.Store, registre *eventstore.Registry) *Jumelages {
	return &Jumelages{depot: repository.Repository[*federation.Jumelage]{
		Streams: repository.Streams{Store: store, Registry: registre}, New: federation.NouveauJumelage},
		flux: streamname.JumelageStream, quoi: "le jumelage"}
}

// Charger replays an aggregate; one never recorded is at version 0.
func (d *Depot[A]) Charger(ctx context.Context, id string) (A, error) {
	stream, err := d.flux(id)
	if err != nil {
		var zero A
		return zero, &erreur.Erreur{Code: federation.CodeNotFound, Message: fmt.Sprintf("identifiant %q invalide pour %s", id, d.quoi), Err: err}
	}
	a, err := d.depot.Load(ctx, stream)
	return a, repository.Conflict(err, "%s %s a été modifié entre-temps : recharger", d.quoi, id)
}

// Enregistrer appends the aggregate's new events; a concurrent writer gets
// CONFLICT and nothing is written.
func (d *Depot[A]) Enregistrer(ctx context.Context, a A, md eventstore.Metadata) error {
	stream, err := d.flux(a.ID())
	if err != nil {
		return err
	}
	return repository.Conflict(d.depot.Save(ctx, stream, a, md), "%s %s a été modifié entre-temps : recharger", d.quoi, a.ID())
}
