package standings

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"arbitre/domain/duplicate"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/streamname"
	"arbitre/domain/tournoi"
	"arbitre/engine/correction"
	"arbitre/projections/projection"
)

// Name is the projection's name and checkpoint key.
const Name = "standings"

// The projection keeps, in SQL, the facts the fold needs and nothing else —
// the latest value per key: players, exclusions from a tournament (§6.1),
// games, late arrivals, tops, the decision in force per bulletin, a
// topping's times (§3.8.4), the end of each game, the closure of its
// results — and every
// disciplinary sanction still in force, in order (they add up). Reading replays
// those facts through the same fold (Classement.Appliquer), so the SQL
// projection and the in-memory fold cannot disagree.
const schema = `
CREATE TABLE IF NOT EXISTS standings_joueurs (
	licence TEXT PRIMARY KEY,
	stream  TEXT NOT NULL,
	joueur  TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS standings_exclusions (
	tournoi   TEXT NOT NULL,
	licence   TEXT NOT NULL,
	exclusion TEXT NOT NULL,
	PRIMARY KEY (tournoi, licence)
);
CREATE TABLE IF NOT EXISTS standings_parties (
	partie   TEXT PRIMARY KEY,
	position INTEGER NOT NULL,
	tournoi  TEXT    NOT NULL,
	creee    TEXT    NOT NULL,
	fin      TEXT
);
CREATE TABLE IF NOT EXISTS standings_arrivees (
	partie       TEXT    NOT NULL,
	licence      TEXT    NOT NULL,
	position     INTEGER NOT NULL,
	premier_coup INTEGER NOT NULL,
	PRIMARY KEY (partie, licence)
);
CREATE TABLE IF NOT EXISTS standings_tops (
	partie TEXT    NOT NULL,
	coup   INTEGER NOT NULL,
	score  INTEGER NOT NULL,
	PRIMARY KEY (partie, coup)
);
CREATE TABLE IF NOT EXISTS standings_toppings (
	partie   TEXT    NOT NULL,
	coup     INTEGER NOT NULL,
	licence  TEXT    NOT NULL,
	secondes INTEGER NOT NULL,
	PRIMARY KEY (partie, coup, licence)
);
CREATE TABLE IF NOT EXISTS standings_clotures (
	partie TEXT PRIMARY KEY
);
CREATE TABLE IF NOT EXISTS standings_sanctions (
	partie   TEXT    NOT NULL,
	position INTEGER NOT NULL,
	coup     INTEGER NOT NULL,
	licence  TEXT    NOT NULL,
	nature   TEXT    NOT NULL,
	PRIMARY KEY (partie, position)
);`

// Projection maintains the standings' facts. Its registry decodes the
// duplicate and tournament events; other types are not its business.
type Projection struct {
	registre *eventstore.Registry
	mu       sync.Mutex
	ignores  map[string]bool // types without facts (sansFait)
}

var (
	_ projection.Batcher     = (*Projection)(nil)
	_ projection.Folder      = (*Projection)(nil)
	_ projection.PayloadUser = (*enMemoire)(nil)
)

// NewProjection returns the standings projection; the journal's registry must hold
// the duplicate and tournament event types (duplicate.RegisterEvents,
// tournoi.RegisterEvents).
func NewProjection(j projection.Journal) (*Projection, error) {
	return &Projection{registre: j.Registry, ignores: map[string]bool{}}, nil
}

// Name returns Name.
func (*Projection) Name() string { return Name }

