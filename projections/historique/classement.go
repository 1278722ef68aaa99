package historique

import (
	"context"
	"database/sql"
	"fmt"
)

// anneeDeJeu is a year in one form of play: one national ranking.
type anneeDeJeu struct {
	annee int
	kind  Kind
}

// ordreAnnuel ranks a year: duplicate by share of the tops, classique by
// cote then points de match; the licence orders equal rows.
var ordreAnnuel = map[Kind]string{
	KindDuplicate: `CAST(points AS REAL) / max(maximum, 1) DESC`,
	KindClassique: `cote DESC, CAST(points AS REAL) / max(maximum, 1) DESC`,
}

// classer ranks a year again from its players' lines (hist_annees) into
// hist_classement: each player's place (n, the ranking's cursor) and rank
// (ties share one), so that a page of the ranking, or of a club's lines
// of it, is read from an index rather than ranked at each query (fifteen
// thousand players a year). A batch ranks once each year it added to;
// a bulk, once at its end (FinDeMasse).
func classer(ctx context.Context, tx *sql.Tx, a anneeDeJeu) error {
	ordre, ok := ordreAnnuel[a.kind]
	if !ok {
		return fmt.Errorf("archive: unknown kind %q", a.kind)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM hist_classement WHERE annee = ? AND kind = ?`, a.annee, a.kind); err != nil {
		return fmt.Errorf("archive: ranking %d %s: %w", a.annee, a.kind, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO hist_classement (annee, kind, n, rang, joueur, club)
		SELECT annee, kind, ROW_NUMBER() OVER (ORDER BY `+ordre+`, joueur), RANK() OVER (ORDER BY `+ordre+`), joueur, club
		FROM hist_annees WHERE annee = ? AND kind = ?`, a.annee, a.kind); err != nil {
		return fmt.Errorf("archive: ranking %d %s: %w", a.annee, a.kind, err)
	}
	return nil
}

// Bilan is a player's year in one form of play: his national rank, his
// games, their points (duplicate: scores; classique: points de match) and
// their most (tops; three points de match a match), and his cote after the
// year's last classique tournament (0: none).
type Bilan struct {
	// Numero is the row's place in the national ranking, its cursor.
	Numero                   uint64
	Rang                     int
	Joueur, Nom, Club        string
	Parties, Points, Maximum int
	Cote                     int
}

// Pourcentage is the points' share of the most, in percent.
func (b Bilan) Pourcentage() float64 {
	if b.Maximum == 0 {
		return 0
	}
	return float64(b.Points) * 100 / float64(b.Maximum)
}

// Queries of a page of a year's ranking, national or of a club's lines,
// through hist_classement's key and its club index.
const (
	colonnesDuBilan = `SELECT c.n, c.rang, c.joueur, COALESCE(j.nom, ''), a.club, a.parties, a.points, a.maximum, a.cote
		FROM hist_classement c JOIN hist_annees a ON a.annee = c.annee AND a.kind = c.kind AND a.joueur = c.joueur
		LEFT JOIN hist_joueurs j ON j.joueur = c.joueur`
	requeteClassement = colonnesDuBilan + ` WHERE c.annee = ? AND c.kind = ? AND c.n > ? ORDER BY c.n`
	requeteClub       = colonnesDuBilan + ` WHERE c.club = ? AND c.annee = ? AND c.kind = ? AND c.n > ? ORDER BY c.n`
)

// ClassementAnnuel lists a year's national ranking in one form of play,
// from the archive's imported tournaments; club, when not empty, keeps
// the players whose club that year it is (with their national rank).
func (l *Lecteur) ClassementAnnuel(ctx context.Context, annee int, kind Kind, club string, p Page) ([]Bilan, bool, error) {
	if _, ok := ordreAnnuel[kind]; !ok {
		return nil, false, fmt.Errorf("archive: unknown kind %q", kind)
	}
	q, args := requeteClassement, []any{annee, kind, p.After}
	if club != "" {
		q, args = requeteClub, []any{club, annee, kind, p.After}
	}
	return page(ctx, l.db, p, q, args, func(r *sql.Rows) (Bilan, error) {
		var b Bilan
		err := r.Scan(&b.Numero, &b.Rang, &b.Joueur, &b.Nom, &b.Club, &b.Parties, &b.Points, &b.Maximum, &b.Cote)
		return b, err
	})
}
