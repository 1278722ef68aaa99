package pairing

// PlayerID identifies a registered player.
type PlayerID string

// Player is a registered player's state before the round is paired.
type Player struct {
	ID PlayerID
	// Cote is the rating the player entered the tournament with.
	Cote int
	// MatchPoints are the points de match earned so far (3/2/1/0 per game).
	MatchPoints int
	// Spread is the cumulated score difference, a ranking tie-break.
	Spread int
	// Starts counts the games this player started (§3.1).
	Starts int
	// HadBye is true once the player received a bye in this tournament.
	HadBye bool
	// Withdrawn players are never paired (§9, abandon en cours de tournoi).
	Withdrawn bool
}

// Meeting is one game already paired in an earlier round. First is the
// player who started it. A bye is not a meeting.
type Meeting struct {
	Round  int
	First  PlayerID
	Second PlayerID
}

// Method is a pairing method.
type Method string

const (
	Swiss         Method = "swiss"
	InitialByCote Method = "initial_by_cote"
	RoundRobin    Method = "round_robin"
	KingOfTheHill Method = "king_of_the_hill"
)

// Request is everything a proposal depends on.
type Request struct {
	// Round is the 1-based number of the round to pair. For RoundRobin it is
	// the round of the Berger cycle.
	Round   int
	Method  Method
	Players []Player
	History []Meeting
	// KingOfTheHillAvoidsRepeats switches king-of-the-hill from strict 1 v 2,
	// 3 v 4 to the documented repeat-avoiding variant (see kingofthehill.go).
	KingOfTheHillAvoidsRepeats bool
}

// Table is one game of the proposal; First starts the game (§3.1).
type Table struct {
	Number int
	First  PlayerID
	Second PlayerID
}

// Proposal is the software's pairing of a round.
type Proposal struct {
	Round  int
	Method Method
	Tables []Table
	// Bye is the player paired against the fictitious player, or "".
	Bye PlayerID
	// OpponentWithdrawn lists, for round robin only, active players whose
	// scheduled Berger opponent has withdrawn; the director decides the
	// outcome of those games.
	OpponentWithdrawn []PlayerID
}
