package pairing

import (
	"arbitre/domain/erreur"
	"math/rand"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The Swiss proposal is an exact optimum of the documented cost: on small
// random fields it matches brute force over every possible pairing.
func TestSwissIsOptimalAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	for trial := range 150 {
		s := newSimulation(rng, 2+rng.Intn(10))
		rounds := 1 + rng.Intn(len(s.players))
		for round := 1; round <= rounds; round++ {
			req := s.request(round, Swiss)
			p, err := Propose(req)
			if erreur.CodeOf(err) == CodeNoByeCandidate {
				break
			}
			require.NoError(t, err)
			sr := newSwissRound(t, req)
			f := sr.f
			edgeWeight := func(v, w int) (int64, bool) {
				allowed := !f.hasBye || max(v, w) != f.byeVertex() || f.canHaveBye(min(v, w))
				return sr.weights.weight(sr.cost(v, w)), allowed
			}
			vertices := make([]int, f.vertices())
			for v := range vertices {
				vertices[v] = v
			}
			best := int64(-1)
			allPerfectMatchings(vertices, func(pairs [][2]int) {
				var total int64
				for _, pair := range pairs {
					w, ok := edgeWeight(pair[0], pair[1])
					if !ok {
						return
					}
					total += w
				}
				best = max(best, total)
			})
			got := sr.of(p).Weight
			require.Equal(t, best, got, "trial %d round %d", trial, round)
			s.record(round, p)
		}
	}
}

func TestSwissIsDeterministicWhateverTheInputOrder(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	s := newSimulation(rng, 41)
	for round := 1; round <= 4; round++ {
		p, err := Propose(s.request(round, Swiss))
		require.NoError(t, err)
		s.record(round, p)
	}
	req := s.request(5, Swiss)
	want, err := Propose(req)
	require.NoError(t, err)
	for range 5 {
		shuffled := req
		shuffled.Players = append([]Player(nil), req.Players...)
		shuffled.History = append([]Meeting(nil), req.History...)
		rng.Shuffle(len(shuffled.Players), func(i, j int) {
			shuffled.Players[i], shuffled.Players[j] = shuffled.Players[j], shuffled.Players[i]
		})
		rng.Shuffle(len(shuffled.History), func(i, j int) {
			shuffled.History[i], shuffled.History[j] = shuffled.History[j], shuffled.History[i]
		})
		got, err := Propose(shuffled)
		require.NoError(t, err)
		assert.Equal(t, want, got)
	}
}

func TestSwissPairsWithinScoreGroupsTopHalfAgainstBottomHalf(t *testing.T) {
	players := []Player{
		{ID: "a", MatchPoints: 6, Spread: 90}, {ID: "b", MatchPoints: 6, Spread: 80},
		{ID: "c", MatchPoints: 6, Spread: 70}, {ID: "d", MatchPoints: 6, Spread: 60},
		{ID: "e", MatchPoints: 4, Spread: 10}, {ID: "f", MatchPoints: 4, Spread: 0},
	}
	p, err := Propose(Request{Round: 3, Method: Swiss, Players: players})
	require.NoError(t, err)
	assert.Equal(t, []Table{
		{Number: 1, First: "a", Second: "c"},
		{Number: 2, First: "d", Second: "b"},
		{Number: 3, First: "e", Second: "f"},
	}, p.Tables)
}

func TestSwissByeGoesToLowestRankedPlayerWithoutBye(t *testing.T) {
	players := []Player{
		{ID: "a", MatchPoints: 3}, {ID: "b", MatchPoints: 3}, {ID: "c", MatchPoints: 1},
		{ID: "d", MatchPoints: 1, Spread: 5}, {ID: "e", MatchPoints: 1, HadBye: true},
	}
	p, err := Propose(Request{Round: 2, Method: Swiss, Players: players})
	require.NoError(t, err)
	assert.Equal(t, PlayerID("c"), p.Bye, "e is last but already had the bye")
}

func TestSwissFloatsTheLowestOfTheUpperGroup(t *testing.T) {
	players := []Player{
		{ID: "a", MatchPoints: 9, Spread: 30}, {ID: "b", MatchPoints: 9, Spread: 20},
		{ID: "c", MatchPoints: 9, Spread: 10}, {ID: "d", MatchPoints: 7, Spread: 50},
		{ID: "e", MatchPoints: 7, Spread: 40}, {ID: "f", MatchPoints: 7, Spread: 30},
	}
	p, err := Propose(Request{Round: 4, Method: Swiss, Players: players})
	require.NoError(t, err)
	require.Len(t, p.Tables, 3)
	assert.ElementsMatch(t, []PlayerID{"c", "d"}, []PlayerID{p.Tables[1].First, p.Tables[1].Second}, "c floats down to meet d")
}
