// Package historique is the federation's archive read model: tournaments
// and games in the order they were recorded, the players, each player's
// games (duplicate and classique) and the classique meetings that
// head-to-head records come from. Lists are paginated by the global
// position of the event that created each row, a cursor that never moves
// when later events arrive. Duplicate scores and ranks are read from the
// standings projection and cotes from the classique cotes projection, so no
// figure is computed twice.
package historique

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"iter"
	"slices"
	"time"

	"arbitre/domain/archive"
	"arbitre/domain/classique/tournoiclassique"
	"arbitre/domain/duplicate"
	"arbitre/domain/eventstore"
	"arbitre/domain/tournoi"
	"arbitre/projections/projection"
)

// Name is the projection's name and checkpoint key.
const Name = "historique"

// Kind is the form of play of a tournament and of its games.
type Kind string

// Kinds of tournaments and games.
const (
	KindDuplicate Kind = "duplicate"
	KindClassique Kind = "classique"
)

const schema = `
CREATE TABLE IF NOT EXISTS hist_tournois (
	position INTEGER PRIMARY KEY, tournoi TEXT NOT NULL, kind TEXT NOT NULL, nom TEXT NOT NULL,
	ouvert_le INTEGER NOT NULL, clos_position INTEGER NOT NULL DEFAULT 0, clos_le INTEGER NOT NULL DEFAULT 0,
	UNIQUE (kind, tournoi));
CREATE TABLE IF NOT EXISTS hist_parties (
	position INTEGER PRIMARY KEY, partie TEXT NOT NULL UNIQUE, tournoi TEXT NOT NULL, kind TEXT NOT NULL,
	numero INTEGER NOT NULL, creee_le INTEGER NOT NULL, terminee INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS hist_joueurs (
	joueur TEXT PRIMARY KEY, nom TEXT NOT NULL, club TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS hist_participations (
	joueur TEXT NOT NULL, position INTEGER NOT NULL, partie TEXT NOT NULL, tournoi TEXT NOT NULL, kind TEXT NOT NULL,
	PRIMARY KEY (joueur, position)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS hist_participations_masse (
	joueur TEXT NOT NULL, position INTEGER NOT NULL, partie TEXT NOT NULL, tournoi TEXT NOT NULL, kind TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS hist_rencontres (
	position INTEGER PRIMARY KEY, tournoi TEXT NOT NULL, match TEXT NOT NULL, ronde INTEGER NOT NULL,
	joueur0 TEXT NOT NULL, joueur1 TEXT NOT NULL, score0 INTEGER NOT NULL, score1 INTEGER NOT NULL,
	pm0 INTEGER NOT NULL, pm1 INTEGER NOT NULL, le INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS hist_resultats (
	partie TEXT NOT NULL, joueur TEXT NOT NULL, score INTEGER NOT NULL, top INTEGER NOT NULL, rang INTEGER NOT NULL,
	PRIMARY KEY (partie, joueur)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS hist_exempts (
	tournoi TEXT NOT NULL, ronde INTEGER NOT NULL, joueur TEXT NOT NULL, PRIMARY KEY (tournoi, ronde));
CREATE TABLE IF NOT EXISTS hist_noms_importes (
	joueur TEXT PRIMARY KEY, le INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS hist_cotes_importees (
	tournoi TEXT NOT NULL, joueur TEXT NOT NULL, avant INTEGER NOT NULL, apres INTEGER NOT NULL,
	PRIMARY KEY (tournoi, joueur));
CREATE TABLE IF NOT EXISTS hist_annees (
	annee INTEGER NOT NULL, kind TEXT NOT NULL, joueur TEXT NOT NULL, club TEXT NOT NULL, club_le INTEGER NOT NULL,
	parties INTEGER NOT NULL, points INTEGER NOT NULL, maximum INTEGER NOT NULL, cote INTEGER NOT NULL, cote_le INTEGER NOT NULL,
	PRIMARY KEY (annee, kind, joueur)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS hist_classement (
	annee INTEGER NOT NULL, kind TEXT NOT NULL, n INTEGER NOT NULL, rang INTEGER NOT NULL, joueur TEXT NOT NULL, club TEXT NOT NULL,
	PRIMARY KEY (annee, kind, n)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS hist_masse (seule INTEGER PRIMARY KEY CHECK (seule = 1));
CREATE TABLE IF NOT EXISTS hist_a_classer (
	annee INTEGER NOT NULL, kind TEXT NOT NULL, PRIMARY KEY (annee, kind)) WITHOUT ROWID;
DROP INDEX IF EXISTS hist_annees_club;`

