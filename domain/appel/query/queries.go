package query

import (
	"context"

	"arbitre/domain/eventstore/idempotency"
)

// Queries answers the questions asked of the appeals, one method per
// question, as the use cases of package command are one method per
// command: an appeal's state and history from its stream (Lecteur), the
// appeals of a tournament or a game from the index in memory (Index),
// brought up to the log's head first (AJour, its runner's catch-up).
type Queries struct {
	Lecteur *Lecteur
	Index   *Index
	AJour   func(ctx context.Context) error
}

// Designation names appeal ID of tournament Tournoi (an appeal's id
// belongs to its tournament).
type Designation struct {
	Tournoi string
	ID      string
}

// Appel is the state and history of the appeal designated, read as
// stored: the command envelope in the context, if any, is not checked.
func (q Queries) Appel(ctx context.Context, d Designation) (Vue, error) {
	return q.Lecteur.Appel(idempotency.WithNoCommand(ctx), d.Tournoi, d.ID)
}

// Liste asks for the appeals of game Partie when it is given, else of
// tournament Tournoi.
type Liste struct {
	Tournoi string
	Partie  string
}

// Appels answers a Liste, in the index's order.
func (q Queries) Appels(ctx context.Context, l Liste) ([]Resume, error) {
	if err := q.AJour(ctx); err != nil {
		return nil, err
	}
	if l.Partie != "" {
		return q.Index.ParPartie(l.Partie), nil
	}
	return q.Index.ParTournoi(l.Tournoi), nil
}
