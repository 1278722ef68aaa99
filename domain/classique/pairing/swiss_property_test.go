package pairing

import (
	"arbitre/domain/erreur"
	"math/rand"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Properties of Swiss rounds over 200 random tournaments (2..60 players,
// 5..9 rounds, random results), checked round by round against the state
// before the round.
func TestSwissPropertiesOverRandomTournaments(t *testing.T) {
	rng := rand.New(rand.NewSource(20260601))
	for tournament := range 200 {
		size := 2 + rng.Intn(59)
		rounds := 5 + rng.Intn(5)
		s := newSimulation(rng, size)
		for round := 1; round <= rounds; round++ {
			req := s.request(round, Swiss)
			p, err := Propose(req)
			if erreur.CodeOf(err) == CodeNoByeCandidate {
				assert.Equal(t, round-1, size, "byes run out only when all %d players had one", size)
				break
			}
			require.NoError(t, err, "tournament %d round %d", tournament, round)
			check := newRoundCheck(t, req, p)
			check.everyPlayerOnce()
			check.byeRules()
			check.noAvoidableRepeat()
			check.scoreGroupsKept()
			s.record(round, p)
			check.startsWithinOneUnlessGroupsForbid(s.players, s.history)
		}
	}
}

type roundCheck struct {
	t      *testing.T
	req    Request
	p      Proposal
	r      *roster
	ranked []int
}

func newRoundCheck(t *testing.T, req Request, p Proposal) *roundCheck {
	r, err := newRoster(req)
	require.NoError(t, err)
	ranked := r.active()
	r.byStanding(ranked)
	return &roundCheck{t: t, req: req, p: p, r: r, ranked: ranked}
}

func (c *roundCheck) everyPlayerOnce() {
	var seen []PlayerID
	for _, table := range c.p.Tables {
		seen = append(seen, table.First, table.Second)
	}
	if c.p.Bye != "" {
		seen = append(seen, c.p.Bye)
	}
	var want []PlayerID
	for _, i := range c.ranked {
		want = append(want, c.r.players[i].ID)
	}
	require.NotEmpty(c.t, want, "round %d has active players", c.req.Round)
	assert.ElementsMatch(c.t, want, seen, "round %d: every active player exactly once", c.req.Round)
}

// byeRules: a bye only with an odd count, never to a player who had one.
func (c *roundCheck) byeRules() {
	assert.Equal(c.t, len(c.ranked)%2 == 1, c.p.Bye != "", "round %d: bye iff odd", c.req.Round)
	if c.p.Bye != "" {
		assert.False(c.t, c.r.players[c.r.index[c.p.Bye]].HadBye, "round %d: second bye for %s", c.req.Round, c.p.Bye)
	}
}

// vertices returns the field as matching vertices: roster indexes plus -1
// for the bye when the count is odd.
func (c *roundCheck) vertices() []int {
	v := slices.Clone(c.ranked)
	if len(v)%2 == 1 {
		v = append(v, -1)
	}
	return v
}

func (c *roundCheck) byeAllowed(a, b int) (allowed, isBye bool) {
	switch {
	case a == -1:
		return !c.r.players[b].HadBye, true
	case b == -1:
		return !c.r.players[a].HadBye, true
	}
	return false, false
}

// noAvoidableRepeat: a proposal with a repeat pairing is only acceptable if
// no repeat-free pairing exists.
func (c *roundCheck) noAvoidableRepeat() {
	repeats := 0
	for _, table := range c.p.Tables {
		if c.r.haveMet(c.r.index[table.First], c.r.index[table.Second]) {
			repeats++
		}
	}
	if repeats == 0 {
		return
	}
	avoidable := perfectMatchingExists(c.vertices(), func(a, b int) bool {
		if allowed, isBye := c.byeAllowed(a, b); isBye {
			return allowed
		}
		return !c.r.haveMet(a, b)
	})
	assert.False(c.t, avoidable, "round %d: repeat pairing although a repeat-free pairing exists", c.req.Round)
}

// scoreGroupsKept: when every score group (the bye joining the lowest group)
// can be paired inside itself without repeats, no table crosses groups.
func (c *roundCheck) scoreGroupsKept() {
	groups := map[int][]int{}
	lowest := c.r.players[c.ranked[len(c.ranked)-1]].MatchPoints
	for _, v := range c.vertices() {
		points := lowest
		if v != -1 {
			points = c.r.players[v].MatchPoints
		}
		groups[points] = append(groups[points], v)
	}
	for _, members := range groups {
		pairable := perfectMatchingExists(members, func(a, b int) bool {
			if allowed, isBye := c.byeAllowed(a, b); isBye {
				return allowed
			}
			return !c.r.haveMet(a, b)
		})
		if !pairable {
			return
		}
	}
	for _, table := range c.p.Tables {
		first, second := c.r.players[c.r.index[table.First]], c.r.players[c.r.index[table.Second]]
		assert.Equal(c.t, first.MatchPoints, second.MatchPoints, "round %d table %d crosses score groups needlessly", c.req.Round, table.Number)
	}
}

// startsWithinOneUnlessGroupsForbid (§3.1): after the round every player has
// started within one of half his games (|starts - seconds| <= 2), unless no
// pairing as good on repeats and score groups (which rank higher) could keep
// everyone within one; that is checked exactly with the oracle.
func (c *roundCheck) startsWithinOneUnlessGroupsForbid(players []Player, history []Meeting) {
	games := map[PlayerID]int{}
	for _, m := range history {
		games[m.First]++
		games[m.Second]++
	}
	for _, p := range players {
		if abs(2*p.Starts-games[p.ID]) <= 2 {
			continue
		}
		o := newTierOracle(c.r, c.ranked)
		best, ok := o.cheapestHighTiers(func(cost swissCost) bool { return cost.startExcess == 0 })
		if ok {
			assert.Greater(c.t, best, o.proposalHighTiers(c.r, c.p), "§3.1 round %d: %s started %d of %d games although score groups allowed balance", c.req.Round, p.ID, p.Starts, games[p.ID])
		}
		return
	}
}
