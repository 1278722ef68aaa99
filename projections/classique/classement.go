// Package classique holds the read models of classique tournaments: the
// standings of each tournament (Classement) and the players' cotes (Cotes).
// Both are projection.Projection implementations fed with the tournament
// events of domain/classique/tournoiclassique; a rebuild from the log gives the same
// state as live application.
package classique

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"

	"arbitre/domain/classique/tournoiclassique"
	"arbitre/domain/eventstore"
	"arbitre/projections/projection"
)

// prefixTournoi selects the events these projections read.
const prefixTournoi = "classique.tournoi."

// decoder decodes classique tournament events and skips the others.
type decoder struct{ reg *eventstore.Registry }

func newDecoder() (decoder, error) {
	reg := eventstore.NewRegistry()
	if err := tournoiclassique.RegisterEvents(reg); err != nil {
		return decoder{}, err
	}
	return decoder{reg: reg}, nil
}

// lit tells whether these projections read events of type typ
// (projection.Selectif).
func lit(typ string) bool { return strings.HasPrefix(typ, prefixTournoi) }

// evenement decodes a classique tournament event and names its tournament;
// v is nil for events of other kinds.
func (d decoder) evenement(e eventstore.Event) (v any, tournoi string, err error) {
	if !lit(e.Type) {
		return nil, "", nil
	}
	if v, err = d.reg.Decode(e); err != nil {
		return nil, "", err
	}
	tournoi, err = tournoiclassique.TournoiDuStream(e.Stream)
	return v, tournoi, err
}

// ClassementName is the standings projection's name.
const ClassementName = "classique_classement"

const classementSchema = `
CREATE TABLE IF NOT EXISTS classique_inscrits (
	tournoi TEXT NOT NULL, joueur TEXT NOT NULL, ordre INTEGER NOT NULL, cote INTEGER NOT NULL, retire INTEGER NOT NULL,
	PRIMARY KEY (tournoi, joueur));
CREATE TABLE IF NOT EXISTS classique_resultats (
	tournoi TEXT NOT NULL, match TEXT NOT NULL, ronde INTEGER NOT NULL,
	joueur0 TEXT NOT NULL, joueur1 TEXT NOT NULL, score0 INTEGER NOT NULL, score1 INTEGER NOT NULL,
	pm0 INTEGER NOT NULL, pm1 INTEGER NOT NULL, fin TEXT NOT NULL,
	PRIMARY KEY (tournoi, match));
CREATE TABLE IF NOT EXISTS classique_exempts (
	tournoi TEXT NOT NULL, ronde INTEGER NOT NULL, joueur TEXT NOT NULL,
	PRIMARY KEY (tournoi, ronde));
CREATE TABLE IF NOT EXISTS classique_configs (
	tournoi TEXT PRIMARY KEY, config TEXT NOT NULL);`

// Classement maintains what the standings of each tournament are computed
// from: registrations, results, byes, withdrawals. The ranking itself is
// tournoiclassique.Classer, the very function the tournament pairs with.
type Classement struct{ dec decoder }

// NewClassement returns the standings projection; it decodes the
// tournament events itself.
func NewClassement(projection.Journal) (*Classement, error) {
	dec, err := newDecoder()
	if err != nil {
		return nil, err
	}
	return &Classement{dec: dec}, nil
}

// Name returns ClassementName.
func (*Classement) Name() string { return ClassementName }

// Setup creates the tables.
func (*Classement) Setup(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, classementSchema)
	return err
}

// Reset empties the tables.
func (*Classement) Reset(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `DELETE FROM classique_inscrits; DELETE FROM classique_resultats; DELETE FROM classique_exempts; DELETE FROM classique_configs;`)
	return err
}

// Lit tells whether the standings read events of type typ
// (projection.Selectif).
func (*Classement) Lit(typ string) bool { return lit(typ) }

