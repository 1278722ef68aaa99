package historique

import (
	"context"
	"database/sql"
	"time"

	"arbitre/projections/projection"
)

// Lecteur reads the archive, the read type of the historique read model
// (the cotes it reports are the classique cotes read model's, in the same
// database). Nothing is kept between reads: the archive's are rare and
// paged.
type Lecteur struct{ db *sql.DB }

// NewLecteur returns the reader of the archive run's runner keeps.
func NewLecteur(run *projection.Runner) *Lecteur { return &Lecteur{db: run.Base()} }

// Page asks for at most First rows after the cursor After (a global
// position; 0 for the start).
type Page struct {
	After uint64
	First int
}

// MaxPage bounds a page.
const MaxPage = 100

func (p Page) limit() int {
	if p.First <= 0 || p.First > MaxPage {
		return MaxPage
	}
	return p.First
}

// Tournoi is an archived tournament.
type Tournoi struct {
	Position uint64
	ID       string
	Kind     Kind
	Nom      string
	OuvertLe time.Time
	// ClosLe is zero while the tournament is open (classique only closes).
	ClosLe  time.Time
	Parties int
}

// Partie is an archived game: a duplicate partie or a classique match.
type Partie struct {
	Position uint64
	ID       string
	Tournoi  string
	Kind     Kind
	// Numero is the game number (duplicate) or the round (classique).
	Numero   int
	CreeeLe  time.Time
	Terminee bool
}

// Joueur is a player as registered (latest name and club).
type Joueur struct {
	ID, Nom, Club string
}

// Participation is a game a player took part in, with its result when the
// archive holds it: a classique game's meeting, an imported duplicate
// game's line of the player (a live duplicate game's result is the
// standings').
type Participation struct {
	Position  uint64
	Partie    string
	Tournoi   string
	Kind      Kind
	Rencontre *Rencontre
	Resultat  *Resultat
}

// Rencontre is a classique game's result.
type Rencontre struct {
	Position      uint64
	Tournoi       string
	Match         string
	Ronde         int
	Joueurs       [2]string
	Scores        [2]int
	PointsDeMatch [2]int
	Le            time.Time
}

// Cote is a player's cote after a closed tournament.
type Cote struct {
	Tournoi            string
	Le                 time.Time
	Avant, Apres       int
	Politique, Version string
}

// page runs a paginated query whose rows start with the position; it
// reports whether more rows follow.
func page[T any](ctx context.Context, db *sql.DB, p Page, q string, args []any, scan func(*sql.Rows) (T, error)) ([]T, bool, error) {
	limit := p.limit()
	rows, err := db.QueryContext(ctx, q+` LIMIT ?`, append(args, limit+1)...)
	if err != nil {
		return nil, false, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, false, err
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, false, err
	}
	if len(out) > limit {
		return out[:limit], true, nil
	}
	return out, false, nil
}

// Tournois lists the tournaments in the order they were opened.
func (l *Lecteur) Tournois(ctx context.Context, p Page) ([]Tournoi, bool, error) {
	return page(ctx, l.db, p, `SELECT t.position, t.tournoi, t.kind, t.nom, t.ouvert_le, t.clos_le,
		(SELECT COUNT(*) FROM hist_parties g WHERE g.tournoi = t.tournoi AND g.kind = t.kind)
		FROM hist_tournois t WHERE t.position > ? ORDER BY t.position`, []any{p.After}, func(r *sql.Rows) (Tournoi, error) {
		var t Tournoi
		var ouvert, clos int64
		err := r.Scan(&t.Position, &t.ID, &t.Kind, &t.Nom, &ouvert, &clos, &t.Parties)
		t.OuvertLe = fromNanos(ouvert)
		if clos > 0 {
			t.ClosLe = fromNanos(clos)
		}
		return t, err
	})
}

// Parties lists a tournament's games in the order they were recorded.
func (l *Lecteur) Parties(ctx context.Context, tournoi string, p Page) ([]Partie, bool, error) {
	return page(ctx, l.db, p, `SELECT position, partie, tournoi, kind, numero, creee_le, terminee FROM hist_parties
		WHERE tournoi = ? AND position > ? ORDER BY position`, []any{tournoi, p.After}, scanPartie)
}

func scanPartie(r *sql.Rows) (Partie, error) {
	var g Partie
	var creee int64
	err := r.Scan(&g.Position, &g.ID, &g.Tournoi, &g.Kind, &g.Numero, &creee, &g.Terminee)
	g.CreeeLe = fromNanos(creee)
	return g, err
}

