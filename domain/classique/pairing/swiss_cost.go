package pairing

import (
	"arbitre/domain/classique/pairing/internal/blossom"
	"arbitre/domain/erreur"
)

// swissCost is the cost of one table (or of the bye) in a Swiss round. The
// round's cost is the sum over its tables, compared tier by tier: a lower
// tier can never outweigh one unit of a higher tier (see tierWeights).
//
//  1. repeats: how many times the two players already met.
//  2. scoreGap: (difference of points de match)², 0 inside a score group.
//     Every float costs, so floaters are as few as possible, and squaring
//     makes a chain of short floats cheaper than one long float, so they are
//     as close as possible. The bye counts as a player of the lowest score
//     group, so it goes to that group unless repeats forbid it.
//  3. startExcess: players whose start balance would leave [-2, 2] after this
//     game (starts more than one away from half their games, §3.1).
//  4. low tier, 16·startPenalty + rankGap:
//     startPenalty = Σ max(0, |balance after the game| - 1)², preferring
//     opponents whose start balances compensate (§3.1);
//     rankGap (capped at 15) is the Dutch tie-break: inside a score group of
//     size s the players at group positions i < j ideally satisfy j - i = s/2
//     (top half meets bottom half); across groups the two players should be
//     adjacent in the ranking (lowest of the upper group floats down to meet
//     the highest of the lower group); for the bye, the lowest-ranked.
type swissCost struct {
	repeats, scoreGap, startExcess, startPenalty, rankGap int
}

const (
	rankGapCap         = 15
	startPenaltyFactor = rankGapCap + 1
	startBalanceLimit  = 2
)

func (f *swissField) pairCost(a, b, repeats int) swissCost {
	gap := f.points(a) - f.points(b)
	c := swissCost{repeats: repeats, scoreGap: gap * gap}
	starter, other := min(f.balance[a], f.balance[b])+1, max(f.balance[a], f.balance[b])-1
	for _, after := range [2]int{starter, other} {
		after = abs(after)
		if after > startBalanceLimit {
			c.startExcess++
		}
		if after > 1 {
			c.startPenalty += (after - 1) * (after - 1)
		}
	}
	if f.group[a] == f.group[b] {
		c.rankGap = abs(abs(b-a) - f.groupSize[a]/2)
	} else {
		c.rankGap = abs(b-a) - 1
	}
	c.rankGap = min(c.rankGap, rankGapCap)
	return c
}

func (f *swissField) byeCost(v int) swissCost {
	gap := f.points(v) - f.minPoints
	return swissCost{scoreGap: gap * gap, rankGap: min(f.players()-1-v, rankGapCap)}
}

// tierWeights turns a swissCost into a blossom weight (ceiling - cost) so
// that the maximum-weight perfect matching is the lexicographically cheapest
// round. Each unit is one more than the largest total the lower tiers can
// reach over a whole round (edges = vertices/2), which makes the order strict.
type tierWeights struct {
	low, excess, score, repeat, ceiling int64
}

func (f *swissField) tierWeights(maxRepeats int) (tierWeights, error) {
	edges := int64(f.vertices() / 2)
	maxBalance := 0
	for _, b := range f.balance {
		maxBalance = max(maxBalance, abs(b))
	}
	lowMax := int64(2*maxBalance*maxBalance*startPenaltyFactor + rankGapCap)
	spread := int64(f.maxPoints - f.minPoints)
	maxScore := spread * spread
	var w tierWeights
	acc := checkedArithmetic{ok: true}
	w.low = 1
	w.excess = acc.add(acc.mul(edges, lowMax), 1)
	w.score = acc.mul(w.excess, acc.add(acc.mul(edges, 2), 1))
	w.repeat = acc.mul(w.score, acc.add(acc.mul(edges, maxScore), 1))
	w.ceiling = acc.add(acc.add(acc.mul(w.repeat, int64(maxRepeats)), acc.mul(w.score, maxScore)), acc.add(acc.mul(w.excess, 2), lowMax))
	if !acc.ok {
		return w, erreur.Refus(CodeTournamentTooLarge, "Tournoi trop grand pour l'appariement suisse : %d joueurs, %d points de match d'écart, %d rencontres répétées", f.players(), spread, maxRepeats)
	}
	return w, nil
}

func (w tierWeights) weight(c swissCost) int64 {
	cost := int64(c.repeats)*w.repeat + int64(c.scoreGap)*w.score + int64(c.startExcess)*w.excess +
		int64(c.startPenalty*startPenaltyFactor+c.rankGap)*w.low
	return w.ceiling - cost
}

// checkedArithmetic multiplies and adds non-negative int64 values, recording
// overflow instead of wrapping.
type checkedArithmetic struct{ ok bool }

func (c *checkedArithmetic) mul(a, b int64) int64 {
	if a != 0 && b > blossom.MaxAbsWeight/a {
		c.ok = false
		return 0
	}
	return a * b
}

func (c *checkedArithmetic) add(a, b int64) int64 {
	if a > blossom.MaxAbsWeight-b {
		c.ok = false
		return 0
	}
	return a + b
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
