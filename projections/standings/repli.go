package standings

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"arbitre/domain/duplicate"
	"arbitre/engine/correction"
	"arbitre/projections/projection"
)

// enMemoire holds the facts of a rebuild with the semantics of the
// statements of enSQL (an upsert replaces the row, DO NOTHING keeps the
// first, a plain INSERT of a key already there fails), and Write writes
// the final rows through enSQL itself, so both paths store the same values
// (issue 16, item 10).
type enMemoire struct {
	p          *Projection
	joueurs    map[string][2]string // licence → stream, joueur
	exclusions map[[2]string]string // tournoi, licence → exclusion
	parties    map[string]*faitsPartie
}

// faitsPartie are the facts of one game.
type faitsPartie struct {
	creee     bool
	position  uint64
	tournoi   string
	donnees   string
	fin       *string
	clos      bool
	arrivees  map[string]arrivee
	tops      map[int]int
	decisions map[string]decisionsJoueur // by licence
	toppings  map[coupLicence]int
	sanctions map[uint64]sanctionRetenue
}

type coupLicence struct {
	coup    int
	licence string
}

type arrivee struct {
	position    uint64
	premierCoup int
}

// decisionRetenue is what the decisions rows keep of a correction.Decision.
type decisionRetenue struct {
	paid, discipline, averageCap int
	sanction                     correction.Sanction
	raisons                      string
}

// retenue is what the rows keep of d, raisons being d.Reasons in JSON.
func retenue(d correction.Decision, raisons string) decisionRetenue {
	return decisionRetenue{paid: d.Paid, discipline: d.DisciplineWarnings, averageCap: d.AverageCap, sanction: d.Sanction, raisons: raisons}
}

type sanctionRetenue struct {
	coup            int
	licence, nature string
}

// Add folds the fact e carries, if any (projection.Fold).
func (m *enMemoire) Add(_ context.Context, e projection.Decoded) error {
	return m.p.appliquer(m, e)
}

// UsesPayload tells whether events of type typ may carry a fact, as
// Projection.UsesPayload (projection.PayloadUser).
func (m *enMemoire) UsesPayload(typ string) bool { return m.p.UsesPayload(typ) }

func (m *enMemoire) de(partie string) *faitsPartie {
	f := m.parties[partie]
	if f == nil {
		f = &faitsPartie{arrivees: map[string]arrivee{}, tops: map[int]int{}, decisions: map[string]decisionsJoueur{},
			toppings: map[coupLicence]int{}, sanctions: map[uint64]sanctionRetenue{}}
		m.parties[partie] = f
	}
	return f
}

// deja is the error of a plain INSERT of a key already there.
func deja(table string, cle ...any) error {
	return fmt.Errorf("%s: la ligne %v existe déjà", table, cle)
}

func (m *enMemoire) decision(partie string, coup int, licence string, d correction.Decision, raisons string) error {
	f := m.de(partie)
	j := f.decisions[licence]
	if j == nil {
		j = decisionsJoueur{}
		f.decisions[licence] = j
	}
	j[coup] = retenue(d, raisons)
	return nil
}

func (m *enMemoire) joueur(licence, stream, joueur string) error {
	m.joueurs[licence] = [2]string{stream, joueur}
	return nil
}

func (m *enMemoire) exclusion(tournoi, licence, exclusion string) error {
	m.exclusions[[2]string{tournoi, licence}] = exclusion
	return nil
}

func (m *enMemoire) partie(partie string, position uint64, tournoi, creee string) error {
	f := m.de(partie)
	if f.creee {
		return deja("standings_parties", partie)
	}
	f.creee, f.position, f.tournoi, f.donnees = true, position, tournoi, creee
	return nil
}

func (m *enMemoire) arrivee(partie, licence string, position uint64, premierCoup int) error {
	f := m.de(partie)
	if _, ok := f.arrivees[licence]; ok {
		return deja("standings_arrivees", partie, licence)
	}
	f.arrivees[licence] = arrivee{position, premierCoup}
	return nil
}

func (m *enMemoire) retrait(partie, licence string) error {
	delete(m.de(partie).arrivees, licence)
	return nil
}

func (m *enMemoire) top(partie string, coup, score int) error {
	m.de(partie).tops[coup] = score
	return nil
}

func (m *enMemoire) topping(partie string, coup int, licence string, secondes int) error {
	f := m.de(partie)
	if _, ok := f.toppings[coupLicence{coup, licence}]; ok {
		return deja("standings_toppings", partie, coup, licence)
	}
	f.toppings[coupLicence{coup, licence}] = secondes
	return nil
}

func (m *enMemoire) sanction(partie string, position uint64, coup int, licence, nature string) error {
	f := m.de(partie)
	if _, ok := f.sanctions[position]; !ok {
		f.sanctions[position] = sanctionRetenue{coup, licence, nature}
	}
	return nil
}