// JoueurDe returns a player, and false when unknown.
func (l *Lecteur) JoueurDe(ctx context.Context, id string) (Joueur, bool, error) {
	j := Joueur{ID: id}
	err := l.db.QueryRowContext(ctx, `SELECT nom, club FROM hist_joueurs WHERE joueur = ?`, id).Scan(&j.Nom, &j.Club)
	if err == sql.ErrNoRows {
		return j, false, nil
	}
	return j, err == nil, err
}

// requeteParticipations reads a page of a player's games with their
// results (?1 the classique kind, ?2 the player, ?3 the cursor).
const requeteParticipations = `SELECT p.position, p.partie, p.tournoi, p.kind,
	r.position, r.tournoi, r.match, r.ronde, r.joueur0, r.joueur1, r.score0, r.score1, r.pm0, r.pm1, r.le,
	x.score, x.top, x.rang
	FROM hist_participations p
	LEFT JOIN hist_rencontres r ON p.kind = ?1 AND r.position = (SELECT min(position) FROM hist_rencontres WHERE match = p.partie)
	LEFT JOIN hist_resultats x ON p.kind <> ?1 AND x.partie = p.partie AND x.joueur = p.joueur
	WHERE p.joueur = ?2 AND p.position > ?3 ORDER BY p.position`

// Participations lists a player's games, oldest first, each with its
// result, in one statement: the history's page asked a statement per game
// before (issue 34 item 1: 101 statements for a page of 100, most of a
// query's CPU, each contending with the other connections, the fold's
// among them, on SQLite's process-wide page cache and allocator locks).
// A classique game's meeting is the first recorded for its match.
func (l *Lecteur) Participations(ctx context.Context, joueur string, p Page) ([]Participation, bool, error) {
	return page(ctx, l.db, p, requeteParticipations, []any{KindClassique, joueur, p.After}, func(r *sql.Rows) (Participation, error) {
		var x Participation
		var rc rencontreLue
		var score, top, rang sql.NullInt64
		colonnes := append([]any{&x.Position, &x.Partie, &x.Tournoi, &x.Kind}, rc.colonnes()...)
		err := r.Scan(append(colonnes, &score, &top, &rang)...)
		x.Rencontre = rc.rencontre()
		if score.Valid {
			x.Resultat = &Resultat{Score: int(score.Int64), Top: int(top.Int64), Rang: int(rang.Int64)}
		}
		return x, err
	})
}

// FaceAFace lists the classique games between two players, oldest first.
func (l *Lecteur) FaceAFace(ctx context.Context, a, b string) ([]Rencontre, error) {
	return rencontres(ctx, l.db, `SELECT position, tournoi, match, ronde, joueur0, joueur1, score0, score1, pm0, pm1, le
		FROM hist_rencontres WHERE (joueur0 = ? AND joueur1 = ?) OR (joueur0 = ? AND joueur1 = ?) ORDER BY position`, a, b, b, a)
}

func rencontres(ctx context.Context, db *sql.DB, q string, args ...any) ([]Rencontre, error) {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Rencontre
	for rows.Next() {
		var rc rencontreLue
		if err := rows.Scan(rc.colonnes()...); err != nil {
			return nil, err
		}
		out = append(out, *rc.rencontre())
	}
	return out, rows.Err()
}

// rencontreLue is a meeting's columns of hist_rencontres as a row gives
// them (position, tournoi, match, ronde, joueur0, joueur1, score0, score1,
// pm0, pm1, le), all NULL where a LEFT JOIN found none.
type rencontreLue struct {
	position, ronde, score0, score1, pm0, pm1, le sql.NullInt64
	tournoi, match, joueur0, joueur1              sql.NullString
}

// colonnes are the destinations of the meeting's columns, in order.
func (c *rencontreLue) colonnes() []any {
	return []any{&c.position, &c.tournoi, &c.match, &c.ronde, &c.joueur0, &c.joueur1, &c.score0, &c.score1, &c.pm0, &c.pm1, &c.le}
}

// rencontre is the meeting read, or nil when the row held none.
func (c *rencontreLue) rencontre() *Rencontre {
	if !c.position.Valid {
		return nil
	}
	return &Rencontre{Position: uint64(c.position.Int64), Tournoi: c.tournoi.String, Match: c.match.String,
		Ronde: int(c.ronde.Int64), Joueurs: [2]string{c.joueur0.String, c.joueur1.String},
		Scores: [2]int{int(c.score0.Int64), int(c.score1.Int64)}, PointsDeMatch: [2]int{int(c.pm0.Int64), int(c.pm1.Int64)},
		Le: fromNanos(c.le.Int64)}
}

