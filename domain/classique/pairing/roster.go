package pairing

import (
	"arbitre/domain/erreur"
	"cmp"
	"slices"
)

// roster is the validated request with derived per-player facts. Players are
// indexed in ascending id order so that nothing depends on input order.
type roster struct {
	players []Player
	index   map[PlayerID]int
	// games counts each player's meetings in the history.
	games []int
	// opponents lists, per player, the indexes met (once per meeting).
	opponents [][]int
	// startedLast is +1 if the player started his latest game, -1 if he was
	// second, 0 without games.
	startedLast []int
}

func newRoster(req Request) (*roster, error) {
	if req.Round < 1 {
		return nil, erreur.Refus(CodeInvalidRound, "Appariement impossible : ronde %d, les rondes sont numérotées à partir de 1", req.Round)
	}
	players := slices.Clone(req.Players)
	slices.SortFunc(players, func(a, b Player) int { return cmp.Compare(a.ID, b.ID) })
	r := &roster{
		players:     players,
		index:       make(map[PlayerID]int, len(players)),
		games:       make([]int, len(players)),
		opponents:   make([][]int, len(players)),
		startedLast: make([]int, len(players)),
	}
	for i, p := range players {
		if p.ID == "" {
			return nil, erreur.Refus(CodeEmptyPlayerID, "Appariement impossible : un joueur n'a pas d'identifiant")
		}
		if _, dup := r.index[p.ID]; dup {
			return nil, erreur.Refus(CodeDuplicatePlayer, "Appariement impossible : %q est inscrit deux fois", p.ID)
		}
		r.index[p.ID] = i
	}
	if err := r.replay(req.History); err != nil {
		return nil, err
	}
	for i, p := range players {
		if p.Starts < 0 || p.Starts > r.games[i] {
			return nil, erreur.Refus(CodeInvalidStarts, "Appariement impossible : %q aurait commencé %d parties sur %d", p.ID, p.Starts, r.games[i])
		}
	}
	return r, nil
}

// replay derives games, opponents and the latest start of every player.
func (r *roster) replay(history []Meeting) error {
	latestRound := make([]int, len(r.players))
	for _, m := range history {
		first, okFirst := r.index[m.First]
		second, okSecond := r.index[m.Second]
		if !okFirst || !okSecond {
			return erreur.Refus(CodeUnknownPlayerInHistory, "Appariement impossible : la rencontre de la ronde %d, %q contre %q, nomme un joueur non inscrit", m.Round, m.First, m.Second)
		}
		if first == second {
			return erreur.Refus(CodeSelfMeetingInHistory, "Appariement impossible : ronde %d, %q ne peut pas se rencontrer lui-même", m.Round, m.First)
		}
		for _, side := range [2]struct{ me, other, started int }{{first, second, 1}, {second, first, -1}} {
			r.games[side.me]++
			r.opponents[side.me] = append(r.opponents[side.me], side.other)
			if m.Round >= latestRound[side.me] {
				latestRound[side.me] = m.Round
				r.startedLast[side.me] = side.started
			}
		}
	}
	return nil
}

// startBalance is starts minus games played second (§3.1 balances it).
func (r *roster) startBalance(i int) int {
	return 2*r.players[i].Starts - r.games[i]
}

// active returns the indexes of players who have not withdrawn.
func (r *roster) active() []int {
	var out []int
	for i, p := range r.players {
		if !p.Withdrawn {
			out = append(out, i)
		}
	}
	return out
}

// byStanding sorts indexes by the current ranking: points de match, then
// spread, then cote, then id (all descending except id).
func (r *roster) byStanding(indexes []int) {
	slices.SortStableFunc(indexes, func(a, b int) int {
		pa, pb := r.players[a], r.players[b]
		return cmp.Or(
			cmp.Compare(pb.MatchPoints, pa.MatchPoints),
			cmp.Compare(pb.Spread, pa.Spread),
			cmp.Compare(pb.Cote, pa.Cote),
			cmp.Compare(pa.ID, pb.ID),
		)
	})
}

// byCote sorts indexes by cote (descending), then id: the seeding order.
func (r *roster) byCote(indexes []int) {
	slices.SortStableFunc(indexes, func(a, b int) int {
		pa, pb := r.players[a], r.players[b]
		return cmp.Or(cmp.Compare(pb.Cote, pa.Cote), cmp.Compare(pa.ID, pb.ID))
	})
}

// lowestEligibleForBye returns the position in ranked of the lowest-ranked
// player who never had a bye, or an error if everybody had one.
func (r *roster) lowestEligibleForBye(ranked []int) (int, error) {
	for pos := len(ranked) - 1; pos >= 0; pos-- {
		if !r.players[ranked[pos]].HadBye {
			return pos, nil
		}
	}
	return -1, erreur.Refus(CodeNoByeCandidate, "Appariement impossible : nombre impair de joueurs (%d) et chacun a déjà été exempt", len(ranked))
}
