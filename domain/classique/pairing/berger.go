package pairing

import "arbitre/domain/erreur"

// roundRobin returns round `round` of the Berger tables. All registered
// players, withdrawn ones included, are seeded by cote (1..n) so that the
// schedule never shifts; with an odd count a dummy n+1 is added and meeting
// it is the bye. A cycle has n-1 rounds (n even after the dummy).
//
// Standard Berger rotation: in round k (0-based) let x = k*n/2 mod (n-1) + 1.
// Table 1 is x v n (x starts in even k, n in odd k); table t > 1 is x+t-1 v
// x-t+1 counted modulo n-1 within 1..n-1, x+t-1 starting. This designation
// gives every player ⌊(n-1)/2⌋ or ⌈(n-1)/2⌉ starts in a cycle, which is the
// balance §3.1 asks for.
//
// Games against a withdrawn player are not tables; their active opponents
// are listed in Proposal.OpponentWithdrawn.
func (r *roster) roundRobin(round int) (Proposal, error) {
	seeded := make([]int, len(r.players))
	for i := range seeded {
		seeded[i] = i
	}
	r.byCote(seeded)
	if len(seeded) == 0 {
		return Proposal{}, erreur.Refus(CodeNobodyToPair, "Appariement impossible : aucun joueur inscrit")
	}
	const dummy = -1
	if len(seeded)%2 == 1 {
		seeded = append(seeded, dummy)
	}
	n := len(seeded)
	if round > n-1 {
		return Proposal{}, erreur.Refus(CodeRoundOutOfRange, "Appariement impossible : ronde %d, un cycle de Berger de %d joueurs compte %d rondes", round, n, n-1)
	}
	var p Proposal
	for _, game := range bergerRound(n, round-1) {
		first, second := seeded[game[0]-1], seeded[game[1]-1]
		switch {
		case first == dummy || second == dummy:
			if present := max(first, second); !r.players[present].Withdrawn {
				p.Bye = r.players[present].ID
			}
		case r.players[first].Withdrawn || r.players[second].Withdrawn:
			for _, i := range [2]int{first, second} {
				if !r.players[i].Withdrawn {
					p.OpponentWithdrawn = append(p.OpponentWithdrawn, r.players[i].ID)
				}
			}
		default:
			p.Tables = append(p.Tables, Table{Number: len(p.Tables) + 1, First: r.players[first].ID, Second: r.players[second].ID})
		}
	}
	return p, nil
}

// bergerRound lists the games (first, second) of 0-based round k for the
// even number n of Berger numbers 1..n.
func bergerRound(n, k int) [][2]int {
	cycle := n - 1
	wrap := func(v int) int { return ((v-1)%cycle+cycle)%cycle + 1 }
	x := (k*(n/2))%cycle + 1
	games := make([][2]int, 0, n/2)
	if k%2 == 0 {
		games = append(games, [2]int{x, n})
	} else {
		games = append(games, [2]int{n, x})
	}
	for t := 1; t < n/2; t++ {
		games = append(games, [2]int{wrap(x + t), wrap(x - t)})
	}
	return games
}
