// Package adapters stores the classique aggregates in the event store: one
// stream "match-<id>" per match (partie) and one stream
// "tournoi-classique-<id>" per tournament (ronde), both through
// eventstore.Repository; the store's errors get the aggregates' codes.
package adapters

import (
	"context"
	"errors"

	"arbitre/domain/classique/matchclassique"
	"arbitre/domain/classique/tournoiclassique"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/repository"
	"arbitre/domain/eventstore/streamname"
)

// Registre returns a registry holding the classique event types (matches
// and tournaments).
func Registre() (*eventstore.Registry, error) {
	r := eventstore.NewRegistry()
	if err := matchclassique.RegisterEvents(r); err != nil {
		return nil, err
	}
	return r, tournoiclassique.RegisterEvents(r)
}

// illisible tells whether a store error means the stream's events cannot be
// decoded.
func illisible(err error) bool {
	var unknown *eventstore.UnknownEventTypeError
	return errors.Is(err, eventstore.ErrMalformedPayload) || errors.As(err, &unknown) || errors.Is(err, eventstore.ErrFutureSchemaVersion)
}

// Matchs loads and saves matches.
type Matchs struct {
	depot repository.Repository[*matchclassique.Match]
}

// NewMatchs returns the matches' repository; registry must hold the match
// events (matchclassique.RegisterEvents), regles are the rules of the matches it loads.
func NewMatchs(store eventstore.Store, registry *eventstore.Registry, regles *matchclassique.Regles) *Matchs {
	return &Matchs{depot: repository.Repository[*matchclassique.Match]{
		Streams: repository.Streams{Store: store, Registry: registry},
		New:     func() *matchclassique.Match { return matchclassique.Nouveau(regles) },
	}}
}

