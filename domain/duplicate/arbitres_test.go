package duplicate

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCreer_Paragraphe5_9_ArbitresDesTables: the game records the tables
// each arbiter covers, whose players a §5.9 average is taken over; a table
// under two arbiters, an arbiter without a name or a table, a table below 1
// are refused and create nothing.
func TestCreer_Paragraphe5_9_ArbitresDesTables(t *testing.T) {
	cfg := Config{TempsParCoup: 3 * time.Minute}
	tests := []struct {
		name     string
		arbitres []ArbitreTables
		refus    bool
	}{
		{"aucun arbitre nommé : la moyenne sur la partie", nil, false},
		{"deux arbitres, deux tables chacun", []ArbitreTables{{"A", []int{1, 2}}, {"B", []int{3, 4}}}, false},
		{"une table sous deux arbitres", []ArbitreTables{{"A", []int{1, 2}}, {"B", []int{2, 3}}}, true},
		{"un arbitre sans nom", []ArbitreTables{{"", []int{1}}}, true},
		{"un arbitre sans table", []ArbitreTables{{"A", nil}}, true},
		{"une table 0", []ArbitreTables{{"A", []int{0, 1}}}, true},
		{"une table nommée deux fois", []ArbitreTables{{"A", []int{1, 1}}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Nouvelle(fixe(t))
			err := p.CreerSurLexique(nil, "p1", "t1", 1, cfg, []string{"L1", "L2"}, tt.arbitres)
			if tt.refus {
				assert.ErrorIs(t, err, ErrInvalidConfig)
				assert.Zero(t, p.Version())
				assert.Empty(t, p.Pending())
				return
			}
			require.NoError(t, err)
			require.Len(t, p.Pending(), 1)
			assert.Equal(t, tt.arbitres, p.Pending()[0].(PartieCreee).Arbitres)
		})
	}
}
