// Package query answers the questions asked of the duplicate tournaments,
// one method of Queries per question, as the use cases of package command
// are one method per command.
package query

import (
	"context"

	"arbitre/domain/aggregate"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/idempotency"
	"arbitre/domain/eventstore/streamname"
	"arbitre/domain/tournoi"
)

// Queries reads the tournaments through their repository (adapters.Depot)
// and their streams. A read loads the state as stored: the command
// envelope in the context, if any, is not checked.
type Queries struct {
	Tournois aggregate.Repository[*tournoi.Tournoi]
	Journal  eventstore.Reader
}

// Tournoi is tournament id as stored (version 0 when there is none).
func (q Queries) Tournoi(ctx context.Context, id string) (*tournoi.Tournoi, error) {
	return q.Tournois.Charger(idempotency.WithNoCommand(ctx), id)
}

// Depuis asks whether tournament Tournoi changed after it held Version
// events.
type Depuis struct {
	Tournoi string
	Version int
}

// Change answers Depuis: whether the tournament's stream holds an event
// after Version.
func (q Queries) Change(ctx context.Context, c Depuis) (bool, error) {
	stream, err := streamname.TournoiStream(c.Tournoi)
	if err != nil {
		return false, erreur.RefusCause(tournoi.CodeInvalidTournoi, err, "identifiant de tournoi %q invalide", c.Tournoi)
	}
	suite, err := q.Journal.ReadStream(ctx, stream, uint64(c.Version), 1)
	return len(suite) > 0, err
}