// Cotes lists a player's cote after each closed classique tournament, in
// the order the tournaments closed (by date): the cotes the classique cotes
// projection computed, and those imported past tournaments gave (policy
// "import").
func (l *Lecteur) Cotes(ctx context.Context, joueur string) ([]Cote, error) {
	rows, err := l.db.QueryContext(ctx, `SELECT tournoi, le, avant, apres, politique, version FROM (
		SELECT h.tournoi, t.clos_le AS le, h.avant, h.apres, h.politique, h.version, t.clos_position AS pos
		FROM classique_cote_historique h JOIN hist_tournois t ON t.kind = ? AND t.tournoi = h.tournoi WHERE h.joueur = ?
		UNION ALL
		SELECT i.tournoi, t.clos_le, i.avant, i.apres, ?, ?, t.clos_position
		FROM hist_cotes_importees i JOIN hist_tournois t ON t.kind = ? AND t.tournoi = i.tournoi WHERE i.joueur = ?)
		ORDER BY le, pos`, KindClassique, joueur, PolitiqueImport, VersionImport, KindClassique, joueur)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Cote
	for rows.Next() {
		var c Cote
		var le int64
		if err := rows.Scan(&c.Tournoi, &le, &c.Avant, &c.Apres, &c.Politique, &c.Version); err != nil {
			return nil, err
		}
		c.Le = fromNanos(le)
		out = append(out, c)
	}
	return out, rows.Err()
}

// CoteConnue is the player's latest cote: the one after the last classique
// tournament he played by date, live or imported (Cotes); false without
// one. The archive gives it to the registrations without one (classique
// command.CotesConnues).
func (l *Lecteur) CoteConnue(ctx context.Context, joueur string) (int, bool, error) {
	cotes, err := l.Cotes(ctx, joueur)
	if err != nil || len(cotes) == 0 {
		return 0, false, err
	}
	return cotes[len(cotes)-1].Apres, true, nil
}

// The policy and version an imported cote is reported with.
const (
	PolitiqueImport = "import"
	VersionImport   = "csv"
)

// TournoiDe returns an archived tournament (the first opened with that id),
// and false when unknown.
func (l *Lecteur) TournoiDe(ctx context.Context, id string) (Tournoi, bool, error) {
	var t Tournoi
	var ouvert, clos int64
	err := l.db.QueryRowContext(ctx, `SELECT position, tournoi, kind, nom, ouvert_le, clos_le FROM hist_tournois
		WHERE tournoi = ? ORDER BY position LIMIT 1`, id).Scan(&t.Position, &t.ID, &t.Kind, &t.Nom, &ouvert, &clos)
	if err == sql.ErrNoRows {
		return t, false, nil
	}
	t.OuvertLe = fromNanos(ouvert)
	if clos > 0 {
		t.ClosLe = fromNanos(clos)
	}
	return t, err == nil, err
}

// RencontresDuTournoi lists a classique tournament's games by round, in the
// order they were recorded.
func (l *Lecteur) RencontresDuTournoi(ctx context.Context, tournoi string) ([]Rencontre, error) {
	return rencontres(ctx, l.db, `SELECT position, tournoi, match, ronde, joueur0, joueur1, score0, score1, pm0, pm1, le
		FROM hist_rencontres WHERE tournoi = ? ORDER BY ronde, position`, tournoi)
}

// Exempts returns, per round of a classique tournament, the player exempt
// from it.
func (l *Lecteur) Exempts(ctx context.Context, tournoi string) (map[int]string, error) {
	rows, err := l.db.QueryContext(ctx, `SELECT ronde, joueur FROM hist_exempts WHERE tournoi = ?`, tournoi)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int]string{}
	for rows.Next() {
		var r int
		var j string
		if err := rows.Scan(&r, &j); err != nil {
			return nil, err
		}
		out[r] = j
	}
	return out, rows.Err()
}

// CotesDuTournoi returns each player's cote before and after a closed
// classique tournament (from the classique cotes projection).
func (l *Lecteur) CotesDuTournoi(ctx context.Context, tournoi string) (map[string][2]int, error) {
	rows, err := l.db.QueryContext(ctx, `SELECT joueur, avant, apres FROM classique_cote_historique WHERE tournoi = ?`, tournoi)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string][2]int{}
	for rows.Next() {
		var j string
		var c [2]int
		if err := rows.Scan(&j, &c[0], &c[1]); err != nil {
			return nil, err
		}
		out[j] = c
	}
	return out, rows.Err()
}
