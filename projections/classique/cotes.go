package classique

import (
	"context"
	"database/sql"
	"fmt"

	"arbitre/domain/classique/cote"
	"arbitre/domain/classique/matchclassique"
	"arbitre/domain/classique/tournoiclassique"
	"arbitre/domain/eventstore"
	"arbitre/projections/projection"
)

// CotesName is the cote projection's name.
const CotesName = "classique_cotes"

const cotesSchema = `
CREATE TABLE IF NOT EXISTS classique_cote_inscriptions (
	tournoi TEXT NOT NULL, joueur TEXT NOT NULL, cote INTEGER NOT NULL,
	PRIMARY KEY (tournoi, joueur));
CREATE TABLE IF NOT EXISTS classique_cote_parties (
	tournoi TEXT NOT NULL, match TEXT NOT NULL, premier TEXT NOT NULL, second TEXT NOT NULL, issue INTEGER NOT NULL,
	PRIMARY KEY (tournoi, match));
CREATE TABLE IF NOT EXISTS classique_cotes (
	joueur TEXT PRIMARY KEY, cote INTEGER NOT NULL, tournois INTEGER NOT NULL,
	politique TEXT NOT NULL, version TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS classique_cote_historique (
	tournoi TEXT NOT NULL, joueur TEXT NOT NULL, avant INTEGER NOT NULL, apres INTEGER NOT NULL,
	nouveau INTEGER NOT NULL, parties INTEGER NOT NULL, score REAL NOT NULL, attendu REAL NOT NULL, delta REAL NOT NULL,
	politique TEXT NOT NULL, version TEXT NOT NULL,
	PRIMARY KEY (tournoi, joueur));`

// Cotes rates every game of a tournament when it closes, with a versioned
// cote.Policy: the cote before is the player's latest cote in this
// projection, else the cote he registered with (when not 0), else he is new
// to the policy. Forfeits are not rated. Each stored cote names the policy
// and version that produced it; replacing the policy (the federation's own
// rule) changes nothing here.
type Cotes struct {
	dec    decoder
	policy cote.Policy
}

// NewCotes returns the cote projection under the federation's policy
// (cote.DefaultElo); it decodes the tournament events itself.
func NewCotes(projection.Journal) (*Cotes, error) {
	dec, err := newDecoder()
	if err != nil {
		return nil, err
	}
	return &Cotes{dec: dec, policy: cote.DefaultElo()}, nil
}

// Name returns CotesName.
func (*Cotes) Name() string { return CotesName }

// Setup creates the tables.
func (*Cotes) Setup(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, cotesSchema)
	return err
}

// Reset empties the tables.
func (*Cotes) Reset(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `DELETE FROM classique_cote_inscriptions; DELETE FROM classique_cote_parties;
		DELETE FROM classique_cotes; DELETE FROM classique_cote_historique;`)
	return err
}

// Lit tells whether the cotes read events of type typ
// (projection.Selectif).
func (*Cotes) Lit(typ string) bool { return lit(typ) }

// Apply folds one event.
func (c *Cotes) Apply(ctx context.Context, tx *sql.Tx, e eventstore.Event) error {
	v, tournoi, err := c.dec.evenement(e)
	if err != nil || v == nil {
		return err
	}
	switch ev := v.(type) {
	case tournoiclassique.JoueurInscrit:
		_, err = tx.ExecContext(ctx, `INSERT INTO classique_cote_inscriptions (tournoi, joueur, cote) VALUES (?, ?, ?)`, tournoi, ev.Joueur, ev.Cote)
	case tournoiclassique.ResultatEnregistre:
		// A correction (ev.Correction) replaces the match's game, or drops
		// it when it becomes a forfeit.
		if ev.Fin == string(matchclassique.FinForfait) {
			_, err = tx.ExecContext(ctx, `DELETE FROM classique_cote_parties WHERE tournoi = ? AND match = ?`, tournoi, ev.Match)
			return err
		}
		issue := cote.Draw
		switch ev.Perdant {
		case 0:
			issue = cote.SecondWins
		case 1:
			issue = cote.FirstWins
		}
		_, err = tx.ExecContext(ctx, `INSERT OR REPLACE INTO classique_cote_parties (tournoi, match, premier, second, issue) VALUES (?, ?, ?, ?, ?)`,
			tournoi, ev.Match, ev.Joueurs[0], ev.Joueurs[1], int(issue))
	case tournoiclassique.TournoiClos:
		err = c.rate(ctx, tx, tournoi)
	}
	return err
}

