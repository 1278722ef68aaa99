package centres

import (
	"bytes"
	"context"
	"fmt"
	"slices"

	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/idempotency"
	"arbitre/domain/federation"
	"arbitre/domain/tournoi"
)

// Principal reads the principal's own results of a twinned tournament
// (guide §2.18.1.C, §2.18.2.C) from its own store, each game exactly as
// its bundle would carry them, so that the principal's director ranks the
// twinning without exporting its own games first.
type Principal struct {
	Journal  eventstore.Reader
	Registre *eventstore.Registry
	Tournois interface {
		Charger(ctx context.Context, id string) (*tournoi.Tournoi, error)
	}
}

// Reference is the principal's own game partie of tournament t as its
// bundle would play it, and the licences of t's players: what a twinned
// site's results of that game are checked against (guide §2.18). A game
// that is not t's is refused.
func (p Principal) Reference(ctx context.Context, t, partie string) (federation.Feuille, []string, error) {
	ctx = idempotency.WithCommand(ctx, idempotency.Command{})
	tr, err := p.Tournois.Charger(ctx, t)
	if err != nil {
		return federation.Feuille{}, nil, err
	}
	if !slices.Contains(tr.Parties(), partie) {
		return federation.Feuille{}, nil, &erreur.Erreur{Code: federation.CodeResultatsInvalides,
			Message: fmt.Sprintf("la partie %s n'est pas une partie du tournoi %s du principal", partie, t)}
	}
	var b bytes.Buffer
	if err := Exporter(ctx, p.Journal, p.Registre, Manifeste{Partie: partie}, &b); err != nil {
		return federation.Feuille{}, nil, err
	}
	lu, err := Lire(ctx, b.Bytes(), p.Registre)
	if err != nil {
		return federation.Feuille{}, nil, err
	}
	var licences []string
	for _, j := range tr.Joueurs() {
		licences = append(licences, j.Licence)
	}
	return lu.Feuille, licences, nil
}

// Scores are the principal's players' scores in every game of tournament
// t; a game created but not yet drawn has none.
func (p Principal) Scores(ctx context.Context, principal, t string) ([]federation.ScorePartie, error) {
	tr, err := p.Tournois.Charger(ctx, t)
	if err != nil {
		return nil, err
	}
	var paquets []federation.PaquetSite
	for _, partie := range tr.Parties() {
		var b bytes.Buffer
		if err := Exporter(ctx, p.Journal, p.Registre, Manifeste{Centre: principal, Partie: partie}, &b); err != nil {
			return nil, err
		}
		lu, err := Lire(ctx, b.Bytes(), p.Registre)
		if err != nil {
			return nil, err
		}
		paquets = append(paquets, lu.Site())
	}
	return federation.ScoresDesSites(paquets)
}
