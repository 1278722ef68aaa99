package graphql

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"arbitre/domain/acces"
	"arbitre/domain/erreur"
	"arbitre/graphql/model"
	"arbitre/projections/projection"
	"arbitre/projections/standings"
)

// classementQuery is what standings were asked for.
type classementQuery struct {
	partie, tournoi, serie string
}

func classementDemande(partie, tournoi, serie *string) (classementQuery, error) {
	q := classementQuery{partie: deref(partie), tournoi: deref(tournoi), serie: deref(serie)}
	if (q.partie == "") == (q.tournoi == "") {
		return q, refusal("classement", "donner une partie ou un tournoi, pas les deux", nil)
	}
	return q, nil
}

// concerne says which streams change these standings: the game's own, or,
// for a tournament, its stream and every game's (cheap to over-match: a
// wake-up only re-reads the projection).
func (q classementQuery) concerne(stream string) bool {
	if q.partie != "" {
		return dePartie(q.partie)(stream)
	}
	return stream == "tournoi-"+q.tournoi || strings.HasPrefix(stream, "partie-")
}

// attenteSansDelai bounds how long a read whose context has no deadline of
// its own (a subscription's update, a test's) waits for a projection: the
// operations' deadline (graphql/server DefaultDelais).
const attenteSansDelai = 30 * time.Second

// lireClassement reads the standings as regard sees them from the
// projection once it has applied the event at position pos, or (pos 0)
// every event recorded when the request arrived: a client reads its own
// writes. The public standings never depend on the caller: their queries
// and subscriptions are shared (graphql/server, partage.go).
func (r *Resolver) lireClassement(ctx context.Context, q classementQuery, regard standings.Regard, pos uint64) ([]model.LigneClassement, error) {
	if err := r.attendreRunner(ctx, r.StandingsRunner, pos); err != nil {
		return nil, err
	}
	var lignes []standings.Ligne
	var err error
	if q.partie != "" {
		lignes, err = r.Classements.Partie(ctx, q.partie, regard)
	} else {
		lignes, err = r.Classements.Cumul(ctx, q.tournoi, regard)
	}
	if err != nil {
		return nil, err
	}
	if q.serie != "" {
		lignes = standings.ParSerie(lignes, q.serie)
	}
	out := make([]model.LigneClassement, len(lignes))
	for i, l := range lignes {
		out[i] = model.LigneClassement{Rang: l.Rang, Licence: l.Licence, Nom: l.Nom, Club: optional(l.Club), Serie: optional(l.Serie),
			Score: l.Score, Top: l.Top, Negatif: l.Negatif, Pourcentage: l.Pourcentage, Solos: l.Solos,
			Avertissements: l.Avertissements, Penalites: l.Penalites, EnAttente: l.EnAttente, Exclu: l.Exclu, Temps: l.Temps,
			Provisoire: l.Provisoire}
	}
	return out, nil
}

// autoriserDirecteur checks the request is the director's of the
// standings' tournament (the game's, for one game).
func (r *Resolver) autoriserDirecteur(ctx context.Context, q classementQuery) error {
	tournoi := q.tournoi
	if q.partie != "" {
		p, err := r.partieVue(ctx, q.partie)
		if err != nil {
			return err
		}
		tournoi = deref(p.Tournoi)
	}
	_, err := authorize(ctx, []acces.Role{acces.Directeur}, acces.Portee{Tournoi: tournoi})
	return err
}

// attendreRunner brings the read model of run up to the event at position
// pos, or (pos 0) the store's last event when asked, before a read of it,
// for as long as ctx may last (attenteSansDelai without a deadline): every
// read of every read model goes through it (projection.Runner.AJour). A
// read model is never answered behind the events recorded when the read
// arrived (issue 32: it used to be after 2 s, and a director read a game
// without the tirage just acknowledged): a projection still late at the
// deadline, or parked, makes the read UNAVAILABLE.
func (r *Resolver) attendreRunner(ctx context.Context, run *projection.Runner, pos uint64) error {
	if pos == 0 && r.Head != nil {
		head, err := r.Head(ctx)
		if err != nil {
			return err
		}
		pos = head
	}
	if run == nil {
		return nil
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, attenteSansDelai)
		defer cancel()
	}
	err := run.AJour(ctx, pos)
	if err == nil {
		return nil
	}
	var arret *projection.Arret
	if errors.As(err, &arret) {
		return &erreur.Erreur{Code: CodeUnavailable, Err: err, Message: fmt.Sprintf(
			"Lecture impossible : la vue %s est arrêtée à la position %d (voir /healthz), elle ne serait pas à jour des derniers faits enregistrés", arret.Nom, arret.Position)}
	}
	if !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
		return err
	}
	return &erreur.Erreur{Code: CodeUnavailable, Err: fmt.Errorf("projection %s at %d, waited for %d: %s", run.Name(), run.Position(), pos, err), Message: fmt.Sprintf(
		"Lecture pas encore à jour : la vue %s n'a pas encore pris en compte les derniers faits enregistrés (serveur très chargé) ; renvoyer la requête (une mutation renvoyée avec le même clientMutationId n'est jamais appliquée deux fois)", run.Name())}
}

// archiveAJour waits, as long as ctx may last, until every read model has
// applied the log as it stood when the request came, less the archive
// imports not answered yet (importsEnCours): the archive's queries read
// several of them, which catch up with the store after the server starts
// (a tournament stored but not yet projected would answer NOT_FOUND).
func (r *Resolver) archiveAJour(ctx context.Context) error {
	if r.Head == nil {
		return nil
	}
	pos, err := r.imports.aLire(ctx, r.Head)
	if err != nil || pos == 0 {
		return err
	}
	return r.lecturesA(ctx, pos)
}

// lecturesA waits until every read model has applied the event at pos (0:
// the log's head). A parked projection is not waited for.
func (r *Resolver) lecturesA(ctx context.Context, pos uint64) error {
	for _, run := range r.Lectures {
		if run.Arret() != nil {
			continue
		}
		if err := r.attendreRunner(ctx, run, pos); err != nil {
			return err
		}
	}
	return nil
}

// cumulDuTournoi is the tournament's cumul by licence read from the
// standings once they hold every event recorded — stored facts, not the
// client's word — on which a barrage's players must be level (guide
// §2.14).
func (r *Resolver) cumulDuTournoi(ctx context.Context, tournoi string) (map[string]int, error) {
	if err := r.attendreRunner(ctx, r.StandingsRunner, 0); err != nil {
		return nil, err
	}
	lignes, err := r.Classements.Cumul(ctx, tournoi, standings.Directeur)
	if err != nil {
		return nil, err
	}
	cumul := make(map[string]int, len(lignes))
	for _, l := range lignes {
		cumul[l.Licence] = l.Score
	}
	return cumul, nil
}