// indexDesLectures are the indexes only the archive's queries use: the
// projection's writes never look rows up through them.
var indexDesLectures = []struct{ nom, colonnes string }{
	{"hist_classement_club", "hist_classement (club, annee, kind, n)"},
	{"hist_parties_tournoi", "hist_parties (tournoi, position)"},
	{"hist_rencontres_match", "hist_rencontres (match)"},
	{"hist_cotes_importees_joueur", "hist_cotes_importees (joueur)"},
	{"hist_rencontres_j0", "hist_rencontres (joueur0)"},
	{"hist_rencontres_j1", "hist_rencontres (joueur1)"},
}

// indexer builds the indexes the archive's queries read through.
func indexer(ctx context.Context, tx *sql.Tx) error {
	for _, i := range indexDesLectures {
		if _, err := tx.ExecContext(ctx, `CREATE INDEX IF NOT EXISTS `+i.nom+` ON `+i.colonnes); err != nil {
			return fmt.Errorf("archive: index %s: %w", i.nom, err)
		}
	}
	return nil
}

// DebutDeMasse begins a bulk nobody reads meanwhile (projection.Masse):
// the indexes only the archive's queries use are dropped rather than kept
// row by row, the years the bulk adds to are listed (hist_a_classer)
// rather than ranked again at each batch, and the participations are
// appended to hist_participations_masse in the order of the log, to be
// sorted into hist_participations (keyed by player, each of whom plays all
// along the log) at the end (verserParticipations). hist_masse holds the
// bulk's mark with the state, so that the projection's opening ends a bulk
// that stopped before its end.
func (*Projection) DebutDeMasse(ctx context.Context, tx *sql.Tx) error {
	if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO hist_masse (seule) VALUES (1)`); err != nil {
		return fmt.Errorf("archive: bulk: %w", err)
	}
	for _, i := range indexDesLectures {
		if _, err := tx.ExecContext(ctx, `DROP INDEX IF EXISTS `+i.nom); err != nil {
			return fmt.Errorf("archive: index %s: %w", i.nom, err)
		}
	}
	return nil
}

// FinDeMasse ends a bulk (projection.Masse): its participations are
// sorted into hist_participations, each year it added to is ranked once,
// and the queries' indexes are built, in one sort each.
func (*Projection) FinDeMasse(ctx context.Context, tx *sql.Tx) error {
	if err := verserParticipations(ctx, tx); err != nil {
		return err
	}
	aClasser, err := anneesDe(ctx, tx, `SELECT annee, kind FROM hist_a_classer ORDER BY annee, kind`)
	if err != nil {
		return err
	}
	for _, a := range aClasser {
		if err := classer(ctx, tx, a); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM hist_a_classer; DELETE FROM hist_masse`); err != nil {
		return fmt.Errorf("archive: bulk: %w", err)
	}
	return indexer(ctx, tx)
}