// Charger replays a match from its stream. With a command envelope in ctx
// (eventstore.Command) it reports eventstore.ErrAlreadyApplied when the
// command was applied already, and a conflict when the client's version is
// not the stream's. A match created under a lexicon the rules do not hold
// is LEXICON_NOT_LOADED: nothing is decided on it with another list.
func (d *Matchs) Charger(ctx context.Context, id string) (*matchclassique.Match, error) {
	p, err := d.Lire(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := p.ExigerLexique(); err != nil {
		return nil, err
	}
	return p, nil
}

// Lire replays a match to read what was recorded (its journal, its
// result, its GCG), whatever lexicon the server holds: reading decides
// nothing, so a match created under a lexicon not loaded is read too.
func (d *Matchs) Lire(ctx context.Context, id string) (*matchclassique.Match, error) {
	stream, err := streamname.MatchStream(id)
	if err != nil {
		return nil, erreur.RefusCause(matchclassique.CodeNotFound, err, "Le match %q est introuvable", id)
	}
	p, err := d.depot.Load(ctx, stream)
	switch {
	case illisible(err):
		return nil, erreur.RefusCause(matchclassique.CodeCorruptHistory, err, "Historique illisible du match %s", id)
	case err != nil:
		return nil, err
	case p.Version() == 0:
		return nil, erreur.Refus(matchclassique.CodeNotFound, "Le match %s n'existe pas", id)
	}
	return p, nil
}

// Enregistrer appends the match's new events, expecting nobody else wrote
// since it was loaded; a conflict returns CONFLICT and nothing is written.
// On success the events are no longer new.
func (d *Matchs) Enregistrer(ctx context.Context, p *matchclassique.Match, md eventstore.Metadata) error {
	if len(p.Pending()) == 0 {
		return nil
	}
	stream, err := streamname.MatchStream(p.ID())
	if err != nil {
		return erreur.RefusCause(matchclassique.CodeInvalidMatch, err, "Identifiant de match %q invalide", p.ID())
	}
	return repository.Conflict(d.depot.Save(ctx, stream, p, md), "Le match %s a été modifié entre-temps", p.ID())
}

// EnregistrerLot appends the new events of several matches, each to its
// stream, in one batch (eventstore.AppendBatch: one transaction on the SQLite
// store: all are saved or, on a conflict (CONFLICT) or a failure, none; on
// EventStoreDB the matches before the failing one stay saved).
func (d *Matchs) EnregistrerLot(ctx context.Context, parties []*matchclassique.Match, md eventstore.Metadata) error {
	streams := make([]string, len(parties))
	for i, p := range parties {
		var err error
		if streams[i], err = streamname.MatchStream(p.ID()); err != nil {
			return erreur.RefusCause(matchclassique.CodeInvalidMatch, err, "Identifiant de match %q invalide", p.ID())
		}
	}
	err := d.depot.SaveBatch(ctx, streams, parties, md)
	var conflit *eventstore.ConflictError
	if !errors.As(err, &conflit) {
		return err
	}
	return repository.Conflict(err, "Le flux %s a été modifié entre-temps", conflit.Stream)
}

// Tournois loads and saves classique tournaments.
type Tournois struct {
	depot repository.Repository[*tournoiclassique.TournoiClassique]
}

// NewTournois returns the tournaments' repository; registry must hold the
// tournament events (tournoiclassique.RegisterEvents).
func NewTournois(store eventstore.Store, registry *eventstore.Registry) *Tournois {
	return &Tournois{depot: repository.Repository[*tournoiclassique.TournoiClassique]{
		Streams: repository.Streams{Store: store, Registry: registry},
		New:     tournoiclassique.Nouveau,
	}}
}

// Charger replays a tournament from its stream. With a command envelope in
// ctx it reports eventstore.ErrAlreadyApplied when the command was applied
// already, and a conflict when the client's version is not the stream's.
func (d *Tournois) Charger(ctx context.Context, id string) (*tournoiclassique.TournoiClassique, error) {
	stream, err := tournoiclassique.Stream(id)
	if err != nil {
		return nil, erreur.RefusCause(tournoiclassique.CodeNotFound, err, "Le tournoi %q est introuvable", id)
	}
	t, err := d.depot.Load(ctx, stream)
	switch {
	case illisible(err):
		return nil, erreur.RefusCause(tournoiclassique.CodeCorruptHistory, err, "Historique illisible du tournoi %s", id)
	case err != nil:
		return nil, err
	case t.Version() == 0:
		return nil, erreur.Refus(tournoiclassique.CodeNotFound, "Le tournoi %s n'existe pas", id)
	}
	return t, nil
}

// Enregistrer appends the new events with an exact expected revision; a
// conflict returns CONFLICT and writes nothing.
func (d *Tournois) Enregistrer(ctx context.Context, t *tournoiclassique.TournoiClassique, md eventstore.Metadata) error {
	if len(t.Pending()) == 0 {
		return nil
	}
	stream, err := tournoiclassique.Stream(t.ID())
	if err != nil {
		return erreur.RefusCause(tournoiclassique.CodeInvalidInput, err, "Identifiant de tournoi %.32q invalide", t.ID())
	}
	if err := d.identifiantLibre(ctx, t); err != nil {
		return err
	}
	return repository.Conflict(d.depot.Save(ctx, stream, t, md), "Le tournoi %s a été modifié entre-temps", t.ID())
}

// identifiantLibre refuses a new tournament whose id a duplicate tournament
// already uses: one id names one tournament.
func (d *Tournois) identifiantLibre(ctx context.Context, t *tournoiclassique.TournoiClassique) error {
	if t.Version() > len(t.Pending()) {
		return nil
	}
	duplicate, err := streamname.TournoiStream(t.ID())
	if err != nil {
		return nil // an id no duplicate tournament can have
	}
	pris, err := d.depot.Streams.Exists(ctx, duplicate)
	if err != nil {
		return err
	}
	if pris {
		return erreur.Refus(tournoiclassique.CodeIdTaken, "L'identifiant %s est déjà celui d'un tournoi duplicate", t.ID())
	}
	return nil
}
