package pairing

// initialByCote pairs a first round: players sorted by cote, the top half
// meets the bottom half (1 v n/2+1, 2 v n/2+2, ...). With an odd count the
// lowest cote without a previous bye gets the bye first.
func (r *roster) initialByCote() (Proposal, error) {
	seeded := r.active()
	r.byCote(seeded)
	rest, bye, err := r.withBye(seeded)
	if err != nil {
		return Proposal{}, err
	}
	half := len(rest) / 2
	tables := make([]Table, 0, half)
	for i := range half {
		tables = append(tables, r.orient(rest[i], rest[i+half], i+1))
	}
	return Proposal{Tables: tables, Bye: bye}, nil
}
