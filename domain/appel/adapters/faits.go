package adapters

import (
	"context"
	"errors"
	"fmt"

	"arbitre/domain/appel"
	"arbitre/domain/duplicate"
	"arbitre/domain/tournoi"
)

// Parties loads duplicate games (duplicate/adapters.Depot).
type Parties interface {
	Charger(ctx context.Context, id string) (*duplicate.Partie, error)
}

// Tournois loads tournaments (tournoi/adapters.Depot).
type Tournois interface {
	Charger(ctx context.Context, id string) (*tournoi.Tournoi, error)
}

// Faits reads what an appeal is checked against (command.Faits) from the
// duplicate games and the tournaments in the event store.
type Faits struct {
	parties  Parties
	tournois Tournois
}

// NewFaits returns the facts over the games' and tournaments' repositories.
func NewFaits(parties Parties, tournois Tournois) *Faits {
	return &Faits{parties: parties, tournois: tournois}
}

// Partie implements command.Faits.
func (f *Faits) Partie(ctx context.Context, id string) (string, []string, error) {
	p, err := f.parties.Charger(ctx, id)
	if duplicate.CodeOf(err) == duplicate.CodeNotFound {
		return "", nil, &appel.Erreur{Code: appel.CodeNotFound, Message: fmt.Sprintf("la partie %s n'existe pas", id), Err: err}
	}
	if err != nil {
		return "", nil, err
	}
	return p.Tournoi(), p.Joueurs(), nil
}

// Tables implements command.Faits.
func (f *Faits) Tables(ctx context.Context, id string) (map[string]int, error) {
	t, err := f.tournois.Charger(ctx, id)
	var refus *tournoi.Erreur
	if errors.As(err, &refus) || (err == nil && t.Version() == 0) {
		return nil, &appel.Erreur{Code: appel.CodeNotFound, Message: fmt.Sprintf("le tournoi %s n'existe pas", id), Err: err}
	}
	if err != nil {
		return nil, err
	}
	tables := map[string]int{}
	for _, j := range t.Joueurs() {
		tables[j.Licence] = j.Table
	}
	return tables, nil
}
