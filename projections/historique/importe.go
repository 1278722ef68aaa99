package historique

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"

	"arbitre/domain/archive"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/streamname"
	"arbitre/projections/projection"
)

// importer records what an imported past tournament adds to the archive,
// the same rows as a tournament played here: the tournament (a classique
// one closed on its date), its games, the players, their participations,
// the classique meetings; plus what the live read models would have given
// (duplicate scores and ranks, cotes before and after), kept as the file
// said them. Rows are dated with the tournament's date.
func (p *Projection) importer(ctx context.Context, tx *sql.Tx, e eventstore.Event, ev any, l *lot) error {
	genre, tournoi, ok := strings.Cut(strings.TrimPrefix(e.Stream, string(streamname.KindArchive)+"-"), "-")
	if !ok {
		return fmt.Errorf("archive import: stream %q is not archive-<genre>-<tournoi>", e.Stream)
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
		if err := l.exec(ctx, `INSERT INTO hist_tournois (position, tournoi, kind, nom, ouvert_le, clos_position, clos_le) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			e.Position, o.Tournoi, genre, o.Nom, le.UnixNano(), clos, closLe); err != nil {
			return fmt.Errorf("archive import, %s at %d: %w", e.Type, e.Position, err)
		}
		l.dates[e.Stream] = le.UnixNano()
		return nil
	}
	le, ok := l.dates[e.Stream]
	if !ok {
		if err := tx.QueryRowContext(ctx, `SELECT ouvert_le FROM hist_tournois WHERE kind = ? AND tournoi = ?`, genre, tournoi).Scan(&le); err != nil {
			return fmt.Errorf("archive import at %d: tournament %s %s: %w", e.Position, genre, tournoi, err)
		}
		l.dates[e.Stream] = le
	}
	imp := importeur{ctx: ctx, tx: tx, lot: l, pos: e.Position, tournoi: tournoi, genre: genre, le: le}
	var err error
	switch l := ev.(type) {
	case archive.PartieDuplicate:
		err = imp.partie(l)
	case archive.MatchClassique:
		err = imp.match(l)
	case archive.ResultatDuplicate:
		err = imp.partie(l.EnColonnes())
	case archive.ResultatClassique:
		err = imp.match(l.EnColonnes())
	}
	if err != nil {
		return fmt.Errorf("archive import, %s at %d: %w", e.Type, e.Position, err)
	}
	return nil
}

// importeur writes the rows of one event of an imported tournament, its
// lines' rows held in the batch's lot.
type importeur struct {
	ctx     context.Context
	tx      *sql.Tx
	lot     *lot
	pos     uint64
	tournoi string
	genre   string
	le      int64
}

// partie records a duplicate game: its row, the players first named in
// it, each line's result and participation.
func (imp importeur) partie(p archive.PartieDuplicate) error {
	if j := p.Joueurs; j != nil {
		if err := imp.joueurs(j.Licences, j.Noms, j.Clubs); err != nil {
			return err
		}
	}
	if err := imp.partieJouee(p.Partie, p.Numero); err != nil {
		return err
	}
	clubs := map[string]string{}
	if j := p.Joueurs; j != nil {
		for k, licence := range j.Licences {
			clubs[licence] = j.Clubs[k]
		}
	}
	for k, licence := range p.Licences {
		if err := imp.lot.q.Inserer(imp.ctx, `INSERT OR REPLACE INTO hist_resultats (partie, joueur, score, top, rang)`, "",
			p.Partie, licence, int64(p.Scores[k]), int64(p.Top), int64(p.Rangs[k])); err != nil {
			return err
		}
	}
	for k, licence := range p.Licences {
		club, connu := clubs[licence]
		if err := imp.annee(licence, club, connu, p.Scores[k], p.Top, 0); err != nil {
			return err
		}
	}
	return imp.participations(p.Partie, p.Licences)
}

// match records a classique match (or an exempt's line, no game): the
// players first named in it with their imported cotes, the meeting and
// its game, and each player's participation.
func (imp importeur) match(m archive.MatchClassique) error {
	j := m.Joueurs
	if j != nil {
		if err := imp.joueurs(j.Licences, j.Noms, j.Clubs); err != nil {
			return err
		}
	}
	for k, licence := range j.Colonne() {
		if j.CotesApres[k] == 0 {
			continue
		}
		if err := imp.lot.q.Inserer(imp.ctx, `INSERT OR IGNORE INTO hist_cotes_importees (tournoi, joueur, avant, apres)`, "",
			imp.tournoi, licence, int64(j.CotesAvant[k]), int64(j.CotesApres[k])); err != nil {
			return err
		}
	}
	for k, licence := range m.Licences {
		club, cote, connu := nommeDansLeMatch(j, licence)
		if err := imp.annee(licence, club, connu, m.PointsDeMatch[k], pointsDeMatchMax, cote); err != nil {
			return err
		}
	}
	if m.Match == "" {
		return nil // an exempt round: no game
	}
	if err := imp.rencontre(m); err != nil {
		return err
	}
	if err := imp.partieJouee(m.Match, m.Ronde); err != nil {
		return err
	}
	return imp.participations(m.Match, m.Licences)
}

// nommeDansLeMatch is the club and the cote after the match that a
// match's event gives a player it names (connu), the last naming him; a
// match names two players at most: a scan, where maps cost two
// allocations a match (140,000 matches a year).
func nommeDansLeMatch(j *archive.JoueursClassique, licence string) (club string, cote int, connu bool) {
	licences := j.Colonne()
	for k := len(licences) - 1; k >= 0; k-- {
		if licences[k] == licence {
			return j.Clubs[k], j.CotesApres[k], true
		}
	}
	return "", 0, false
}

// partieJouee records an imported game (a classique match's: its round
// for numero), over when imported.
func (imp importeur) partieJouee(partie string, numero int) error {
	return imp.lot.q.Inserer(imp.ctx, `INSERT INTO hist_parties (position, partie, tournoi, kind, numero, creee_le, terminee)`,
		`ON CONFLICT (partie) DO NOTHING`, int64(imp.pos), partie, imp.tournoi, imp.genre, int64(numero), imp.le, int64(1))
}

// rencontre records the meeting of a match from its two lines; a match
// imported one line per event (before MatchClassique) is recorded from its
// first line and its second completes the second player's points de match.
func (imp importeur) rencontre(m archive.MatchClassique) error {
	pm1 := 0
	if len(m.Licences) == 2 {
		pm1 = m.PointsDeMatch[1]
	} else {
		if err := imp.lot.q.Envoyer(imp.ctx); err != nil {
			return err
		}
		res, err := imp.tx.ExecContext(imp.ctx, `UPDATE hist_rencontres SET pm1 = ? WHERE tournoi = ? AND match = ? AND joueur1 = ?`,
			m.PointsDeMatch[0], imp.tournoi, m.Match, m.Licences[0])
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n > 0 {
			return err
		}
	}
	return imp.lot.q.Inserer(imp.ctx, `INSERT INTO hist_rencontres (position, tournoi, match, ronde, joueur0, joueur1, score0, score1, pm0, pm1, le)`, "",
		int64(imp.pos), imp.tournoi, m.Match, int64(m.Ronde), m.Licences[0], m.Adversaires[0],
		int64(m.Scores[0]), int64(m.ScoresAdversaire[0]), int64(m.PointsDeMatch[0]), int64(pm1), imp.le)
}

// pointsDeMatchMax is what a won classique match gives (classique §7).
const pointsDeMatchMax = 3

// annee adds a line to the player's year (hist_annees): a game, its points
// (duplicate: the score; classique: the points de match) and their most
// (the top; three points de match); the club and the cote (0: none)
// of the year's latest tournament by date (connu: the event names the
// club). The batch adds up a player's lines before it writes his year
// once (ecrireBilans).
func (imp importeur) annee(licence, club string, connu bool, points, maximum, cote int) error {
	clubLe, coteLe := imp.le, imp.le
	if !connu {
		clubLe = -1
	}
	if cote == 0 {
		coteLe = -1
	}
	a := anneeDeJeu{annee: fromNanos(imp.le).Year(), kind: Kind(imp.genre)}
	imp.lot.annees[a] = true
	ligne := bilanLot{club: club, clubLe: clubLe, parties: 1, points: points, maximum: maximum, cote: cote, coteLe: coteLe}
	cle := cleBilan{anneeDeJeu: a, joueur: licence}
	b, ok := imp.lot.bilans[cle]
	if !ok {
		imp.lot.bilans[cle] = &ligne
		imp.lot.ordreBilans = append(imp.lot.ordreBilans, cle)
		return nil
	}
	b.ajouter(ligne)
	return nil
}

// cleBilan is a player's year in one form of play.
type cleBilan struct {
	anneeDeJeu
	joueur string
}

// bilanLot is what lines add to a player's year: games, points, their
// most, and the club and cote of the latest by date (club_le, cote_le;
// -1: none), the later line winning a tie, as hist_annees keeps them.
type bilanLot struct {
	club                     string
	clubLe                   int64
	parties, points, maximum int
	cote                     int
	coteLe                   int64
}

// ajouter adds a later line l, as the upsert of ecrireBilans adds a
// batch's sum to the row kept.
func (b *bilanLot) ajouter(l bilanLot) {
	b.parties += l.parties
	b.points += l.points
	b.maximum += l.maximum
	if l.clubLe >= b.clubLe {
		b.club, b.clubLe = l.club, l.clubLe
	}
	if l.coteLe >= b.coteLe {
		b.cote, b.coteLe = l.cote, l.coteLe
	}
}

// ecrireBilans writes the players' years the batch added up, each once.
func (l *lot) ecrireBilans(ctx context.Context) error {
	for _, cle := range l.ordreBilans {
		b := l.bilans[cle]
		if err := l.q.Inserer(ctx, `INSERT INTO hist_annees (annee, kind, joueur, club, club_le, parties, points, maximum, cote, cote_le)`,
			`ON CONFLICT (annee, kind, joueur) DO UPDATE SET parties = parties + excluded.parties, points = points + excluded.points,
		maximum = maximum + excluded.maximum,
		club = CASE WHEN excluded.club_le >= club_le THEN excluded.club ELSE club END, club_le = max(club_le, excluded.club_le),
		cote = CASE WHEN excluded.cote_le >= cote_le THEN excluded.cote ELSE cote END, cote_le = max(cote_le, excluded.cote_le)`,
			int64(cle.annee), string(cle.kind), cle.joueur, b.club, b.clubLe, int64(b.parties), int64(b.points), int64(b.maximum), int64(b.cote), b.coteLe); err != nil {
			return err
		}
	}
	clear(l.bilans)
	l.ordreBilans = l.ordreBilans[:0]
	return nil
}

// participations records each player's part in a game. A game of
// projection.RangeesParInsert players or more (a duplicate game of the
// federation's has 170; two thirds of a year's lines) writes its rows,
// which differ only by player, in one statement that reads the licences
// from a JSON list (an archive's licences are identifiers: ASCII letters,
// digits, '_' and '-', the same text once decoded); a classique match's two
// rows are held for their group (lot.participer).
func (imp importeur) participations(partie string, licences []string) error {
	if len(licences) < projection.RangeesParInsert {
		for _, licence := range licences {
			if err := imp.lot.participer(imp.ctx, licence, imp.pos, partie, imp.tournoi, Kind(imp.genre)); err != nil {
				return err
			}
		}
		return nil
	}
	liste, err := json.Marshal(licences)
	if err != nil {
		return err
	}
	return imp.lot.exec(imp.ctx, `INSERT INTO `+imp.lot.participations()+` (joueur, position, partie, tournoi, kind)
		SELECT value, ?, ?, ?, ? FROM json_each(?)`, int64(imp.pos), partie, imp.tournoi, imp.genre, string(liste))
}

// jamaisVu marks, in a lot's players, one the archive does not know.
const jamaisVu = math.MinInt64

// joueurs records the players' names and clubs. A name and club imported
// from a past tournament replace only those of an earlier imported one:
// never a live registration's, nor a later file's.
func (imp importeur) joueurs(licences, noms, clubs []string) error {
	if len(licences) == 0 {
		return nil
	}
	if err := imp.lot.chercher(imp.ctx, licences); err != nil {
		return err
	}
	for k, licence := range licences {
		if importeLe := imp.lot.joueurs[licence]; importeLe != jamaisVu && (importeLe < 0 || importeLe > imp.le) {
			continue
		}
		imp.lot.joueurs[licence] = imp.le
		imp.lot.nommer(licence, nomImporte{nom: noms[k], club: clubs[k], le: imp.le})
	}
	return nil
}

// chercher reads whether the archive knows the players of licences the
// batch has not met yet, and whence their names (jamaisVu: unknown), with
// those the imported events that follow in the slice (l.suivants) name:
// one lookup for a run of imported events rather than one per event that
// names a new player (a year of the federation: some 21,000, each sending
// first the rows held). Imported events neither read nor change the rows
// looked up (names are written at the batch's end, lot.fin), and any other
// event forgets what was read (apply).
func (l *lot) chercher(ctx context.Context, licences []string) error {
	var cherches []string
	ajouter := func(licences []string) {
		for _, licence := range licences {
			if _, ok := l.joueurs[licence]; !ok {
				l.joueurs[licence] = jamaisVu
				cherches = append(cherches, licence)
			}
		}
	}
	if ajouter(licences); len(cherches) == 0 {
		return nil
	}
	for _, d := range l.suivants {
		if !relevant[d.Type] {
			continue
		}
		nommes, importe := nommesPar(d.Payload)
		if !importe {
			break
		}
		ajouter(nommes)
	}
	liste, err := json.Marshal(cherches)
	if err != nil {
		return err
	}
	rows, err := l.q.Query(ctx, `SELECT j.joueur, COALESCE(n.le, -1), j.nom, j.club FROM hist_joueurs j
		LEFT JOIN hist_noms_importes n ON n.joueur = j.joueur WHERE j.joueur IN (SELECT value FROM json_each(?))`, string(liste))
	if err != nil {
		return err
	}
	defer rows.Close()
	if l.inscrits == nil {
		l.inscrits = map[string][2]string{}
	}
	for rows.Next() {
		var j, nom, club string
		var le int64
		if err := rows.Scan(&j, &le, &nom, &club); err != nil {
			return err
		}
		l.joueurs[j], l.inscrits[j] = le, [2]string{nom, club}
	}
	return rows.Err()
}

// nommesPar are the players an imported event's payload names; importe is
// false for any other payload (or one not decoded yet).
func nommesPar(payload any) (licences []string, importe bool) {
	switch ev := payload.(type) {
	case archive.ImportOuvert:
		return nil, true
	case archive.PartieDuplicate:
		return ev.Joueurs.Colonne(), true
	case archive.MatchClassique:
		return ev.Joueurs.Colonne(), true
	case archive.ResultatDuplicate:
		return ev.EnColonnes().Joueurs.Colonne(), true
	case archive.ResultatClassique:
		return ev.EnColonnes().Joueurs.Colonne(), true
	}
	return nil, false
}

// nomImporte is a player's name and club as an imported file dated le
// gives them.
type nomImporte struct {
	nom, club string
	le        int64
}

// nommer keeps the name and club a file gives a player, the batch's
// latest by date (joueurs decides), to be written once (ecrireNoms): a
// year of the federation names each player in some fourteen files.
func (l *lot) nommer(licence string, n nomImporte) {
	if l.noms == nil {
		l.noms = map[string]nomImporte{}
	}
	if _, ok := l.noms[licence]; !ok {
		l.ordreNoms = append(l.ordreNoms, licence)
	}
	l.noms[licence] = n
}

// ecrireNoms writes the players' names and clubs the batch's files gave,
// each once (not at all when the archive holds them already: a year of
// the federation names each player in each of its five transactions, with
// the same name and mostly the same club), and where they came from.
func (l *lot) ecrireNoms(ctx context.Context) error {
	for _, licence := range l.ordreNoms {
		n := l.noms[licence]
		if inscrit, ok := l.inscrits[licence]; ok && inscrit == [2]string{n.nom, n.club} {
			continue // the row holds them already
		}
		if err := l.q.Inserer(ctx, `INSERT INTO hist_joueurs (joueur, nom, club)`,
			`ON CONFLICT (joueur) DO UPDATE SET nom = excluded.nom, club = excluded.club`, licence, n.nom, n.club); err != nil {
			return err
		}
	}
	for _, licence := range l.ordreNoms {
		// An upsert changes le in its row; a replace would delete the row
		// and its key's index entry and write both again.
		if err := l.q.Inserer(ctx, `INSERT INTO hist_noms_importes (joueur, le)`, `ON CONFLICT (joueur) DO UPDATE SET le = excluded.le`,
			licence, l.noms[licence].le); err != nil {
			return err
		}
	}
	clear(l.noms)
	clear(l.inscrits)
	l.ordreNoms = l.ordreNoms[:0]
	return nil
}

// Resultat is a player's imported result in a duplicate game.
type Resultat struct {
	Score, Top, Rang int
}
