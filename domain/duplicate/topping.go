package duplicate

import (
	"arbitre/domain/aggregate"
	"arbitre/domain/erreur"
	"time"
)

// TypeTopTrouve is the event of a player's time on a coup of a topping.
const TypeTopTrouve = "partie.top_trouve"

// penaliteTopping is what a top given to the player costs (§3.8.4).
const penaliteTopping = 20 * time.Second

// TopTrouve records, in a topping (§3.8.4), how long a player took to find
// the top of a coup, in seconds; when he did not find it in the time
// allotted (Trouve false), it was given to him and Secondes is that time
// plus the 20-second penalty. The players are ranked by their total time.
type TopTrouve struct {
	Coup     int    `json:"coup"`
	Licence  string `json:"licence"`
	Secondes int    `json:"secondes"`
	Trouve   bool   `json:"trouve,omitempty"`
}

// Topper records a player's time on a topped coup of a topping game
// (§3.8.4): secondes as measured when he found the top within the time
// allotted (the game's time per coup); when he did not, trouve is false and
// the domain counts the time allotted plus 20 s, whatever secondes says.
// Refused outside a topping or before the coup's top (WRONG_STATE), for an
// unknown, late or excluded player, for a time already recorded, negative
// or beyond the time allotted (INVALID_TOPPING); after the end of the game,
// until the results are closed (RESULTS_CLOSED).
func (p *Partie) Topper(coup int, licence string, secondes int, trouve bool) error {
	if err := p.exigerSaisie(); err != nil {
		return err
	}
	imparti := int(p.config.TempsParCoup / time.Second)
	switch _, topped := p.tops[coup]; {
	case p.config.Mode != ModeTopping:
		return erreur.Refus(CodeWrongState, "le chronométrage des tops est celui d'un topping (§3.8.4)")
	case !topped:
		return erreur.Refus(CodeWrongState, "le top du coup %d n'est pas encore trouvé (§3.8.4)", coup)
	}
	if err := p.exigerJoueur(licence, coup); err != nil {
		return err
	}
	switch fait := p.toppings.a(coup, licence); {
	case fait:
		return erreur.Refus(CodeInvalidTopping, "le temps de %s au coup %d est déjà noté", licence, coup)
	case !trouve:
		secondes = imparti + int(penaliteTopping/time.Second)
	case secondes < 0 || secondes > imparti:
		return erreur.Refus(CodeInvalidTopping, "%d s : un top trouvé l'est en 0 à %d s ; au-delà, il est donné avec 20 s de pénalité (§3.8.4)", secondes, imparti)
	}
	return aggregate.Record(p, TopTrouve{Coup: coup, Licence: licence, Secondes: secondes, Trouve: trouve})
}
