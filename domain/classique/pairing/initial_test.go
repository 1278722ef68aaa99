package pairing

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestInitialRoundTopHalfAgainstBottomHalf(t *testing.T) {
	tests := []struct {
		name   string
		cotes  []int
		tables []Table
		bye    PlayerID
	}{
		{
			name:  "even field, starts alternate down the room (§3.1)",
			cotes: []int{1500, 1900, 700, 1200, 1000, 1700},
			tables: []Table{
				{Number: 1, First: "p1", Second: "p3"},
				{Number: 2, First: "p4", Second: "p5"},
				{Number: 3, First: "p0", Second: "p2"},
			},
		},
		{
			name:   "odd field, lowest cote gets the bye",
			cotes:  []int{1500, 900, 1100},
			tables: []Table{{Number: 1, First: "p0", Second: "p2"}},
			bye:    "p1",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var players []Player
			for i, c := range tt.cotes {
				players = append(players, Player{ID: PlayerID("p" + string(rune('0'+i))), Cote: c})
			}
			p, err := Propose(Request{Round: 1, Method: InitialByCote, Players: players})
			require.NoError(t, err)
			assert.Equal(t, tt.tables, p.Tables)
			assert.Equal(t, tt.bye, p.Bye)
		})
	}
}
