package cote

// PlayerID identifies a player across tournaments.
type PlayerID string

// Outcome is the result of a game from First's point of view.
type Outcome int

const (
	FirstWins Outcome = iota + 1
	Draw
	SecondWins
)

// scores returns the game score of First and Second (1, ½ or 0).
func (o Outcome) scores() (first, second float64, ok bool) {
	switch o {
	case FirstWins:
		return 1, 0, true
	case Draw:
		return 0.5, 0.5, true
	case SecondWins:
		return 0, 1, true
	}
	return 0, 0, false
}

// Game is one rated game of a tournament. Forfeits are not games to rate;
// the caller leaves them out.
type Game struct {
	First, Second PlayerID
	Outcome       Outcome
}

// Parameter documents one parameter of a policy.
type Parameter struct {
	Name    string
	Value   string
	Meaning string
}

// Rating is one player's result of rating a tournament.
type Rating struct {
	Player PlayerID
	// Before is the cote entering the tournament (the policy's initial cote
	// for a new player); New is true in that case.
	Before int
	New    bool
	Games  int
	// Score is the sum of game scores (1 win, ½ draw, 0 loss); Expected the
	// policy's expectation for the same games.
	Score    float64
	Expected float64
	// Delta is the unrounded change; After the new cote.
	Delta float64
	After int
}

// Policy is a versioned cote rule.
type Policy interface {
	Name() string
	Version() string
	Parameters() []Parameter
	// Rate rates all games of one tournament from the cotes before it
	// (players absent from before are new). It returns one Rating per player
	// who played, sorted by player id.
	Rate(before map[PlayerID]int, games []Game) ([]Rating, error)
}
