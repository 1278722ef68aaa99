package pairing

// kingOfTheHill pairs by the current ranking, 1 v 2, 3 v 4, ... (with an odd
// count the lowest-ranked player without a previous bye gets the bye first).
//
// Strict mode ignores history. With avoidRepeats, the documented rule is
// greedy from the top: the best unpaired player meets the best-ranked unpaired
// player he has not met yet; if he has met all of them, he meets the next one
// in the ranking anyway. Repeats can therefore still happen near the bottom.
func (r *roster) kingOfTheHill(avoidRepeats bool) (Proposal, error) {
	ranked := r.active()
	r.byStanding(ranked)
	rest, bye, err := r.withBye(ranked)
	if err != nil {
		return Proposal{}, err
	}
	var tables []Table
	for len(rest) > 0 {
		partner := 1
		if avoidRepeats {
			partner = r.firstNotMet(rest[0], rest[1:]) + 1
		}
		tables = append(tables, r.orient(rest[0], rest[partner], len(tables)+1))
		rest = append(append([]int(nil), rest[1:partner]...), rest[partner+1:]...)
	}
	return Proposal{Tables: tables, Bye: bye}, nil
}

// firstNotMet returns the position in candidates of the first player i has
// not met, or 0 if he met them all.
func (r *roster) firstNotMet(i int, candidates []int) int {
	for pos, c := range candidates {
		if !r.haveMet(i, c) {
			return pos
		}
	}
	return 0
}

func (r *roster) haveMet(i, j int) bool {
	for _, o := range r.opponents[i] {
		if o == j {
			return true
		}
	}
	return false
}
