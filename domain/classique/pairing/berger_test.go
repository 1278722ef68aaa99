package pairing

import (
	"arbitre/domain/erreur"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func registered(n int) []Player {
	players := make([]Player, n)
	for i := range players {
		players[i] = Player{ID: PlayerID(fmt.Sprintf("p%02d", i)), Cote: 2000 - 10*i}
	}
	return players
}

// Over a Berger cycle every pair meets exactly once, everybody plays (or has
// the bye) once per round, each player has at most one bye, and starts are
// balanced within one (§3.1).
func TestRoundRobinBergerCycle(t *testing.T) {
	for n := 1; n <= 14; n++ {
		t.Run(fmt.Sprintf("%d players", n), func(t *testing.T) {
			players := registered(n)
			rounds := n - 1
			if n%2 == 1 {
				rounds = n
			}
			met := map[[2]PlayerID]int{}
			starts, games, byes := map[PlayerID]int{}, map[PlayerID]int{}, map[PlayerID]int{}
			for round := 1; round <= rounds; round++ {
				p, err := Propose(Request{Round: round, Method: RoundRobin, Players: players})
				require.NoError(t, err)
				seen := map[PlayerID]bool{}
				for _, table := range p.Tables {
					a, b := min(table.First, table.Second), max(table.First, table.Second)
					met[[2]PlayerID{a, b}]++
					starts[table.First]++
					games[table.First]++
					games[table.Second]++
					seen[table.First], seen[table.Second] = true, true
				}
				if p.Bye != "" {
					byes[p.Bye]++
					seen[p.Bye] = true
				}
				assert.Len(t, seen, n, "round %d: everybody once", round)
			}
			for i := range players {
				for j := i + 1; j < n; j++ {
					assert.Equal(t, 1, met[[2]PlayerID{players[i].ID, players[j].ID}], "%s v %s", players[i].ID, players[j].ID)
				}
				id := players[i].ID
				assert.LessOrEqual(t, byes[id], 1)
				assert.LessOrEqual(t, abs(2*starts[id]-games[id]), 1, "§3.1 %s starts %d of %d", id, starts[id], games[id])
			}
			_, err := Propose(Request{Round: rounds + 1, Method: RoundRobin, Players: players})
			assert.Equal(t, CodeRoundOutOfRange, erreur.CodeOf(err))
		})
	}
}

func TestRoundRobinStandardBergerTableForSix(t *testing.T) {
	want := [][]Table{
		{{1, "p00", "p05"}, {2, "p01", "p04"}, {3, "p02", "p03"}},
		{{1, "p05", "p03"}, {2, "p04", "p02"}, {3, "p00", "p01"}},
		{{1, "p01", "p05"}, {2, "p02", "p00"}, {3, "p03", "p04"}},
		{{1, "p05", "p04"}, {2, "p00", "p03"}, {3, "p01", "p02"}},
		{{1, "p02", "p05"}, {2, "p03", "p01"}, {3, "p04", "p00"}},
	}
	for round, tables := range want {
		p, err := Propose(Request{Round: round + 1, Method: RoundRobin, Players: registered(6)})
		require.NoError(t, err)
		assert.Equal(t, tables, p.Tables, "round %d", round+1)
	}
}

func TestRoundRobinKeepsScheduleWhenAPlayerWithdraws(t *testing.T) {
	players := registered(4)
	players[3].Withdrawn = true
	p, err := Propose(Request{Round: 1, Method: RoundRobin, Players: players})
	require.NoError(t, err)
	assert.Equal(t, []Table{{Number: 1, First: "p01", Second: "p02"}}, p.Tables)
	assert.Equal(t, []PlayerID{"p00"}, p.OpponentWithdrawn)
}