// Apply folds one event.
func (c *Classement) Apply(ctx context.Context, tx *sql.Tx, e eventstore.Event) error {
	v, tournoi, err := c.dec.evenement(e)
	if err != nil || v == nil {
		return err
	}
	switch ev := v.(type) {
	case tournoiclassique.TournoiOuvert:
		var cfg []byte
		if cfg, err = json.Marshal(ev.Configuration()); err == nil {
			_, err = tx.ExecContext(ctx, `INSERT INTO classique_configs (tournoi, config) VALUES (?, ?)`, tournoi, string(cfg))
		}
	case tournoiclassique.JoueurInscrit:
		_, err = tx.ExecContext(ctx, `INSERT INTO classique_inscrits (tournoi, joueur, ordre, cote, retire)
			VALUES (?, ?, (SELECT COUNT(*) FROM classique_inscrits WHERE tournoi = ?), ?, 0)`, tournoi, ev.Joueur, tournoi, ev.Cote)
	case tournoiclassique.JoueurRetire:
		_, err = tx.ExecContext(ctx, `UPDATE classique_inscrits SET retire = 1 WHERE tournoi = ? AND joueur = ?`, tournoi, ev.Joueur)
	case tournoiclassique.RondePubliee:
		if ev.Exempt != "" {
			_, err = tx.ExecContext(ctx, `INSERT INTO classique_exempts (tournoi, ronde, joueur) VALUES (?, ?, ?)`, tournoi, ev.Ronde, ev.Exempt)
		}
	case tournoiclassique.ResultatEnregistre:
		// A correction (ev.Correction) replaces the match's row.
		_, err = tx.ExecContext(ctx, `INSERT OR REPLACE INTO classique_resultats (tournoi, match, ronde, joueur0, joueur1, score0, score1, pm0, pm1, fin)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, tournoi, ev.Match, ev.Ronde, ev.Joueurs[0], ev.Joueurs[1],
			ev.Scores[0], ev.Scores[1], ev.PointsDeMatch[0], ev.PointsDeMatch[1], ev.Fin)
	}
	return err
}

// LecteurClassement reads the classique standings, the read type of the
// classique_classement read model. Nothing is kept between reads.
type LecteurClassement struct{ db *sql.DB }

// NewLecteurClassement returns the reader of the standings run's runner
// keeps.
func NewLecteurClassement(run *projection.Runner) *LecteurClassement {
	return &LecteurClassement{db: run.Base()}
}

// Standings ranks a tournament from the projection (see tournoiclassique.Classer),
// with the tournament's configuration (its tie-breaks and bye).
func (l *LecteurClassement) Standings(ctx context.Context, tournoi string) ([]tournoiclassique.Ligne, error) {
	cfg := tournoiclassique.ConfigParDefaut()
	err := query(ctx, l.db, `SELECT config FROM classique_configs WHERE tournoi = ?`, []any{tournoi}, func(rows *sql.Rows) error {
		var data string
		if err := rows.Scan(&data); err != nil {
			return err
		}
		return json.Unmarshal([]byte(data), &cfg)
	})
	if err != nil {
		return nil, err
	}
	var participants []tournoiclassique.Participant
	err = query(ctx, l.db, `SELECT joueur, cote, retire FROM classique_inscrits WHERE tournoi = ? ORDER BY ordre`, []any{tournoi}, func(rows *sql.Rows) error {
		var p tournoiclassique.Participant
		if err := rows.Scan(&p.Joueur, &p.Cote, &p.Retire); err != nil {
			return err
		}
		participants = append(participants, p)
		return nil
	})
	if err != nil {
		return nil, err
	}
	var rencontres []tournoiclassique.Rencontre
	err = query(ctx, l.db, `SELECT joueur0, joueur1, score0, score1, pm0, pm1, fin FROM classique_resultats WHERE tournoi = ? ORDER BY ronde, match`, []any{tournoi}, func(rows *sql.Rows) error {
		var r tournoiclassique.ResultatEnregistre
		if err := rows.Scan(&r.Joueurs[0], &r.Joueurs[1], &r.Scores[0], &r.Scores[1], &r.PointsDeMatch[0], &r.PointsDeMatch[1], &r.Fin); err != nil {
			return err
		}
		rencontres = append(rencontres, tournoiclassique.RencontreDe(r))
		return nil
	})
	if err != nil {
		return nil, err
	}
	var exempts []string
	err = query(ctx, l.db, `SELECT joueur FROM classique_exempts WHERE tournoi = ? ORDER BY ronde`, []any{tournoi}, func(rows *sql.Rows) error {
		var j string
		if err := rows.Scan(&j); err != nil {
			return err
		}
		exempts = append(exempts, j)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return tournoiclassique.Classer(cfg, participants, rencontres, exempts), nil
}

func query(ctx context.Context, db *sql.DB, q string, args []any, row func(*sql.Rows) error) error {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := row(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}
