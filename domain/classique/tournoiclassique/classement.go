package tournoiclassique

import (
	"cmp"
	"slices"
)

// PlafondEcart caps the spread one game brings to Pdep: a game counts for
// at most ±200 points, so one crushing win does not outweigh several close
// ones. The regulation gives no figure; 200 is twice the gap of §9's
// abandon table (450 against 350), i.e. a clear but ordinary defeat.
const PlafondEcart = 200

// The bye (exempt) counts by default as a win 450–350 (§9's table for a
// game that was not played: 450 to the winner, 350 to the other side): +100
// of spread (ConfigParDefaut; a tournament sets its own, Config.Exempt).
const (
	ScoreExempt       = 450
	ScoreExemptAdvers = 350
)

// Participant is a registered player as the standings need him.
type Participant struct {
	Joueur string
	Cote   int
	Retire bool
}

// Rencontre is one recorded result between two players.
type Rencontre struct {
	Joueurs       [2]string
	Scores        [2]int
	PointsDeMatch [2]int
	Forfait       bool
}

// Ligne is one player's line of the standings.
type Ligne struct {
	Rang          int
	Joueur        string
	PointsDeMatch int
	// PPM are the points de match earned against the players tied with him
	// when all of them met each other; 0 when the criterion does not apply.
	PPM     int
	Pdep    int
	Ecart   int // spread without the cap, for information
	Cote    int
	Parties int
	Exempts int
	Retire  bool
}

// Classer ranks a tournament: points de match, then the tie-breaks of the
// tournament's policy (cfg.Departage: among them the points de match earned
// among tied players when they all met, PPM, and the capped spread, Pdep,
// see PlafondEcart); the id settles what is left so the order is total, and
// players level on every criterion share the rank when the policy allows ex
// aequo. Withdrawn players come after the last (§9 abandon en cours de
// tournoi), ranked among themselves the same way. A forfeit gives points de
// match and no spread; a bye counts cfg.Exempt.
func Classer(cfg Config, participants []Participant, rencontres []Rencontre, exempts []string) []Ligne {
	index := make(map[string]int, len(participants))
	lignes := make([]Ligne, len(participants))
	for i, p := range participants {
		index[p.Joueur] = i
		lignes[i] = Ligne{Joueur: p.Joueur, Cote: p.Cote, Retire: p.Retire}
	}
	met := map[[2]string]bool{}
	for _, r := range rencontres {
		for j := range 2 {
			i, ok := index[r.Joueurs[j]]
			if !ok {
				continue
			}
			l := &lignes[i]
			l.PointsDeMatch += r.PointsDeMatch[j]
			l.Parties++
			if !r.Forfait {
				ecart := r.Scores[j] - r.Scores[1-j]
				l.Ecart += ecart
				l.Pdep += min(max(ecart, -PlafondEcart), PlafondEcart)
			}
		}
		met[paire(r.Joueurs[0], r.Joueurs[1])] = true
	}
	for _, e := range exempts {
		if i, ok := index[e]; ok {
			l := &lignes[i]
			ecart := cfg.Exempt.Score - cfg.Exempt.ScoreAdverse
			l.PointsDeMatch += cfg.Exempt.PointsDeMatch
			l.Exempts++
			l.Ecart += ecart
			l.Pdep += min(max(ecart, -PlafondEcart), PlafondEcart)
		}
	}
	// Group by withdrawal and points de match, then PPM inside each group.
	groups := map[[2]int][]int{}
	for i, l := range lignes {
		key := [2]int{boolInt(l.Retire), l.PointsDeMatch}
		groups[key] = append(groups[key], i)
	}
	for _, members := range groups {
		if len(members) < 2 || !tousRencontres(members, lignes, met) {
			continue
		}
		in := map[string]bool{}
		for _, i := range members {
			in[lignes[i].Joueur] = true
		}
		for _, r := range rencontres {
			if in[r.Joueurs[0]] && in[r.Joueurs[1]] {
				for j := range 2 {
					lignes[index[r.Joueurs[j]]].PPM += r.PointsDeMatch[j]
				}
			}
		}
	}
	departager := func(a, b Ligne) int {
		c := cmp.Or(cmp.Compare(boolInt(a.Retire), boolInt(b.Retire)), cmp.Compare(b.PointsDeMatch, a.PointsDeMatch))
		for _, k := range cfg.Departage.Criteres {
			c = cmp.Or(c, cmp.Compare(valeur(b, k), valeur(a, k)))
		}
		return c
	}
	slices.SortFunc(lignes, func(a, b Ligne) int { return cmp.Or(departager(a, b), cmp.Compare(a.Joueur, b.Joueur)) })
	for i := range lignes {
		lignes[i].Rang = i + 1
		if i > 0 && cfg.Departage.ExAequo && departager(lignes[i-1], lignes[i]) == 0 {
			lignes[i].Rang = lignes[i-1].Rang
		}
	}
	return lignes
}

// valeur is a line's figure for a tie-break, the higher the better.
func valeur(l Ligne, k Critere) int {
	switch k {
	case CritereConfrontation:
		return l.PPM
	case CritereEcartPlafonne:
		return l.Pdep
	case CritereEcart:
		return l.Ecart
	case CritereCote:
		return l.Cote
	}
	return 0
}

func tousRencontres(members []int, lignes []Ligne, met map[[2]string]bool) bool {
	for x := 0; x < len(members); x++ {
		for y := x + 1; y < len(members); y++ {
			if !met[paire(lignes[members[x]].Joueur, lignes[members[y]].Joueur)] {
				return false
			}
		}
	}
	return true
}

func paire(a, b string) [2]string {
	if a > b {
		a, b = b, a
	}
	return [2]string{a, b}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
