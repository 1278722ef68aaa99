package adapters

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"arbitre/domain/appel"
	"arbitre/domain/duplicate"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/streamname"
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
// duplicate games and the tournaments in the event store; the times of
// the games are those the store recorded their events at.
type Faits struct {
	parties  Parties
	tournois Tournois
	journal  eventstore.Reader
}

// NewFaits returns the facts over the games' and tournaments' repositories
// and the store they are read from.
func NewFaits(parties Parties, tournois Tournois, journal eventstore.Reader) *Faits {
	return &Faits{parties: parties, tournois: tournois, journal: journal}
}

// Partie implements command.Faits.
func (f *Faits) Partie(ctx context.Context, id string) (string, []string, error) {
	p, err := f.parties.Charger(ctx, id)
	if erreur.CodeOf(err) == duplicate.CodeNotFound {
		return "", nil, &erreur.Erreur{Code: appel.CodeNotFound, Message: fmt.Sprintf("la partie %s n'existe pas", id), Err: err}
	}
	if err != nil {
		return "", nil, err
	}
	return p.Tournoi(), p.Joueurs(), nil
}

// Tables implements command.Faits.
func (f *Faits) Tables(ctx context.Context, id string) (map[string]int, error) {
	t, err := f.tournoi(ctx, id)
	if err != nil {
		return nil, err
	}
	tables := map[string]int{}
	for _, j := range t.Joueurs() {
		tables[j.Licence] = j.Table
	}
	return tables, nil
}

// Horaires implements command.Faits: a game starts with its first tirage
// (kept or rejected) and ends, for §6.3, when the director closes its
// results (partie.resultats_clos): the last coup's decisions, open to
// appeal like any, are taken after the top that ends the game
// (introduction, guide §3.2); until then no deadline runs. The end carries
// the monotonic reading the closure recorded, so that §6.3's 15 minutes
// are a real length. The games of the
// competition not created yet (tournoi.NombreParties) follow, without times.
func (f *Faits) Horaires(ctx context.Context, id string) ([]appel.Horaire, error) {
	t, err := f.tournoi(ctx, id)
	if err != nil {
		return nil, err
	}
	var horaires []appel.Horaire
	for _, partie := range t.Parties() {
		stream, err := streamname.PartieStream(partie)
		if err != nil {
			return nil, err
		}
		evts, err := eventstore.ReadWholeStream(ctx, f.journal, stream)
		if err != nil {
			return nil, err
		}
		h := appel.Horaire{Partie: partie}
		for _, e := range evts {
			switch e.Type {
			case duplicate.TypeTirageEffectue, duplicate.TypeTirageRejete:
				if h.Debut.IsZero() {
					h.Debut = e.Metadata.RecordedAt
				}
			case duplicate.TypeResultatsClos:
				var clos duplicate.ResultatsClos
				if err := json.Unmarshal(e.Data, &clos); err != nil {
					return nil, fmt.Errorf("clôture des résultats de la partie %s illisible : %w", partie, err)
				}
				h.Fin = eventstore.Instant{Wall: e.Metadata.RecordedAt, Monotonic: clos.Monotone}
			}
		}
		horaires = append(horaires, h)
	}
	for len(horaires) < t.NombreParties() {
		horaires = append(horaires, appel.Horaire{})
	}
	return horaires, nil
}

// tournoi loads a tournament; NOT_FOUND when there is none.
func (f *Faits) tournoi(ctx context.Context, id string) (*tournoi.Tournoi, error) {
	t, err := f.tournois.Charger(ctx, id)
	var refus *erreur.Erreur
	if errors.As(err, &refus) || (err == nil && t.Version() == 0) {
		return nil, &erreur.Erreur{Code: appel.CodeNotFound, Message: fmt.Sprintf("le tournoi %s n'existe pas", id), Err: err}
	}
	return t, err
}
