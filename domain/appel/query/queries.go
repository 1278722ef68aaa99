package query

import (
	"context"
	"slices"

	"arbitre/domain/appel"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore/idempotency"
)

// Queries answers the questions asked of the appeals, one method per
// question, as the use cases of package command are one method per
// command: an appeal's state and history from its stream (Lecteur), the
// appeals of a tournament or a game from the index in memory (Index),
// brought up to the log's head first (AJour, its runner's catch-up), an
// appeal's object from the stored facts (Faits).
type Queries struct {
	Lecteur *Lecteur
	Index   *Index
	AJour   func(ctx context.Context) error
	Faits   Faits
}

// Faits are the stored facts an appeal's object is derived from
// (adapters.Faits).
type Faits interface {
	// Partie returns the tournament of a game and its players; an
	// *erreur.Erreur NOT_FOUND when there is no such game.
	Partie(ctx context.Context, id string) (tournoi string, joueurs []string, err error)
	// Tables returns the table of every player registered in a tournament
	// (0 for none); an *erreur.Erreur NOT_FOUND when there is no such
	// tournament.
	Tables(ctx context.Context, tournoi string) (map[string]int, error)
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

// Situer derives an appeal's object from the stored facts, never from the
// client: the tournament is the one of the game named, the table the one
// of the player named (his registration). A game, tournament, player or
// table that does not exist is refused (NOT_FOUND). Scope checks are made
// against its answer.
func (q Queries) Situer(ctx context.Context, o appel.Objet) (appel.Objet, error) {
	ctx = idempotency.WithNoCommand(ctx)
	if o.Partie != "" {
		tournoi, joueurs, err := q.Faits.Partie(ctx, o.Partie)
		if err != nil {
			return appel.Objet{}, err
		}
		switch {
		case tournoi == "":
			return appel.Objet{}, erreur.Refus(appel.CodeInvalidAppeal, "la partie %s n'appartient à aucun tournoi", o.Partie)
		case o.Licence != "" && !slices.Contains(joueurs, o.Licence):
			return appel.Objet{}, erreur.Refus(appel.CodeNotFound, "%s ne joue pas la partie %s", o.Licence, o.Partie)
		}
		o.Tournoi = tournoi
	}
	if o.Tournoi == "" {
		return o, nil // Deposer refuses an appeal without a tournament
	}
	tables, err := q.Faits.Tables(ctx, o.Tournoi)
	if err != nil {
		return appel.Objet{}, err
	}
	switch {
	case o.Licence != "":
		o.Table = tables[o.Licence]
	case o.Table != 0 && !tableOccupee(tables, o.Table):
		return appel.Objet{}, erreur.Refus(appel.CodeNotFound, "aucun joueur du tournoi %s n'est inscrit à la table %d", o.Tournoi, o.Table)
	}
	return o, nil
}

func tableOccupee(tables map[string]int, table int) bool {
	for _, t := range tables {
		if t == table {
			return true
		}
	}
	return false
}
