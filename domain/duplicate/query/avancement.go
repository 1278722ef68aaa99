package query

import (
	"slices"

	"arbitre/domain/duplicate"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
)

// DernierTop is the last top announced, for the displays: word (jokers in
// lower case), reference, score and the squares it covers.
type DernierTop struct {
	Coup  int              `json:"coup"`
	Mot   string           `json:"mot"`
	Ref   string           `json:"ref"`
	Score int              `json:"score"`
	Cases []duplicate.Case `json:"cases"`
}

// Avancement is a game's progress for the public displays.
type Avancement struct {
	Partie string           `json:"partie"`
	Statut duplicate.Statut `json:"statut"`
	// Coup is the coup being played, or the last one topped between coups
	// (0 before the first tirage).
	Coup int `json:"coup"`
	// Reliquat and Tirees are the announced tirage of the coup being
	// played (§3.1), empty between coups.
	Reliquat string `json:"reliquat,omitempty"`
	Tirees   string `json:"tirees,omitempty"`
	// CumulTops is the sum of the tops so far.
	CumulTops int                       `json:"cumulTops"`
	Top       *DernierTop               `json:"top,omitempty"`
	Fin       *duplicate.PartieTerminee `json:"fin,omitempty"`
}

// LireAvancement folds a game's events into its progress. It never calls
// the engine.
func LireAvancement(evts []eventstore.Event, registre *eventstore.Registry) (Avancement, error) {
	p := duplicate.Nouvelle(nil)
	for _, e := range evts {
		payload, err := registre.Decode(e)
		if err != nil {
			return Avancement{}, err
		}
		if err := p.Apply(payload); err != nil {
			return Avancement{}, err
		}
	}
	a := Avancement{Partie: p.ID(), Statut: p.Statut(), Fin: p.Fin()}
	if p.Statut() == "" {
		return Avancement{}, erreur.Refus(duplicate.CodeNotFound, "la partie n'existe pas")
	}
	dernier := 0
	for c := 1; c < p.ProchainCoup(); c++ {
		if t, ok := p.Top(c); ok {
			a.CumulTops += t.Score
			dernier = c
		}
	}
	a.Coup = dernier
	if p.Statut() == duplicate.StatutTirage {
		a.Coup = p.ProchainCoup()
		a.Reliquat, a.Tirees = p.TirageEnCours()
	}
	if t, ok := p.Top(dernier); ok {
		a.Top = &DernierTop{Coup: dernier, Mot: t.Mot, Ref: t.Ref, Score: t.Score, Cases: p.CasesDuTop(dernier)}
	}
	return a, nil
}

// TableBulletins is where a coup's bulletins stand at one table, for the
// director deciding when the coup can be closed (issue 14): players expected,
// bulletins entered, corrected, missing, sent to the commission. Table 0
// holds the players registered without a table.
type TableBulletins struct {
	Table     int
	Joueurs   int
	Saisis    int
	Corriges  int
	Manquants int
	Renvoyes  int
}

// BulletinsParTable counts a coup's bulletins per table, tables in order;
// tables maps each licence to its table.
func BulletinsParTable(p *duplicate.Partie, coup int, tables map[string]int) []TableBulletins {
	parTable := map[int]*TableBulletins{}
	var out []TableBulletins
	for _, l := range p.Attendus(coup) {
		n := tables[l]
		t := parTable[n]
		if t == nil {
			t = &TableBulletins{Table: n}
			parTable[n] = t
		}
		t.Joueurs++
		if _, ok := p.Depose(coup, l); !ok {
			t.Manquants++
			continue
		}
		t.Saisis++
		if _, ok := p.Decision(coup, l); ok {
			t.Corriges++
		}
		if p.Renvoye(coup, l) {
			t.Renvoyes++
		}
	}
	for _, t := range parTable {
		out = append(out, *t)
	}
	slices.SortFunc(out, func(a, b TableBulletins) int { return a.Table - b.Table })
	return out
}
