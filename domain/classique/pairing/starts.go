package pairing

// orient decides who starts a game between upper (the better placed player
// in the method's order) and lower, at the given table number.
//
// §3.1 of the classique regulation: "Le joueur qui commence la partie est en
// règle générale désigné par le logiciel de gestion du tournoi, de manière à
// équilibrer le nombre de fois où chaque joueur débute." Hence, in order:
//  1. the player with the lower start balance (starts minus games played
//     second) starts;
//  2. otherwise the player who was second in his latest game starts;
//  3. otherwise upper starts at odd tables and lower at even tables, so a
//     first round alternates down the room.
func (r *roster) orient(upper, lower, number int) Table {
	first, second := upper, lower
	bu, bl := r.startBalance(upper), r.startBalance(lower)
	lu, ll := r.startedLast[upper], r.startedLast[lower]
	switch {
	case bu != bl:
		if bl < bu {
			first, second = lower, upper
		}
	case lu != 0 && ll != 0 && lu != ll:
		if lu > ll {
			first, second = lower, upper
		}
	case number%2 == 0:
		first, second = lower, upper
	}
	return Table{Number: number, First: r.players[first].ID, Second: r.players[second].ID}
}
