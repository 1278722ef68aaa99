package pairing

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestKingOfTheHill(t *testing.T) {
	players := []Player{
		{ID: "a", MatchPoints: 12, Starts: 2}, {ID: "b", MatchPoints: 10, Starts: 1},
		{ID: "c", MatchPoints: 9, Starts: 1}, {ID: "d", MatchPoints: 8, Starts: 2},
		{ID: "e", MatchPoints: 5, Starts: 2},
	}
	history := []Meeting{
		{Round: 1, First: "a", Second: "b"}, {Round: 1, First: "c", Second: "d"},
		{Round: 2, First: "a", Second: "e"}, {Round: 2, First: "b", Second: "c"},
		{Round: 3, First: "d", Second: "a"}, {Round: 3, First: "e", Second: "c"},
		{Round: 4, First: "e", Second: "b"}, {Round: 4, First: "d", Second: "c"},
	}
	tests := []struct {
		name         string
		avoidRepeats bool
		tables       []Table
	}{
		{
			name:   "strict 1v2 3v4; the player with fewer starts starts (§3.1)",
			tables: []Table{{Number: 1, First: "b", Second: "a"}, {Number: 2, First: "c", Second: "d"}},
		},
		{
			name:         "avoiding repeats: a has met b and d, so meets c",
			avoidRepeats: true,
			tables:       []Table{{Number: 1, First: "c", Second: "a"}, {Number: 2, First: "b", Second: "d"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Propose(Request{Round: 5, Method: KingOfTheHill, Players: players, History: history, KingOfTheHillAvoidsRepeats: tt.avoidRepeats})
			require.NoError(t, err)
			assert.Equal(t, tt.tables, p.Tables)
			assert.Equal(t, PlayerID("e"), p.Bye)
		})
	}
}