// verserParticipations moves the participations a bulk appended to
// hist_participations_masse into hist_participations in the order of its
// key: SQLite sorts them once and each page of the table's tree is written
// once, instead of a row inserted at a random place of the tree at each
// line.
func verserParticipations(ctx context.Context, tx *sql.Tx) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO hist_participations (joueur, position, partie, tournoi, kind)
		SELECT joueur, position, partie, tournoi, kind FROM hist_participations_masse ORDER BY joueur, position;
		DELETE FROM hist_participations_masse`); err != nil {
		return fmt.Errorf("archive: participations: %w", err)
	}
	return nil
}

// participationsEnAttente is how many participations a bulk holds in
// hist_participations_masse before it sorts them into
// hist_participations: the pages they take, freed by the sort, are taken
// again by the next ones rather than left empty in the file at the end
// (30 MB or so; the twenty years of an archive hold 16 million), and the
// sort writes a player's rows of some thirty lines together: each sort
// rewrites about one page of the table per player whatever it holds, so
// fewer, larger sorts rewrite fewer pages (1 << 17 sorted each page of
// simulate archive, about 5 % more of its CPU over three years).
const participationsEnAttente = 1 << 19

// verserSiPlein sorts the bulk's participations into hist_participations
// once it holds enAttente of them.
func (l *lot) verserSiPlein(ctx context.Context) error {
	if !l.enMasse {
		return nil
	}
	var n int64
	if err := l.tx.QueryRowContext(ctx, `SELECT COALESCE(max(rowid), 0) FROM hist_participations_masse`).Scan(&n); err != nil {
		return fmt.Errorf("archive: participations: %w", err)
	}
	if n < l.enAttente {
		return nil
	}
	return verserParticipations(ctx, l.tx)
}

// anneesDe are the years query lists.
func anneesDe(ctx context.Context, tx *sql.Tx, query string) ([]anneeDeJeu, error) {
	rows, err := tx.QueryContext(ctx, query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []anneeDeJeu
	for rows.Next() {
		var a anneeDeJeu
		if err := rows.Scan(&a.annee, &a.kind); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// Projection maintains the archive's rows; r decodes the events.
type Projection struct {
	registre *eventstore.Registry
	// enAttente is how many participations a bulk holds before it sorts
	// them (participationsEnAttente).
	enAttente int64
}

// NewProjection returns the projection; the journal's registry must hold
// every event type (catalogue.Registre).
func NewProjection(j projection.Journal) (*Projection, error) {
	return &Projection{registre: j.Registry, enAttente: participationsEnAttente}, nil
}

// Name returns Name.
func (*Projection) Name() string { return Name }

// Setup creates the tables and the queries' indexes, ends a bulk that
// stopped before its end (FinDeMasse), and ranks the years a store kept
// before the rankings were (classer).
func (p *Projection) Setup(ctx context.Context, tx *sql.Tx) error {
	if _, err := tx.ExecContext(ctx, schema); err != nil {
		return err
	}
	if err := p.FinDeMasse(ctx, tx); err != nil {
		return err
	}
	nonClasses, err := anneesDe(ctx, tx, `SELECT DISTINCT annee, kind FROM hist_annees a
		WHERE NOT EXISTS (SELECT 1 FROM hist_classement c WHERE c.annee = a.annee AND c.kind = a.kind)`)
	if err != nil {
		return err
	}
	for _, a := range nonClasses {
		if err := classer(ctx, tx, a); err != nil {
			return err
		}
	}
	return nil
}

// Reset empties the tables.
func (*Projection) Reset(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `DELETE FROM hist_tournois; DELETE FROM hist_parties; DELETE FROM hist_joueurs;
		DELETE FROM hist_participations; DELETE FROM hist_participations_masse; DELETE FROM hist_rencontres; DELETE FROM hist_resultats; DELETE FROM hist_cotes_importees;
		DELETE FROM hist_noms_importes; DELETE FROM hist_exempts; DELETE FROM hist_annees; DELETE FROM hist_classement; DELETE FROM hist_a_classer;`)
	return err
}

// relevant are the event types the archive reads.
var relevant = map[string]bool{
	tournoi.TypeTournoiCree: true, tournoi.TypeJoueurInscrit: true,
	duplicate.TypePartieCreee: true, duplicate.TypeJoueurArrive: true, duplicate.TypeJoueurRetire: true, duplicate.TypePartieTerminee: true, duplicate.TypeEliminationsAnnulees: true,
	tournoiclassique.TypeTournoiOuvert: true, tournoiclassique.TypeJoueurInscrit: true, tournoiclassique.TypeResultatEnregistre: true, tournoiclassique.TypeTournoiClos: true,
	tournoiclassique.TypeRondePubliee: true,
	archive.TypeImportOuvert:          true, archive.TypePartieDuplicate: true, archive.TypeMatchClassique: true,
	archive.TypeResultatDuplicate: true, archive.TypeResultatClassique: true,
}

// Lit tells whether the history reads events of type typ
// (projection.Selectif).
func (*Projection) Lit(typ string) bool { return relevant[typ] }

// UsesPayload tells whether the history reads the payloads of events of
// type typ: those it reads (projection.PayloadUser).
func (*Projection) UsesPayload(typ string) bool { return relevant[typ] }

// Apply records what one event adds to the archive. A tournament or a game
// whose id an imported past tournament took first keeps the imported row.
func (p *Projection) Apply(ctx context.Context, tx *sql.Tx, e eventstore.Event) error {
	return p.ApplyBatch(ctx, tx, []projection.Decoded{{Event: &e}})
}

// lot is what a batch of events shares: its statements, each prepared
// once (projection.Requetes: a classique match's event has two lines,
// twenty years of them are some six million events), each imported
// tournament's date, and the players' years its lines add to.
type lot struct {
	tx    *sql.Tx
	q     *projection.Requetes
	dates map[string]int64
	// enMasse says the batch is part of a bulk (DebutDeMasse), which
	// sorts its participations once it holds enAttente of them.
	enMasse   bool
	enAttente int64
	// insertionParticipation is participer's statement, made once for
	// the batch rather than at each of its rows.
	insertionParticipation string
	// annees are the years the batch's lines added to, ranked again
	// at its end (lot.classer).
	annees map[anneeDeJeu]bool
	// bilans are the players' years as the batch's lines add to them,
	// in the order first met, written once each (ecrireBilans).
	bilans      map[cleBilan]*bilanLot
	ordreBilans []cleBilan
	// joueurs is each player's name's origin as the batch wrote it or
	// read it: the date of the imported file it came from, -1 for a
	// live registration, jamaisVu for a player the archive does not
	// know.
	joueurs map[string]int64
	// inscrits are the names and clubs the archive held for the players
	// looked up (chercher), since the batch's last write of the names
	// (ecrireNoms), which writes only those that differ.
	inscrits map[string][2]string
	// suivants are the events that follow the one folded in its slice
	// of decoded payloads: the players they name are looked up with
	// its (chercher).
	suivants []projection.Decoded
	// noms are the names and clubs the batch's files gave players, in
	// the order first met, written once each (ecrireNoms).
	noms      map[string]nomImporte
	ordreNoms []string
}

// exec runs a statement of the batch.
func (l *lot) exec(ctx context.Context, query string, args ...any) error {
	return l.q.Exec(ctx, query, args...)
}

// participations is the table the batch's participations go to: during
// a bulk, the one appended to in the order of the log.
func (l *lot) participations() string {
	if l.enMasse {
		return "hist_participations_masse"
	}
	return "hist_participations"
}

// participer records a player's part in a game.
func (l *lot) participer(ctx context.Context, joueur string, position uint64, partie, tournoi string, kind Kind) error {
	return l.q.Inserer(ctx, l.insertionParticipation, "", joueur, int64(position), partie, tournoi, string(kind))
}

// fin writes the players' names and years the batch's files gave and
// sends the rows held (projection.Requetes.Inserer), before a statement
// that reads them or a row that must follow them.
func (l *lot) fin(ctx context.Context) error {
	if err := l.ecrireNoms(ctx); err != nil {
		return err
	}
	if err := l.ecrireBilans(ctx); err != nil {
		return err
	}
	return l.q.Envoyer(ctx)
}

// ApplyBatch applies events as Apply one by one (projection.Batcher).
func (p *Projection) ApplyBatch(ctx context.Context, tx *sql.Tx, events []projection.Decoded) error {
	return p.ApplyTranches(ctx, tx, slices.Values([][]projection.Decoded{events}))
}

// ApplyTranches applies the events of the slices tranches yields as one
// batch (projection.Tranches): each player's name and year are written
// once for all of them, each slice's payloads dropped once it is folded.
func (p *Projection) ApplyTranches(ctx context.Context, tx *sql.Tx, tranches iter.Seq[[]projection.Decoded]) error {
	l := &lot{tx: tx, q: projection.NewRequetes(tx), enAttente: p.enAttente, dates: map[string]int64{}, joueurs: map[string]int64{},
		annees: map[anneeDeJeu]bool{}, bilans: map[cleBilan]*bilanLot{}}
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM hist_masse)`).Scan(&l.enMasse); err != nil {
		return fmt.Errorf("archive: bulk: %w", err)
	}
	l.insertionParticipation = `INSERT INTO ` + l.participations() + ` (joueur, position, partie, tournoi, kind)`
	err := p.applyLot(ctx, tx, tranches, l)
	return errors.Join(err, l.q.Fin(ctx))
}

