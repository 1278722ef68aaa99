package standings

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"maps"
	"slices"
	"strconv"

	"arbitre/engine/correction"
	"arbitre/projections/projection"
)

// The decisions in force are kept one row per game and player, the
// player's decisions of every coup in one JSON array ordered by coup: the
// 532,000 decisions of a 1,000-player, 23-game tournament are 23,000 rows,
// which a rebuild writes in a fraction of the time 532,000 rows took
// (issue 16, item 10). The JSON is stored as a BLOB: bound as bytes, the
// rows go as a multi-row VALUES (projection.Requetes), which costs less
// than escaping JSON inside the JSON array of json_each. Reading gives the
// decisions back in the order of the former rows (coup, then licence).
const schemaDecisions = `CREATE TABLE IF NOT EXISTS standings_decisions (
	partie    TEXT NOT NULL,
	licence   TEXT NOT NULL,
	decisions BLOB NOT NULL,
	PRIMARY KEY (partie, licence)
)`

const (
	sqlDecisions = `INSERT INTO standings_decisions (partie, licence, decisions) VALUES (?, ?, ?)
			ON CONFLICT (partie, licence) DO UPDATE SET decisions = excluded.decisions`
	sqlSansDecision = `DELETE FROM standings_decisions WHERE partie = ? AND licence = ?`
)

// decisionsJoueur are a player's decisions in force in one game, by coup.
type decisionsJoueur map[int]decisionRetenue

// decisionJSON is one decision of a row, under short keys (a row holds a
// player's decisions of a whole game). The usual values are left out: the
// sanction when it is none, the reasons when there are none ([]); rows
// written before with them read the same.
type decisionJSON struct {
	Coup       int                  `json:"c"`
	Paid       int                  `json:"p"`
	Sanction   *correction.Sanction `json:"s,omitempty"`
	Discipline int                  `json:"d,omitempty"`
	AverageCap int                  `json:"a,omitempty"`
	Raisons    json.RawMessage      `json:"r,omitempty"`
}

// sansRaisons is the reasons of a decision that has none, as a row keeps
// them; a row leaves them out.
const sansRaisons = `[]`

// encoder is the row's decisions column: the JSON of []decisionJSON in
// coup order, appended by hand (json.Marshal took a third of the write).
func (d decisionsJoueur) encoder() []byte {
	b := make([]byte, 0, 24*len(d))
	b = append(b, '[')
	for i, coup := range slices.Sorted(maps.Keys(d)) {
		r := d[coup]
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(append(b, `{"c":`...), int64(coup), 10)
		b = strconv.AppendInt(append(b, `,"p":`...), int64(r.paid), 10)
		if r.sanction != correction.None {
			b = projection.AppendChaineJSON(append(b, `,"s":`...), string(r.sanction))
		}
		if r.discipline != 0 {
			b = strconv.AppendInt(append(b, `,"d":`...), int64(r.discipline), 10)
		}
		if r.averageCap != 0 {
			b = strconv.AppendInt(append(b, `,"a":`...), int64(r.averageCap), 10)
		}
		if r.raisons != sansRaisons {
			b = append(append(b, `,"r":`...), r.raisons...)
		}
		b = append(b, '}')
	}
	return append(b, ']')
}

// decoderDecisions reads a row's decisions column.
func decoderDecisions(data string) (decisionsJoueur, error) {
	var in []decisionJSON
	if err := json.Unmarshal([]byte(data), &in); err != nil {
		return nil, err
	}
	d := make(decisionsJoueur, len(in))
	for _, r := range in {
		retenue := decisionRetenue{paid: r.Paid, sanction: correction.None, discipline: r.Discipline, averageCap: r.AverageCap, raisons: sansRaisons}
		if r.Sanction != nil {
			retenue.sanction = *r.Sanction
		}
		if r.Raisons != nil {
			retenue.raisons = string(r.Raisons)
		}
		d[r.Coup] = retenue
	}
	return d, nil
}

// sansCoup removes the decisions of coup from each player's (an annulled
// coup) and says which players it changed.
func sansCoup(joueurs map[string]decisionsJoueur, coup int) []string {
	var changes []string
	for licence, d := range joueurs {
		if _, ok := d[coup]; ok {
			delete(d, coup)
			changes = append(changes, licence)
		}
	}
	return changes
}