// rate applies the policy to the closed tournament's games.
func (c *Cotes) rate(ctx context.Context, tx *sql.Tx, tournoi string) error {
	before := map[cote.PlayerID]int{}
	rows, err := tx.QueryContext(ctx, `SELECT i.joueur, COALESCE(c.cote, i.cote) FROM classique_cote_inscriptions i
		LEFT JOIN classique_cotes c ON c.joueur = i.joueur WHERE i.tournoi = ?`, tournoi)
	if err != nil {
		return err
	}
	for rows.Next() {
		var id string
		var v int
		if err := rows.Scan(&id, &v); err != nil {
			rows.Close()
			return err
		}
		if v > 0 {
			before[cote.PlayerID(id)] = v
		}
	}
	rows.Close()
	var games []cote.Game
	rows, err = tx.QueryContext(ctx, `SELECT premier, second, issue FROM classique_cote_parties WHERE tournoi = ? ORDER BY match`, tournoi)
	if err != nil {
		return err
	}
	for rows.Next() {
		var g cote.Game
		if err := rows.Scan(&g.First, &g.Second, &g.Outcome); err != nil {
			rows.Close()
			return err
		}
		games = append(games, g)
	}
	rows.Close()
	ratings, err := c.policy.Rate(before, games)
	if err != nil {
		return fmt.Errorf("rating tournament %s: %w", tournoi, err)
	}
	name, version := c.policy.Name(), c.policy.Version()
	for _, r := range ratings {
		if _, err := tx.ExecContext(ctx, `INSERT INTO classique_cote_historique (tournoi, joueur, avant, apres, nouveau, parties, score, attendu, delta, politique, version)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, tournoi, r.Player, r.Before, r.After, r.New, r.Games, r.Score, r.Expected, r.Delta, name, version); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO classique_cotes (joueur, cote, tournois, politique, version) VALUES (?, ?, 1, ?, ?)
			ON CONFLICT (joueur) DO UPDATE SET cote = excluded.cote, tournois = tournois + 1, politique = excluded.politique, version = excluded.version`,
			r.Player, r.After, name, version); err != nil {
			return err
		}
	}
	return nil
}

// Cote is a player's current cote and the rule that produced it.
type Cote struct {
	Joueur    string
	Cote      int
	Tournois  int
	Politique string
	Version   string
}

// LecteurCotes reads the players' cotes, the read type of the
// classique_cotes read model. Nothing is kept between reads.
type LecteurCotes struct{ db *sql.DB }

// NewLecteurCotes returns the reader of the cotes run's runner keeps.
func NewLecteurCotes(run *projection.Runner) *LecteurCotes { return &LecteurCotes{db: run.Base()} }

// ListeCotes returns every rated player's cote, best first.
func (l *LecteurCotes) ListeCotes(ctx context.Context) ([]Cote, error) {
	var out []Cote
	err := query(ctx, l.db, `SELECT joueur, cote, tournois, politique, version FROM classique_cotes ORDER BY cote DESC, joueur`, nil, func(rows *sql.Rows) error {
		var c Cote
		if err := rows.Scan(&c.Joueur, &c.Cote, &c.Tournois, &c.Politique, &c.Version); err != nil {
			return err
		}
		out = append(out, c)
		return nil
	})
	return out, err
}

// Series recomputes every rated player's série from the current cotes and
// the thresholds (never stored: thresholds may change).
func (l *LecteurCotes) Series(ctx context.Context, t cote.Thresholds) (map[string]cote.Serie, error) {
	cotes, err := l.ListeCotes(ctx)
	if err != nil {
		return nil, err
	}
	m := make(map[cote.PlayerID]int, len(cotes))
	for _, c := range cotes {
		m[cote.PlayerID(c.Joueur)] = c.Cote
	}
	series, err := cote.Series(m, t)
	if err != nil {
		return nil, err
	}
	out := make(map[string]cote.Serie, len(series))
	for id, s := range series {
		out[string(id)] = s
	}
	return out, nil
}
