package centres

import (
	"bytes"
	"context"

	"arbitre/domain/eventstore"
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

// Scores are the principal's players' scores in every game of tournament
// t; a game created but not yet drawn has none.
func (p Principal) Scores(ctx context.Context, principal, t string) ([]federation.ScorePartie, error) {
	tr, err := p.Tournois.Charger(ctx, t)
	if err != nil {
		return nil, err
	}
	var paquets []Paquet
	for _, partie := range tr.Parties() {
		var b bytes.Buffer
		if err := Exporter(ctx, p.Journal, p.Registre, Manifeste{Centre: principal, Partie: partie}, &b); err != nil {
			return nil, err
		}
		lu, err := Lire(ctx, b.Bytes(), p.Registre)
		if err != nil {
			return nil, err
		}
		paquets = append(paquets, lu)
	}
	return ScoresJumeles(paquets)
}
