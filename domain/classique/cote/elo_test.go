package cote

import (
	"arbitre/domain/erreur"
	"fmt"
	"math/rand"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestExpectedScore(t *testing.T) {
	e := DefaultElo()
	tests := []struct {
		a, b int
		want float64
	}{
		{1000, 1000, 0.5},
		{1400, 1000, 1 / (1 + 0.1)},
		{1000, 1400, 1 / (1 + 10.0)},
		{2000, 1000, 1 / (1 + 0.1)}, // gap capped at 400
		{1200, 1000, 1 / (1 + 1/3.1622776601683795)},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d v %d", tt.a, tt.b), func(t *testing.T) {
			assert.InDelta(t, tt.want, e.Expected(tt.a, tt.b), 1e-9)
			assert.InDelta(t, 1, e.Expected(tt.a, tt.b)+e.Expected(tt.b, tt.a), 1e-12, "symmetry")
		})
	}
}

func TestRateOneGame(t *testing.T) {
	e := DefaultElo()
	ratings, err := e.Rate(map[PlayerID]int{"ana": 1200, "bob": 1000}, []Game{{First: "bob", Second: "ana", Outcome: FirstWins}})
	require.NoError(t, err)
	require.Len(t, ratings, 2)
	ana, bob := ratings[0], ratings[1]
	assert.Equal(t, PlayerID("ana"), ana.Player)
	assert.InDelta(t, 0.7597, ana.Expected, 1e-4)
	assert.InDelta(t, -20*0.7597, ana.Delta, 1e-2)
	assert.Equal(t, 1185, ana.After)
	assert.Equal(t, 1015, bob.After)
	assert.InDelta(t, 0, ana.Delta+bob.Delta, 1e-9, "zero-sum")
}

func TestNewPlayersStartAt600WithTheirOwnK(t *testing.T) {
	e := DefaultElo()
	ratings, err := e.Rate(map[PlayerID]int{"old": 600}, []Game{{First: "new", Second: "old", Outcome: Draw}, {First: "new", Second: "old", Outcome: FirstWins}})
	require.NoError(t, err)
	newcomer, old := ratings[0], ratings[1]
	assert.True(t, newcomer.New)
	assert.Equal(t, 600, newcomer.Before)
	assert.Equal(t, 2, newcomer.Games)
	assert.InDelta(t, 40*0.5, newcomer.Delta, 1e-9, "k_new applies")
	assert.InDelta(t, -20*0.5, old.Delta, 1e-9)
	assert.Equal(t, 620, newcomer.After)
	assert.Equal(t, 590, old.After)
}

func TestRateIsZeroSumWithEqualK(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	e := DefaultElo()
	before := map[PlayerID]int{}
	var ids []PlayerID
	for i := range 30 {
		id := PlayerID(fmt.Sprintf("p%02d", i))
		ids = append(ids, id)
		before[id] = 300 + rng.Intn(1800)
	}
	var games []Game
	for range 200 {
		a, b := ids[rng.Intn(len(ids))], ids[rng.Intn(len(ids))]
		if a != b {
			games = append(games, Game{First: a, Second: b, Outcome: Outcome(1 + rng.Intn(3))})
		}
	}
	ratings, err := e.Rate(before, games)
	require.NoError(t, err)
	var sum float64
	for _, r := range ratings {
		sum += r.Delta
	}
	assert.InDelta(t, 0, sum, 1e-9)
}

func TestFloorKeepsCotesPositive(t *testing.T) {
	e := DefaultElo()
	var games []Game
	for range 20 {
		games = append(games, Game{First: "weak", Second: "strong", Outcome: SecondWins})
	}
	ratings, err := e.Rate(map[PlayerID]int{"weak": 150, "strong": 150}, games)
	require.NoError(t, err)
	assert.Equal(t, 100, ratings[1].After, "weak stops at the floor")
}

func TestPolicyIdentityAndParameters(t *testing.T) {
	var p Policy = DefaultElo()
	assert.Equal(t, "arbitre-elo", p.Name())
	assert.Equal(t, "1", p.Version())
	names := []string{}
	for _, param := range p.Parameters() {
		names = append(names, param.Name+"="+param.Value)
	}
	assert.Equal(t, []string{"initial=600", "scale=400", "k=20", "k_new=40", "difference_cap=400", "floor=100"}, names)
}

func TestRateRejectsBadInput(t *testing.T) {
	tests := []struct {
		name   string
		policy Elo
		games  []Game
		code   Code
	}{
		{"empty id", DefaultElo(), []Game{{First: "", Second: "b", Outcome: Draw}}, CodeEmptyPlayerID},
		{"self game", DefaultElo(), []Game{{First: "a", Second: "a", Outcome: Draw}}, CodeSelfGame},
		{"unknown outcome", DefaultElo(), []Game{{First: "a", Second: "b"}}, CodeUnknownOutcome},
		{"bad parameters", Elo{Scale: 400}, nil, CodeInvalidParameters},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.policy.Rate(nil, tt.games)
			assert.Equal(t, tt.code, erreur.CodeOf(err))
		})
	}
}
