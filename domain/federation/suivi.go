package federation

import "encoding/json"

// What the principal of a twinning tells its sites over the live link
// (command/liaison): the port's data, which the adapters fill.

// Suivi is what a twinned site follows: the twinning its CENTRE token is
// bound to and the principal's games, in order.
type Suivi struct {
	Jumelage  string
	Formule   Formule
	Principal string
	Site      string
	Tournoi   string
	Parties   []string
}

// Fait is a fact of a game as recorded at the principal: Position is its
// revision in the game's stream, Donnees its payload as JSON.
type Fait struct {
	Position int
	Type     string
	Donnees  json.RawMessage
}
