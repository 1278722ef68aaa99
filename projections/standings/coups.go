package standings

import (
	"fmt"

	"arbitre/domain/duplicate"
)

// ParCoup returns, for game id, each player's points per coup, index
// coup-1 up to the last coup that counts (0 for a coup that does not): the
// points of the coup (brut) less its 5-point penalty (§5.6), before the
// solo bonus and the end-of-game warnings. The federation needs them to
// give a coup annulled in one centre the other centres' average (guide
// §2.17.2).
func (c *Classement) ParCoup(id string) (map[string][]int, error) {
	p := c.parties[id]
	if p == nil {
		return nil, fmt.Errorf("standings: partie %s inconnue", id)
	}
	arbitres, annules := c.arbitresEtAnnules(p)
	coups := p.coupsComptes()
	n := 0
	if len(coups) > 0 {
		n = coups[len(coups)-1]
	}
	out := make(map[string][]int, len(p.ordre))
	for _, l := range p.ordre {
		points := make([]int, n)
		for _, coup := range coups {
			s, _ := p.brut(coup, l, arbitres, annules)
			if coup >= p.premier[l] && !annules[l] {
				d, _ := p.decision(coup, l)
				_, penalite, _ := duplicate.Points(d)
				s -= penalite
			}
			points[coup-1] = s
		}
		out[l] = points
	}
	return out, nil
}

// arbitresEtAnnules are, for game p, each player's arbiter (an average is
// taken among the players of the same arbiter, §5.9, guide §2.10): the one
// the game names for his table, else the one of his registration; and
// whether his scores are annulled (§6.1).
func (c *Classement) arbitresEtAnnules(p *partie) (map[string]string, map[string]bool) {
	arbitres := map[string]string{}
	annules := map[string]bool{}
	for _, l := range p.ordre {
		j := c.joueurs[l]
		arbitres[l] = j.Arbitre
		if a, ok := p.arbitres[j.Table]; ok {
			arbitres[l] = a
		}
		annules[l] = c.annule(p, l)
	}
	return arbitres, annules
}