// applyLot folds the events of tranches through the batch l, in order,
// then ranks the years they added to. Their payloads come decoded ahead (a
// replay spends an eighth of its time decoding imported lines: a rebuild
// decodes them on every core, projection.RebuildAll), or are decoded here;
// the first that does not decode stops the batch.
func (p *Projection) applyLot(ctx context.Context, tx *sql.Tx, tranches iter.Seq[[]projection.Decoded], l *lot) error {
	for events := range tranches {
		for i, d := range events {
			if !relevant[d.Type] {
				continue
			}
			if d = d.Sinon(p.registre); d.Err != nil {
				return d.Err
			}
			l.suivants = events[i+1:]
			if err := p.apply(ctx, tx, *d.Event, d.Payload, l); err != nil {
				return err
			}
		}
		l.suivants = nil // the slice's payloads are dropped once it is folded
	}
	if err := l.fin(ctx); err != nil {
		return err
	}
	if err := l.verserSiPlein(ctx); err != nil {
		return err
	}
	return l.classer(ctx)
}

// classer ranks again each year the batch added to, or, during a bulk
// (DebutDeMasse), lists it for the bulk's end.
func (l *lot) classer(ctx context.Context) error {
	for a := range l.annees {
		if !l.enMasse {
			if err := classer(ctx, l.tx, a); err != nil {
				return err
			}
		} else if _, err := l.tx.ExecContext(ctx, `INSERT OR IGNORE INTO hist_a_classer (annee, kind) VALUES (?, ?)`, a.annee, a.kind); err != nil {
			return fmt.Errorf("archive: ranking %d %s: %w", a.annee, a.kind, err)
		}
	}
	return nil
}