func (m *enMemoire) annuler(partie string, coup int) error {
	f := m.de(partie)
	delete(f.tops, coup)
	dansLeCoup := func(k coupLicence) bool { return k.coup == coup }
	sansCoup(f.decisions, coup)
	maps.DeleteFunc(f.toppings, func(k coupLicence, _ int) bool { return dansLeCoup(k) })
	maps.DeleteFunc(f.sanctions, func(_ uint64, s sanctionRetenue) bool {
		return s.coup == coup && s.nature != string(duplicate.SanctionExclusion)
	})
	return nil
}

func (m *enMemoire) fin(partie, fin string) error {
	if f := m.parties[partie]; f != nil && f.creee {
		f.fin = &fin
	}
	return nil
}

func (m *enMemoire) clore(partie string) error {
	m.de(partie).clos = true
	return nil
}

func (m *enMemoire) rouvrir(partie string, e duplicate.EliminationsAnnulees) error {
	f := m.parties[partie]
	if f == nil || f.fin == nil {
		return nil
	}
	var fin duplicate.PartieTerminee
	if err := json.Unmarshal([]byte(*f.fin), &fin); err != nil {
		return err
	}
	if Rouverte(&fin, e) {
		f.fin = nil
	}
	return nil
}

func parCoupLicence(a, b coupLicence) int {
	return cmp.Or(cmp.Compare(a.coup, b.coup), cmp.Compare(a.licence, b.licence))
}

// Write writes every final row through enSQL, in key order
// (projection.Fold).
func (m *enMemoire) Write(ctx context.Context, tx *sql.Tx) error {
	w := enSQL{ctx: ctx, q: projection.NewRequetes(tx)}
	for _, licence := range slices.Sorted(maps.Keys(m.joueurs)) {
		j := m.joueurs[licence]
		if err := w.joueur(licence, j[0], j[1]); err != nil {
			return err
		}
	}
	for _, k := range slices.SortedFunc(maps.Keys(m.exclusions), func(a, b [2]string) int {
		return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1]))
	}) {
		if err := w.exclusion(k[0], k[1], m.exclusions[k]); err != nil {
			return err
		}
	}
	// The decisions' rows, most of the bytes written, are encoded on
	// another core, a game ahead of the rows written (a quarter of the
	// write's CPU).
	ids := slices.Sorted(maps.Keys(m.parties))
	lignes := make(chan []ligneDecisions, 1)
	go func() {
		defer close(lignes)
		for _, id := range ids {
			lignes <- m.parties[id].lignesDecisions()
		}
	}()
	defer func() {
		for range lignes {
		}
	}()
	for _, id := range ids {
		if err := m.parties[id].ecrire(w, id, <-lignes); err != nil {
			return err
		}
	}
	return w.q.Fin(ctx)
}

// ligneDecisions is the decisions column of a player's row.
type ligneDecisions struct {
	licence   string
	decisions []byte
}

// lignesDecisions are the rows of the players who have decisions, in
// licence order.
func (f *faitsPartie) lignesDecisions() []ligneDecisions {
	var out []ligneDecisions
	for _, licence := range slices.Sorted(maps.Keys(f.decisions)) {
		if d := f.decisions[licence]; len(d) > 0 {
			out = append(out, ligneDecisions{licence: licence, decisions: d.encoder()})
		}
	}
	return out
}

// ecrire writes the rows of game id, decisions its rows of decisions.
func (f *faitsPartie) ecrire(w enSQL, id string, decisions []ligneDecisions) error {
	if f.creee {
		if err := w.partie(id, f.position, f.tournoi, f.donnees); err != nil {
			return err
		}
		if f.fin != nil {
			if err := w.fin(id, *f.fin); err != nil {
				return err
			}
		}
	}
	if f.clos {
		if err := w.clore(id); err != nil {
			return err
		}
	}
	for _, licence := range slices.Sorted(maps.Keys(f.arrivees)) {
		a := f.arrivees[licence]
		if err := w.arrivee(id, licence, a.position, a.premierCoup); err != nil {
			return err
		}
	}
	for _, coup := range slices.Sorted(maps.Keys(f.tops)) {
		if err := w.top(id, coup, f.tops[coup]); err != nil {
			return err
		}
	}
	for _, l := range decisions {
		if err := w.exec(sqlDecisions, id, l.licence, l.decisions); err != nil {
			return err
		}
	}
	for _, k := range slices.SortedFunc(maps.Keys(f.toppings), parCoupLicence) {
		if err := w.topping(id, k.coup, k.licence, f.toppings[k]); err != nil {
			return err
		}
	}
	for _, position := range slices.Sorted(maps.Keys(f.sanctions)) {
		s := f.sanctions[position]
		if err := w.sanction(id, position, s.coup, s.licence, s.nature); err != nil {
			return err
		}
	}
	return nil
}
