package cote

import (
	"arbitre/domain/erreur"
	"cmp"
	"math"
	"slices"
	"strconv"
)

// Elo is the default Policy, an Elo-type rule applied once per tournament:
// every game is rated against the opponent's cote before the tournament, and
// a player's change is K × (score − expected score) summed over his games.
//
//	expected(A v B) = 1 / (1 + 10^(-(clamp(A − B, ±DifferenceCap)) / Scale))
//
// Defaults and why (DefaultElo):
//   - Initial 600: the cote of a new player (issue 6).
//   - Scale 400: the usual Elo scale; a 400-point gap means 10:1 odds.
//   - K 20 for players with a cote: a 7-round tournament moves an even
//     performer by at most 140 points, enough to follow progress without
//     over-reacting to one event.
//   - KNew 40 for a player's first rated tournament: everyone starts at 600
//     whatever his level, so the first tournament must move him fast.
//   - DifferenceCap 400 (as FIDE's 400-point rule): a game against a much
//     weaker opponent still counts for something (expected ≤ 0.91).
//   - Floor 100: cotes stay positive.
//
// With a single K the rule is zero-sum (before the floor and rounding).
type Elo struct {
	Initial       int
	Scale         float64
	K             float64
	KNew          float64
	DifferenceCap int
	Floor         int
}

// DefaultElo returns the default parameters documented on Elo.
func DefaultElo() Elo {
	return Elo{Initial: 600, Scale: 400, K: 20, KNew: 40, DifferenceCap: 400, Floor: 100}
}

var _ Policy = Elo{}

// Name identifies the rule in stored cotes.
func (Elo) Name() string { return "arbitre-elo" }

// Version changes whenever the formula (not the parameters) changes.
func (Elo) Version() string { return "1" }

// Parameters lists the parameter values in force.
func (e Elo) Parameters() []Parameter {
	return []Parameter{
		{"initial", strconv.Itoa(e.Initial), "cote of a player without one"},
		{"scale", strconv.FormatFloat(e.Scale, 'g', -1, 64), "cote gap for 10:1 odds"},
		{"k", strconv.FormatFloat(e.K, 'g', -1, 64), "change per point of score above expectation"},
		{"k_new", strconv.FormatFloat(e.KNew, 'g', -1, 64), "k in a player's first rated tournament"},
		{"difference_cap", strconv.Itoa(e.DifferenceCap), "largest cote gap used in the expectation"},
		{"floor", strconv.Itoa(e.Floor), "lowest possible cote"},
	}
}

// Expected is the expected score of a player rated a against one rated b.
func (e Elo) Expected(a, b int) float64 {
	gap := min(max(a-b, -e.DifferenceCap), e.DifferenceCap)
	return 1 / (1 + math.Pow(10, -float64(gap)/e.Scale))
}

func (e Elo) validate() error {
	if e.Scale <= 0 || e.K <= 0 || e.KNew <= 0 || e.DifferenceCap <= 0 || e.Floor < 0 || e.Initial < e.Floor {
		return erreur.Refus(CodeInvalidParameters, "Cote : paramètres Elo invalides (%+v)", e)
	}
	return nil
}

// Rate implements Policy.
func (e Elo) Rate(before map[PlayerID]int, games []Game) ([]Rating, error) {
	if err := e.validate(); err != nil {
		return nil, err
	}
	ratings := map[PlayerID]*Rating{}
	entry := func(id PlayerID) *Rating {
		if r, ok := ratings[id]; ok {
			return r
		}
		cote, known := before[id]
		if !known {
			cote = e.Initial
		}
		r := &Rating{Player: id, Before: cote, New: !known}
		ratings[id] = r
		return r
	}
	for _, g := range games {
		if g.First == "" || g.Second == "" {
			return nil, erreur.Refus(CodeEmptyPlayerID, "Cote : une partie a un joueur sans identifiant")
		}
		if g.First == g.Second {
			return nil, erreur.Refus(CodeSelfGame, "Partie invalide : %q ne peut pas jouer contre lui-même", g.First)
		}
		sFirst, sSecond, ok := g.Outcome.scores()
		if !ok {
			return nil, erreur.Refus(CodeUnknownOutcome, "Cote : issue %d inconnue pour %q contre %q", g.Outcome, g.First, g.Second)
		}
		first, second := entry(g.First), entry(g.Second)
		first.record(sFirst, e.Expected(first.Before, second.Before))
		second.record(sSecond, e.Expected(second.Before, first.Before))
	}
	out := make([]Rating, 0, len(ratings))
	for _, r := range ratings {
		k := e.K
		if r.New {
			k = e.KNew
		}
		r.Delta = k * (r.Score - r.Expected)
		r.After = max(e.Floor, int(math.Round(float64(r.Before)+r.Delta)))
		out = append(out, *r)
	}
	slices.SortFunc(out, func(a, b Rating) int { return cmp.Compare(a.Player, b.Player) })
	return out, nil
}

func (r *Rating) record(score, expected float64) {
	r.Games++
	r.Score += score
	r.Expected += expected
}
