package historique

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"arbitre/domain/archive"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/streamname"
)

// importer records what an imported past tournament adds to the archive,
// the same rows as a tournament played here: the tournament (a classique
// one closed on its date), its games, the players, their participations,
// the classique meetings; plus what the live read models would have given
// (duplicate scores and ranks, cotes before and after), kept as the file
// said them. Rows are dated with the tournament's date.
func (p *Projection) importer(ctx context.Context, tx *sql.Tx, e eventstore.Event, ev any) error {
	genre, tournoi, ok := strings.Cut(strings.TrimPrefix(e.Stream, string(streamname.KindArchive)+"-"), "-")
	if !ok {
		return fmt.Errorf("archive import: stream %q is not archive-<genre>-<tournoi>", e.Stream)
	}
	exec := func(q string, args ...any) error {
		if _, err := tx.ExecContext(ctx, q, args...); err != nil {
			return fmt.Errorf("archive import, %s at %d: %w", e.Type, e.Position, err)
		}
		return nil
	}
	if o, ok := ev.(archive.ImportOuvert); ok {
		le, err := time.Parse(archive.FormatDate, o.Date)
		if err != nil {
			return fmt.Errorf("archive import at %d: %w", e.Position, err)
		}
		clos, closLe := uint64(0), int64(0)
		if o.Genre == archive.GenreClassique {
			clos, closLe = e.Position, le.UnixNano()
		}
		return exec(`INSERT INTO hist_tournois (position, tournoi, kind, nom, ouvert_le, clos_position, clos_le) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			e.Position, o.Tournoi, genre, o.Nom, le.UnixNano(), clos, closLe)
	}
	var le int64
	if err := tx.QueryRowContext(ctx, `SELECT ouvert_le FROM hist_tournois WHERE kind = ? AND tournoi = ?`, genre, tournoi).Scan(&le); err != nil {
		return fmt.Errorf("archive import at %d: tournament %s %s: %w", e.Position, genre, tournoi, err)
	}
	var licence, nom, club, partie string
	var numero int
	switch l := ev.(type) {
	case archive.ResultatDuplicate:
		licence, nom, club, partie, numero = l.Licence, l.Nom, l.Club, l.Partie, l.Numero
		if err := exec(`INSERT OR REPLACE INTO hist_resultats (partie, joueur, score, top, rang) VALUES (?, ?, ?, ?, ?)`,
			l.Partie, l.Licence, l.Score, l.Top, l.Rang); err != nil {
			return err
		}
	case archive.ResultatClassique:
		licence, nom, club, partie, numero = l.Licence, l.Nom, l.Club, l.Match, l.Ronde
		if l.CoteApres != 0 {
			if err := exec(`INSERT OR IGNORE INTO hist_cotes_importees (tournoi, joueur, avant, apres) VALUES (?, ?, ?, ?)`,
				tournoi, l.Licence, l.CoteAvant, l.CoteApres); err != nil {
				return err
			}
		}
		if partie == "" {
			break
		}
		if err := rencontreImportee(ctx, tx, exec, e.Position, tournoi, le, l.LigneClassique); err != nil {
			return err
		}
	}
	// A name and club imported from a past tournament replace only those of
	// an earlier imported one: never a live registration's, nor a later
	// file's.
	var connu, importeLe int64
	if err := tx.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM hist_joueurs WHERE joueur = ?),
		COALESCE((SELECT le FROM hist_noms_importes WHERE joueur = ?), -1)`, licence, licence).Scan(&connu, &importeLe); err != nil {
		return err
	}
	if connu == 0 || (importeLe >= 0 && importeLe <= le) {
		if err := exec(`INSERT INTO hist_joueurs (joueur, nom, club) VALUES (?, ?, ?)
			ON CONFLICT (joueur) DO UPDATE SET nom = excluded.nom, club = excluded.club`, licence, nom, club); err != nil {
			return err
		}
		if err := exec(`INSERT OR REPLACE INTO hist_noms_importes (joueur, le) VALUES (?, ?)`, licence, le); err != nil {
			return err
		}
	}
	if partie == "" {
		return nil // an exempt round: no game
	}
	if err := exec(`INSERT INTO hist_parties (position, partie, tournoi, kind, numero, creee_le, terminee) VALUES (?, ?, ?, ?, ?, ?, 1)
		ON CONFLICT (partie) DO NOTHING`, e.Position, partie, tournoi, genre, numero, le); err != nil {
		return err
	}
	return exec(`INSERT INTO hist_participations (joueur, position, partie, tournoi, kind) VALUES (?, ?, ?, ?, ?)`,
		licence, e.Position, partie, tournoi, genre)
}

// rencontreImportee records a match from its first line and completes the
// second player's points de match from his.
func rencontreImportee(ctx context.Context, tx *sql.Tx, exec func(string, ...any) error, pos uint64, tournoi string, le int64, l archive.LigneClassique) error {
	res, err := tx.ExecContext(ctx, `UPDATE hist_rencontres SET pm1 = ? WHERE tournoi = ? AND match = ? AND joueur1 = ?`,
		l.PointsDeMatch, tournoi, l.Match, l.Licence)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n > 0 {
		return err
	}
	return exec(`INSERT INTO hist_rencontres (position, tournoi, match, ronde, joueur0, joueur1, score0, score1, pm0, pm1, le)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)`, pos, tournoi, l.Match, l.Ronde, l.Licence, l.Adversaire,
		l.Score, l.ScoreAdversaire, l.PointsDeMatch, le)
}

// Resultat is a player's imported result in a duplicate game.
type Resultat struct {
	Score, Top, Rang int
}

// ResultatImporte returns a player's result in an imported duplicate game,
// and false when the game was not imported.
func ResultatImporte(ctx context.Context, db *sql.DB, partie, joueur string) (Resultat, bool, error) {
	var r Resultat
	err := db.QueryRowContext(ctx, `SELECT score, top, rang FROM hist_resultats WHERE partie = ? AND joueur = ?`, partie, joueur).
		Scan(&r.Score, &r.Top, &r.Rang)
	if err == sql.ErrNoRows {
		return r, false, nil
	}
	return r, err == nil, err
}
