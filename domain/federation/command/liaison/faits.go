// Package liaison is the live link of tournaments twinned over the
// Internet (guide §2.18): the principal publishes the facts of its games
// (Publier), a twinned site's server follows them and replays each as its
// own, exactly once, catching up after a cut, and sends its results back as
// the game goes (Suiveur).
package liaison

import (
	"encoding/json"
	"fmt"

	"arbitre/domain/duplicate"
	"arbitre/domain/eventstore"
	"arbitre/domain/federation"
)

// publics are the facts of a game a twinned site replays (§2.18.1.A: the
// games are drawn live at the principal and sent in real time): its
// creation, tirages, rejets, tops, annulments and chrono. The bulletins, the
// hall's incidents and the end (which follows from the tops) stay at the
// principal.
var publics = map[string]bool{
	duplicate.TypePartieCreee: true, duplicate.TypeTirageEffectue: true, duplicate.TypeTirageRejete: true,
	duplicate.TypeTopRetenu: true, duplicate.TypeCoupAnnule: true,
	duplicate.TypeChronoDemarre: true, duplicate.TypeChronoSuspendu: true, duplicate.TypeChronoRepris: true,
}

// Publier turns the events of a game's stream into the facts a twinned
// site replays, at the current schema version. A game's creation keeps its
// configuration without the director's test seed (which would tell the
// tirages to come) nor the principal's players.
func Publier(registre *eventstore.Registry, events []eventstore.Event) ([]federation.Fait, error) {
	out := []federation.Fait{}
	for _, e := range events {
		if !publics[e.Type] {
			continue
		}
		v, err := registre.Decode(e)
		if err != nil {
			return nil, err
		}
		if c, ok := v.(duplicate.PartieCreee); ok {
			c.Config.GraineTest, c.Joueurs = nil, nil
			v = c
		}
		data, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("fait %s de la partie : %w", e.Type, err)
		}
		out = append(out, federation.Fait{Position: int(e.Revision), Type: e.Type, Donnees: data})
	}
	return out, nil
}