// apply folds e, an event the archive reads, of payload payload.
func (p *Projection) apply(ctx context.Context, tx *sql.Tx, e eventstore.Event, payload any, l *lot) error {
	switch payload.(type) {
	case archive.ImportOuvert, archive.PartieDuplicate, archive.MatchClassique, archive.ResultatDuplicate, archive.ResultatClassique:
		// An import's events neither read nor change what the batch
		// holds of the players: their names and years are written once
		// for all the batch's files.
		return p.importer(ctx, tx, e, payload, l)
	}
	// Every other statement sees the players' names and years added up
	// before it, and may register a player.
	if err := l.fin(ctx); err != nil {
		return err
	}
	clear(l.joueurs)
	at := e.Metadata.RecordedAt.UnixNano()
	exec := func(q string, args ...any) error {
		if err := l.exec(ctx, q, args...); err != nil {
			return fmt.Errorf("archive, %s at %d: %w", e.Type, e.Position, err)
		}
		return nil
	}
	switch ev := payload.(type) {
	case tournoi.TournoiCree:
		return exec(`INSERT INTO hist_tournois (position, tournoi, kind, nom, ouvert_le) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (kind, tournoi) DO NOTHING`,
			e.Position, ev.Tournoi, KindDuplicate, ev.Nom, at)
	case tournoiclassique.TournoiOuvert:
		return exec(`INSERT INTO hist_tournois (position, tournoi, kind, nom, ouvert_le) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (kind, tournoi) DO NOTHING`,
			e.Position, ev.Tournoi, KindClassique, ev.Nom, at)
	case tournoiclassique.TournoiClos:
		return exec(`UPDATE hist_tournois SET clos_position = ?, clos_le = ? WHERE kind = ? AND tournoi = ?`,
			e.Position, at, KindClassique, ev.Tournoi)
	case tournoi.JoueurInscrit:
		if err := exec(`DELETE FROM hist_noms_importes WHERE joueur = ?`, ev.Joueur.Licence); err != nil {
			return err
		}
		return exec(`INSERT INTO hist_joueurs (joueur, nom, club) VALUES (?, ?, ?)
			ON CONFLICT (joueur) DO UPDATE SET nom = excluded.nom, club = excluded.club`, ev.Joueur.Licence, ev.Joueur.Nom, ev.Joueur.Club)
	case tournoiclassique.JoueurInscrit:
		if err := exec(`DELETE FROM hist_noms_importes WHERE joueur = ?`, ev.Joueur); err != nil {
			return err
		}
		return exec(`INSERT INTO hist_joueurs (joueur, nom, club) VALUES (?, ?, '')
			ON CONFLICT (joueur) DO UPDATE SET nom = CASE WHEN excluded.nom = '' THEN nom ELSE excluded.nom END`, ev.Joueur, ev.Nom)
	case duplicate.PartieCreee:
		if err := exec(`INSERT INTO hist_parties (position, partie, tournoi, kind, numero, creee_le) VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (partie) DO NOTHING`,
			e.Position, ev.Partie, ev.Tournoi, KindDuplicate, ev.Numero, at); err != nil {
			return err
		}
		// A game's players, a thousand at a national tournament, go through
		// one prepared statement (projection.Requetes).
		for _, j := range ev.Joueurs {
			if err := l.participer(ctx, j, e.Position, ev.Partie, ev.Tournoi, KindDuplicate); err != nil {
				return fmt.Errorf("archive, %s at %d: %w", e.Type, e.Position, err)
			}
		}
		return nil
	case duplicate.JoueurArrive:
		return exec(`INSERT INTO `+l.participations()+` (joueur, position, partie, tournoi, kind)
			SELECT ?, ?, partie, tournoi, kind FROM hist_parties WHERE 'partie-' || partie = ?`, ev.Licence, e.Position, e.Stream)
	case duplicate.JoueurRetire:
		// The player's participations are all in hist_participations once
		// a bulk's are (rare: a late player withdrawn).
		if l.enMasse {
			if err := verserParticipations(ctx, tx); err != nil {
				return err
			}
		}
		return exec(`DELETE FROM hist_participations WHERE joueur = ? AND 'partie-' || partie = ?`, ev.Licence, e.Stream)
	case duplicate.PartieTerminee:
		return exec(`UPDATE hist_parties SET terminee = 1 WHERE 'partie-' || partie = ?`, e.Stream)
	case duplicate.EliminationsAnnulees:
		// Only the end the eliminations caused can be undone with them
		// (duplicate.Partie.AnnulerEliminations).
		return exec(`UPDATE hist_parties SET terminee = 0 WHERE 'partie-' || partie = ?`, e.Stream)
	case tournoiclassique.RondePubliee:
		if ev.Exempt == "" {
			return nil
		}
		t, err := tournoiclassique.TournoiDuStream(e.Stream)
		if err != nil {
			return err
		}
		return exec(`INSERT OR REPLACE INTO hist_exempts (tournoi, ronde, joueur) VALUES (?, ?, ?)`, t, ev.Ronde, ev.Exempt)
	case tournoiclassique.ResultatEnregistre:
		t, err := tournoiclassique.TournoiDuStream(e.Stream)
		if err != nil {
			return err
		}
		if ev.Correction != "" {
			return exec(`UPDATE hist_rencontres SET score0 = ?, score1 = ?, pm0 = ?, pm1 = ? WHERE tournoi = ? AND match = ?`,
				ev.Scores[0], ev.Scores[1], ev.PointsDeMatch[0], ev.PointsDeMatch[1], t, ev.Match)
		}
		if err := exec(`INSERT INTO hist_rencontres (position, tournoi, match, ronde, joueur0, joueur1, score0, score1, pm0, pm1, le)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, e.Position, t, ev.Match, ev.Ronde, ev.Joueurs[0], ev.Joueurs[1],
			ev.Scores[0], ev.Scores[1], ev.PointsDeMatch[0], ev.PointsDeMatch[1], at); err != nil {
			return err
		}
		if err := exec(`INSERT INTO hist_parties (position, partie, tournoi, kind, numero, creee_le, terminee) VALUES (?, ?, ?, ?, ?, ?, 1)
			ON CONFLICT (partie) DO NOTHING`,
			e.Position, ev.Match, t, KindClassique, ev.Ronde, at); err != nil {
			return err
		}
		for _, j := range ev.Joueurs {
			if err := l.participer(ctx, j, e.Position, ev.Match, t, KindClassique); err != nil {
				return fmt.Errorf("archive, %s at %d: %w", e.Type, e.Position, err)
			}
		}
		return nil
	}
	return nil
}

func fromNanos(n int64) time.Time { return time.Unix(0, n).UTC() }
