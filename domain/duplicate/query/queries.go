package query

import (
	"context"

	"arbitre/domain/duplicate"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/idempotency"
	"arbitre/domain/eventstore/streamname"
	"arbitre/engine/lexicon"
)

// Parties is where the games are read (adapters.Depot).
type Parties interface {
	Charger(ctx context.Context, id string) (*duplicate.Partie, error)
	Consulter(ctx context.Context, id string, lire func(p *duplicate.Partie) error) error
	Tournoi(ctx context.Context, partie string) (string, error)
}

// Queries answers the questions asked of the duplicate games, one method
// per question, as the use cases of package command are one method per
// command: the API and the command line ask them, never the repository
// nor the log. A read loads the state as stored: the command envelope in
// the context, if any, is not checked.
type Queries struct {
	Parties Parties
	// Journal and Registry read a game's events (its replay, the facts a
	// twinned site replays); Lexiques gives the lists a replay judges with
	// (duplicate.Moteurs.Lexiques).
	Journal  eventstore.Reader
	Registry *eventstore.Registry
	Lexiques func() *lexicon.Bibliotheque
}

// Partie is game id as stored (an empty game, status "", when there is
// none).
func (q Queries) Partie(ctx context.Context, id string) (*duplicate.Partie, error) {
	return q.Parties.Charger(idempotency.WithNoCommand(ctx), id)
}

// Consultation reads game Partie as stored, for reading only: Lire is
// given it and must not keep it.
type Consultation struct {
	Partie string
	Lire   func(p *duplicate.Partie) error
}

// Consulter answers a Consultation.
func (q Queries) Consulter(ctx context.Context, c Consultation) error {
	return q.Parties.Consulter(idempotency.WithNoCommand(ctx), c.Partie, c.Lire)
}

// TournoiDe is the tournament game partie was created in.
func (q Queries) TournoiDe(ctx context.Context, partie string) (string, error) {
	return q.Parties.Tournoi(idempotency.WithNoCommand(ctx), partie)
}

// Replay asks for game Partie as it stood before coup Coup (Reconstituer).
type Replay struct {
	Partie string
	Coup   int
}

// Replay rebuilds the game of a Replay from its events alone; a game with
// no events is NOT_FOUND.
func (q Queries) Replay(ctx context.Context, c Replay) (*Etat, error) {
	stream, err := streamname.PartieStream(c.Partie)
	if err != nil {
		return nil, erreur.RefusCause(duplicate.CodeNotFound, err, "partie %q : identifiant invalide (lettres, chiffres, '-' ou '_')", c.Partie)
	}
	evts, err := eventstore.ReadFamily(ctx, q.Journal, stream)
	if err != nil {
		return nil, err
	}
	if len(evts) == 0 {
		return nil, erreur.Refus(duplicate.CodeNotFound, "partie %s introuvable", c.Partie)
	}
	return Reconstituer(evts, q.Registry, q.Lexiques(), c.Coup)
}

// Faits asks for the facts of game Partie from position Depuis of its
// stream on.
type Faits struct {
	Partie string
	Depuis int
}

// Faits answers Faits: the game's own stream, at most 1<<20 events.
func (q Queries) Faits(ctx context.Context, c Faits) ([]eventstore.Event, error) {
	stream, err := streamname.PartieStream(c.Partie)
	if err != nil {
		return nil, erreur.RefusCause(duplicate.CodeNotFound, err, "identifiant de partie %q invalide (lettres, chiffres, '-' ou '_')", c.Partie)
	}
	return q.Journal.ReadStream(ctx, stream, uint64(max(c.Depuis, 0)), 1<<20)
}