// ecrireDecisions writes the row of player licence in game partie: its
// decisions, or no row when none is left.
func ecrireDecisions(w enSQL, partie, licence string, d decisionsJoueur) error {
	if len(d) == 0 {
		return w.exec(sqlSansDecision, partie, licence)
	}
	return w.exec(sqlDecisions, partie, licence, d.encoder())
}

// enCours are the rows of decisions a batch of the live path changes: read
// once from the table when first needed, changed in memory, written at the
// end of the batch (ecrire).
type enCours struct {
	tx       *sql.Tx
	parties  map[string]map[string]decisionsJoueur // partie → licence → decisions
	entieres map[string]bool                       // games whose every row was read
	changes  map[[2]string]bool                    // partie, licence
}

func nouveauxEnCours(tx *sql.Tx) *enCours {
	return &enCours{tx: tx, parties: map[string]map[string]decisionsJoueur{}, entieres: map[string]bool{}, changes: map[[2]string]bool{}}
}

// lignes reads the rows of game partie, of player licence only when
// licence is not "", that the batch has not read yet.
func (c *enCours) lignes(ctx context.Context, partie, licence string) (map[string]decisionsJoueur, error) {
	joueurs := c.parties[partie]
	if joueurs == nil {
		joueurs = map[string]decisionsJoueur{}
		c.parties[partie] = joueurs
	}
	if _, lu := joueurs[licence]; c.entieres[partie] || (licence != "" && lu) {
		if licence != "" && !lu { // a player without any row yet in a game read whole
			joueurs[licence] = decisionsJoueur{}
		}
		return joueurs, nil
	}
	q, args := `SELECT licence, decisions FROM standings_decisions WHERE partie = ?`, []any{partie}
	if licence != "" {
		q, args = q+` AND licence = ?`, append(args, licence)
	} else {
		c.entieres[partie] = true
	}
	rows, err := c.tx.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var l, data string
		if err := rows.Scan(&l, &data); err != nil {
			return nil, err
		}
		if _, lu := joueurs[l]; lu {
			continue // the batch changed it since
		}
		if joueurs[l], err = decoderDecisions(data); err != nil {
			return nil, err
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if _, lu := joueurs[licence]; licence != "" && !lu {
		joueurs[licence] = decisionsJoueur{}
	}
	return joueurs, nil
}

func (c *enCours) decision(ctx context.Context, partie string, coup int, licence string, d decisionRetenue) error {
	joueurs, err := c.lignes(ctx, partie, licence)
	if err != nil {
		return err
	}
	joueurs[licence][coup] = d
	c.changes[[2]string{partie, licence}] = true
	return nil
}

func (c *enCours) annuler(ctx context.Context, partie string, coup int) error {
	joueurs, err := c.lignes(ctx, partie, "")
	if err != nil {
		return err
	}
	for _, licence := range sansCoup(joueurs, coup) {
		c.changes[[2]string{partie, licence}] = true
	}
	return nil
}

// ecrire writes the rows the batch changed.
func (c *enCours) ecrire(w enSQL) error {
	for _, k := range slices.SortedFunc(maps.Keys(c.changes), func(a, b [2]string) int {
		return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1]))
	}) {
		if err := ecrireDecisions(w, k[0], k[1], c.parties[k[0]][k[1]]); err != nil {
			return err
		}
	}
	return nil
}

// decisionLue is a decision read back from the table, with its coup and
// player.
type decisionLue struct {
	coup    int
	licence string
	d       decisionRetenue
}

// lireDecisions returns the decisions of game partie in the order of coup,
// then licence.
func lireDecisions(ctx context.Context, db *sql.DB, partie string) ([]decisionLue, error) {
	var out []decisionLue
	err := lire(ctx, db, `SELECT licence, decisions FROM standings_decisions WHERE partie = ?`, []any{partie}, func(rows *sql.Rows) error {
		var licence, data string
		if err := rows.Scan(&licence, &data); err != nil {
			return err
		}
		d, err := decoderDecisions(data)
		for coup, r := range d {
			out = append(out, decisionLue{coup: coup, licence: licence, d: r})
		}
		return err
	})
	slices.SortFunc(out, func(a, b decisionLue) int {
		return parCoupLicence(coupLicence{a.coup, a.licence}, coupLicence{b.coup, b.licence})
	})
	return out, err
}
