package cote

import "arbitre/domain/erreur"

// Serie is a classique série, from the strongest (Joker) to C.
type Serie string

const (
	SerieJoker Serie = "Joker"
	SerieA     Serie = "A"
	SerieB     Serie = "B"
	SerieC     Serie = "C"
)

// Thresholds are the lowest cote of each série; below B is série C. Our
// documents do not give the federation's thresholds; the defaults
// (DefaultThresholds) place a new player (600) in C, and need 400, 800 and
// 1200 points of progress for B, A and Joker.
type Thresholds struct {
	Joker, A, B int
}

// DefaultThresholds returns Joker ≥ 1800, A ≥ 1400, B ≥ 1000.
func DefaultThresholds() Thresholds {
	return Thresholds{Joker: 1800, A: 1400, B: 1000}
}

// Validate requires strictly decreasing thresholds.
func (t Thresholds) Validate() error {
	if !(t.Joker > t.A && t.A > t.B) {
		return erreur.Refus(CodeInvalidThresholds, "Cote : les seuils doivent décroître strictement de Joker à B (%+v)", t)
	}
	return nil
}

// SerieOf returns the série of a cote.
func (t Thresholds) SerieOf(cote int) Serie {
	switch {
	case cote >= t.Joker:
		return SerieJoker
	case cote >= t.A:
		return SerieA
	case cote >= t.B:
		return SerieB
	}
	return SerieC
}

// Series recomputes the série of every player from current cotes.
func Series(cotes map[PlayerID]int, t Thresholds) (map[PlayerID]Serie, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	out := make(map[PlayerID]Serie, len(cotes))
	for id, c := range cotes {
		out[id] = t.SerieOf(c)
	}
	return out, nil
}
