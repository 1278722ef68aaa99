package query

import (
	"slices"

	"arbitre/domain/duplicate"
)

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
// tables maps at least each licence the coup awaits to its table (one it
// lacks counts under table 0).
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