// Setup creates the tables. A decisions table of the former layout (one row
// per decision) is replaced, and the projection starts again from position
// zero to fill the new one.
func (p *Projection) Setup(ctx context.Context, tx *sql.Tx) error {
	var ancienne bool
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) > 0 FROM pragma_table_info('standings_decisions') WHERE name = 'coup'`).Scan(&ancienne); err != nil {
		return err
	}
	if ancienne {
		if _, err := tx.ExecContext(ctx, `DROP TABLE standings_decisions`); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, schema+";\n"+schemaDecisions); err != nil {
		return err
	}
	if !ancienne {
		return nil
	}
	if err := p.Reset(ctx, tx); err != nil {
		return err
	}
	return projection.Recommencer(ctx, tx, Name)
}

// Reset empties the tables.
func (*Projection) Reset(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `DELETE FROM standings_joueurs; DELETE FROM standings_exclusions; DELETE FROM standings_parties;
		DELETE FROM standings_arrivees; DELETE FROM standings_tops; DELETE FROM standings_decisions;
		DELETE FROM standings_sanctions; DELETE FROM standings_toppings; DELETE FROM standings_clotures;`)
	return err
}

// Apply records the fact an event carries, if any.
func (p *Projection) Apply(ctx context.Context, tx *sql.Tx, e eventstore.Event) error {
	return p.ApplyBatch(ctx, tx, []projection.Decoded{{Event: &e}})
}

// ApplyBatch records the facts of events, the rows of consecutive
// statements alike in one (projection.Batcher, projection.Requetes).
func (p *Projection) ApplyBatch(ctx context.Context, tx *sql.Tx, events []projection.Decoded) error {
	f := enSQL{ctx: ctx, q: projection.NewRequetes(tx), cours: nouveauxEnCours(tx)}
	for i := range events {
		if err := p.appliquer(f, events[i]); err != nil {
			return err
		}
	}
	if err := f.cours.ecrire(f); err != nil {
		return err
	}
	return f.q.Fin(ctx)
}

// Fold keeps the facts in memory during a rebuild and writes each table's
// final rows once (projection.Folder, issue 16 item 10).
func (p *Projection) Fold() projection.Fold {
	return &enMemoire{p: p, joueurs: map[string][2]string{}, exclusions: map[[2]string]string{}, parties: map[string]*faitsPartie{}}
}

// UsesPayload tells whether events of type typ may carry a fact: those of
// games and tournaments, every type until one of its events carried none
// (projection.PayloadUser).
func (p *Projection) UsesPayload(typ string) bool {
	return (strings.HasPrefix(typ, "partie.") || strings.HasPrefix(typ, "tournoi.")) && !p.sansFait(typ)
}

// sansFait tells whether events of type typ carry none of the facts the
// projection keeps: a type's payload is always of one Go type, so once one
// of them decoded to a type appliquer ignores, the others are not decoded.
func (p *Projection) sansFait(typ string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.ignores[typ]
}

func (p *Projection) ignorer(typ string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ignores[typ] = true
}

// appliquer hands the fact e carries, if any, to f; e's payload is decoded
// here unless a rebuild decoded it, and only when its type may carry one.
func (p *Projection) appliquer(f faits, e projection.Decoded) error {
	kind, id, err := streamname.ParseStream(e.Stream)
	if err != nil || (kind != streamname.KindPartie && kind != streamname.KindTournoi) || p.sansFait(e.Type) {
		return nil
	}
	if e = e.Sinon(p.registre); !e.Known {
		return nil
	}
	if e.Err != nil {
		return e.Err
	}
	payload := e.Payload
	if coup, licence, d, ok := duplicate.DecisionImposee(payload); ok {
		// The reasons tell a disciplinary avertissement from the bulletin's
		// own warning (§5.8), which Discipline.Decision needs.
		raisons, err := enJSON(d.Reasons)
		if err != nil {
			return err
		}
		return f.decision(id, coup, licence, d, raisons)
	}
	switch ev := payload.(type) {
	case tournoi.JoueurInscrit:
		j, err := json.Marshal(ev)
		if err != nil {
			return err
		}
		return f.joueur(ev.Joueur.Licence, e.Stream, string(j))
	case tournoi.JoueurExclu:
		x, err := json.Marshal(ev)
		if err != nil {
			return err
		}
		return f.exclusion(id, ev.Licence, string(x))
	case duplicate.PartieCreee:
		c, err := json.Marshal(ev)
		if err != nil {
			return err
		}
		return f.partie(id, e.Position, ev.Tournoi, string(c))
	case duplicate.JoueurArrive:
		return f.arrivee(id, ev.Licence, e.Position, ev.PremierCoup)
	case duplicate.JoueurRetire:
		return f.retrait(id, ev.Licence)
	case duplicate.TopRetenu:
		return f.top(id, ev.Coup, ev.Score)
	case duplicate.TopTrouve:
		return f.topping(id, ev.Coup, ev.Licence, ev.Secondes)
	case duplicate.SanctionDisciplinaire:
		return f.sanction(id, e.Position, ev.Coup, ev.Licence, string(ev.Nature))
	case duplicate.CoupAnnule:
		// The annulled coup's tops, decisions, toppings and sanctions go
		// with it, an exclusion stays (duplicate.Discipline.Appliquer).
		return f.annuler(id, ev.Coup)
	case duplicate.PartieTerminee:
		fin, err := json.Marshal(ev)
		if err != nil {
			return err
		}
		return f.fin(id, string(fin))
	case duplicate.EliminationsAnnulees:
		return f.rouvrir(id, ev)
	case duplicate.ResultatsClos:
		// §5.7: a bulletin confirmed missing is a zéro, kept as a decision.
		for _, m := range ev.Manquants {
			d := duplicate.DecisionManquant()
			raisons, err := enJSON(d.Reasons)
			if err != nil {
				return err
			}
			if err := f.decision(id, m.Coup, m.Licence, d, raisons); err != nil {
				return err
			}
		}
		return f.clore(id)
	case duplicate.DoubleArbitrage, duplicate.DecisionCommission:
		// Facts only when they impose a decision (DecisionImposee above).
	default:
		p.ignorer(e.Type)
	}
	return nil
}

// enJSON is reasons as encoding/json writes them; most decisions have none,
// written without it.
func enJSON(reasons []correction.Reason) (string, error) {
	switch {
	case reasons == nil:
		return "null", nil
	case len(reasons) == 0:
		return sansRaisons, nil
	}
	b, err := json.Marshal(reasons)
	return string(b), err
}

// faits receives the facts of the events, one method per kind of fact
// (one table each): written in SQL as they come (enSQL), or held in memory
// during a rebuild and written at the end (enMemoire).
type faits interface {
	decision(partie string, coup int, licence string, d correction.Decision, raisons string) error
	joueur(licence, stream, joueur string) error
	exclusion(tournoi, licence, exclusion string) error
	partie(partie string, position uint64, tournoi, creee string) error
	arrivee(partie, licence string, position uint64, premierCoup int) error
	retrait(partie, licence string) error
	top(partie string, coup, score int) error
	topping(partie string, coup int, licence string, secondes int) error
	sanction(partie string, position uint64, coup int, licence, nature string) error
	annuler(partie string, coup int) error
	fin(partie, fin string) error
	clore(partie string) error
	rouvrir(partie string, e duplicate.EliminationsAnnulees) error
}

// The statements that write each fact; a rebuild writes its final rows
// with the same ones, on empty tables.
const (
	sqlJoueur = `INSERT INTO standings_joueurs (licence, stream, joueur) VALUES (?, ?, ?)
			ON CONFLICT (licence) DO UPDATE SET stream = excluded.stream, joueur = excluded.joueur`
	sqlExclusion = `INSERT INTO standings_exclusions (tournoi, licence, exclusion) VALUES (?, ?, ?)
			ON CONFLICT (tournoi, licence) DO UPDATE SET exclusion = excluded.exclusion`
	sqlPartie   = `INSERT INTO standings_parties (partie, position, tournoi, creee, fin) VALUES (?, ?, ?, ?, ?)`
	sqlArrivee  = `INSERT INTO standings_arrivees (partie, licence, position, premier_coup) VALUES (?, ?, ?, ?)`
	sqlTop      = `INSERT INTO standings_tops (partie, coup, score) VALUES (?, ?, ?) ON CONFLICT (partie, coup) DO UPDATE SET score = excluded.score`
	sqlTopping  = `INSERT INTO standings_toppings (partie, coup, licence, secondes) VALUES (?, ?, ?, ?)`
	sqlSanction = `INSERT INTO standings_sanctions (partie, position, coup, licence, nature) VALUES (?, ?, ?, ?, ?) ON CONFLICT (partie, position) DO NOTHING`
)

// enSQL writes each fact as it comes, the decisions at the end of the
// batch (enCours).
type enSQL struct {
	ctx   context.Context
	q     *projection.Requetes
	cours *enCours
}

func (f enSQL) exec(query string, args ...any) error { return f.q.Exec(f.ctx, query, args...) }

func (f enSQL) decision(partie string, coup int, licence string, d correction.Decision, raisons string) error {
	return f.cours.decision(f.ctx, partie, coup, licence, retenue(d, raisons))
}

func (f enSQL) joueur(licence, stream, joueur string) error {
	return f.exec(sqlJoueur, licence, stream, joueur)
}

func (f enSQL) exclusion(tournoi, licence, exclusion string) error {
	return f.exec(sqlExclusion, tournoi, licence, exclusion)
}

func (f enSQL) partie(partie string, position uint64, tournoi, creee string) error {
	return f.exec(sqlPartie, partie, position, tournoi, creee, nil)
}

func (f enSQL) arrivee(partie, licence string, position uint64, premierCoup int) error {
	return f.exec(sqlArrivee, partie, licence, position, premierCoup)
}

func (f enSQL) retrait(partie, licence string) error {
	return f.exec(`DELETE FROM standings_arrivees WHERE partie = ? AND licence = ?`, partie, licence)
}

func (f enSQL) top(partie string, coup, score int) error { return f.exec(sqlTop, partie, coup, score) }

func (f enSQL) topping(partie string, coup int, licence string, secondes int) error {
	return f.exec(sqlTopping, partie, coup, licence, secondes)
}

func (f enSQL) sanction(partie string, position uint64, coup int, licence, nature string) error {
	return f.exec(sqlSanction, partie, position, coup, licence, nature)
}

func (f enSQL) annuler(partie string, coup int) error {
	for _, query := range []string{`DELETE FROM standings_tops WHERE partie = ? AND coup = ?`,
		`DELETE FROM standings_toppings WHERE partie = ? AND coup = ?`} {
		if err := f.exec(query, partie, coup); err != nil {
			return err
		}
	}
	if err := f.cours.annuler(f.ctx, partie, coup); err != nil {
		return err
	}
	return f.exec(`DELETE FROM standings_sanctions WHERE partie = ? AND coup = ? AND nature <> ?`, partie, coup, string(duplicate.SanctionExclusion))
}

func (f enSQL) fin(partie, fin string) error {
	return f.exec(`UPDATE standings_parties SET fin = ? WHERE partie = ?`, fin, partie)
}

func (f enSQL) clore(partie string) error {
	return f.exec(`INSERT INTO standings_clotures (partie) VALUES (?) ON CONFLICT (partie) DO NOTHING`, partie)
}

func (f enSQL) rouvrir(partie string, e duplicate.EliminationsAnnulees) error {
	return f.exec(`UPDATE standings_parties SET fin = NULL WHERE partie = ? AND json_extract(fin, '$.motif') = ? AND json_extract(fin, '$.dernierCoup') = ?`,
		partie, string(duplicate.FinVainqueur), e.Coup)
}

// charger rebuilds the fold from the projection's facts: of one
// tournament, or of every game when tournoiID is "". The result answers
// Partie, Cumul and ParSerie with exactly the figures of the live fold.
// With seule set, only that game's bulletins, tops
// and end are read, the tournament's other games being created and no
// more: enough for the standings of that game alone (an exclusion that
// annuls earlier games needs the number of the game it was decided in),
// and a hall's game is read without the games played before it (issue 34:
// 2,000 players' decisions of a whole game decoded again at each change of
// the live one).
func charger(ctx context.Context, db *sql.DB, tournoiID, seule string) (*Classement, error) {
	c := New()
	if err := lire(ctx, db, `SELECT stream, joueur FROM standings_joueurs ORDER BY licence`, nil, func(rows *sql.Rows) error {
		var stream, data string
		var j tournoi.JoueurInscrit
		if err := rows.Scan(&stream, &data); err != nil {
			return err
		}
		if err := json.Unmarshal([]byte(data), &j); err != nil {
			return err
		}
		return c.Appliquer(stream, j)
	}); err != nil {
		return nil, err
	}
	filtre, args := ``, []any(nil)
	if tournoiID != "" {
		filtre, args = ` WHERE tournoi = ?`, []any{tournoiID}
	}
	if err := lire(ctx, db, `SELECT tournoi, exclusion FROM standings_exclusions`+filtre+` ORDER BY tournoi, licence`, args, func(rows *sql.Rows) error {
		var id, data string
		var x tournoi.JoueurExclu
		if err := rows.Scan(&id, &data); err != nil {
			return err
		}
		if err := json.Unmarshal([]byte(data), &x); err != nil {
			return err
		}
		return c.Appliquer("tournoi-"+id, x)
	}); err != nil {
		return nil, err
	}
	type ligne struct {
		id         string
		creee, fin []byte
		clos       bool
	}
	var parties []ligne
	if err := lire(ctx, db, `SELECT partie, creee, fin, partie IN (SELECT partie FROM standings_clotures) FROM standings_parties`+filtre+` ORDER BY position`, args, func(rows *sql.Rows) error {
		var l ligne
		var fin sql.NullString
		if err := rows.Scan(&l.id, &l.creee, &fin, &l.clos); err != nil {
			return err
		}
		if fin.Valid {
			l.fin = []byte(fin.String)
		}
		parties = append(parties, l)
		return nil
	}); err != nil {
		return nil, err
	}
	for _, l := range parties {
		stream := "partie-" + l.id
		var creee duplicate.PartieCreee
		if err := json.Unmarshal(l.creee, &creee); err != nil {
			return nil, err
		}
		if err := c.Appliquer(stream, creee); err != nil {
			return nil, err
		}
		if seule != "" && l.id != seule {
			continue
		}
		if err := chargerPartie(ctx, db, c, l.id, stream); err != nil {
			return nil, err
		}
		if l.fin != nil {
			var fin duplicate.PartieTerminee
			if err := json.Unmarshal(l.fin, &fin); err != nil {
				return nil, err
			}
			if err := c.Appliquer(stream, fin); err != nil {
				return nil, err
			}
		}
		if l.clos {
			// The decisions of the bulletins confirmed missing are read with
			// the others.
			if err := c.Appliquer(stream, duplicate.ResultatsClos{}); err != nil {
				return nil, err
			}
		}
	}
	return c, nil
}

func chargerPartie(ctx context.Context, db *sql.DB, c *Classement, id, stream string) error {
	if err := lire(ctx, db, `SELECT licence, premier_coup FROM standings_arrivees WHERE partie = ? ORDER BY position`, []any{id}, func(rows *sql.Rows) error {
		var e duplicate.JoueurArrive
		if err := rows.Scan(&e.Licence, &e.PremierCoup); err != nil {
			return err
		}
		return c.Appliquer(stream, e)
	}); err != nil {
		return err
	}
	if err := lire(ctx, db, `SELECT coup, score FROM standings_tops WHERE partie = ? ORDER BY coup`, []any{id}, func(rows *sql.Rows) error {
		var e duplicate.TopRetenu
		if err := rows.Scan(&e.Coup, &e.Score); err != nil {
			return err
		}
		return c.Appliquer(stream, e)
	}); err != nil {
		return err
	}
	if err := lire(ctx, db, `SELECT coup, licence, secondes FROM standings_toppings WHERE partie = ? ORDER BY coup, licence`, []any{id}, func(rows *sql.Rows) error {
		var e duplicate.TopTrouve
		if err := rows.Scan(&e.Coup, &e.Licence, &e.Secondes); err != nil {
			return err
		}
		return c.Appliquer(stream, e)
	}); err != nil {
		return err
	}
	if err := lire(ctx, db, `SELECT coup, licence, nature FROM standings_sanctions WHERE partie = ? ORDER BY position`, []any{id}, func(rows *sql.Rows) error {
		var e duplicate.SanctionDisciplinaire
		if err := rows.Scan(&e.Coup, &e.Licence, &e.Nature); err != nil {
			return err
		}
		return c.Appliquer(stream, e)
	}); err != nil {
		return err
	}
	decisions, err := lireDecisions(ctx, db, id)
	if err != nil {
		return err
	}
	for _, l := range decisions {
		d := correction.Decision{Paid: l.d.paid, Sanction: l.d.sanction, DisciplineWarnings: l.d.discipline, AverageCap: l.d.averageCap}
		if err := json.Unmarshal([]byte(l.d.raisons), &d.Reasons); err != nil {
			return fmt.Errorf("standings: %w", err)
		}
		if err := c.Appliquer(stream, duplicate.BulletinCorrige{Coup: l.coup, Licence: l.licence, Moteur: &d}); err != nil {
			return fmt.Errorf("standings: %w", err)
		}
	}
	return nil
}

func lire(ctx context.Context, db *sql.DB, q string, args []any, f func(*sql.Rows) error) error {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("standings: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := f(rows); err != nil {
			return fmt.Errorf("standings: %w", err)
		}
	}
	return rows.Err()
}

// lirePartie returns the standings of one game from the projection, as r
// sees them.
func lirePartie(ctx context.Context, db *sql.DB, partie string, r Regard) ([]Ligne, error) {
	var tournoiID string
	err := db.QueryRowContext(ctx, `SELECT tournoi FROM standings_parties WHERE partie = ?`, partie).Scan(&tournoiID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, &erreur.Erreur{Code: duplicate.CodeNotFound, Message: fmt.Sprintf("partie %s inconnue du classement", partie)}
	}
	if err != nil {
		return nil, fmt.Errorf("standings: %w", err)
	}
	c, err := charger(ctx, db, tournoiID, partie)
	if err != nil {
		return nil, err
	}
	return c.PartiePour(partie, r)
}

// lireCumul returns the cumulated standings of a tournament from the
// projection, as r sees them.
func lireCumul(ctx context.Context, db *sql.DB, tournoiID string, r Regard) ([]Ligne, error) {
	c, err := charger(ctx, db, tournoiID, "")
	if err != nil {
		return nil, err
	}
	return c.CumulPour(r)
}
