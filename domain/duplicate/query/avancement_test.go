package query_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/duplicate"
	"arbitre/domain/duplicate/query"
	"arbitre/engine/correction"
)

// TestBulletinsParTable_AvancementDuCoup: the director sees, per table, the
// bulletins of the coup entered, corrected, missing and sent to the
// commission (§5.3.3, §6.3); a player arrived after the coup is not expected
// (§6.2).
func TestBulletinsParTable_AvancementDuCoup(t *testing.T) {
	p := duplicate.Nouvelle(nil)
	paye := correction.Decision{Paid: 14}
	for _, e := range []any{
		duplicate.PartieCreee{Partie: "p1", Config: duplicate.Config{TempsParCoup: 3 * time.Minute}, Joueurs: []string{"L1", "L2", "L3", "L4", "L5"}},
		duplicate.TirageEffectue{Coup: 1, Tirees: "ABCDEFG"},
		duplicate.JoueurArrive{Licence: "L6", PremierCoup: 2},
		duplicate.BulletinDepose{Coup: 1, Licence: "L1", Table: 1},
		duplicate.BulletinDepose{Coup: 1, Licence: "L2", Table: 1},
		duplicate.BulletinDepose{Coup: 1, Licence: "L3", Table: 2},
		duplicate.TopRetenu{Coup: 1, Ref: "H8", Mot: "BAC", Score: 14, Placees: "BAC"},
		duplicate.BulletinCorrige{Coup: 1, Licence: "L1", Moteur: &paye},
		duplicate.RenvoiCommission{Coup: 1, Licence: "L2", Motif: "mot contesté"},
	} {
		require.NoError(t, p.Apply(e))
	}
	tables := map[string]int{"L1": 1, "L2": 1, "L3": 2, "L4": 2, "L6": 2}
	assert.Equal(t, []query.TableBulletins{
		{Table: 0, Joueurs: 1, Manquants: 1},
		{Table: 1, Joueurs: 2, Saisis: 2, Corriges: 1, Renvoyes: 1},
		{Table: 2, Joueurs: 2, Saisis: 1, Manquants: 1},
	}, query.BulletinsParTable(p, 1, tables))
}
