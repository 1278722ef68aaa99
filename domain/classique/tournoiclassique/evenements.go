package tournoiclassique

import (
	"arbitre/domain/classique/pairing"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/streamname"
	"errors"
	"fmt"
	"strings"
)

// The event types of a classique tournament, recorded in the stream
// "tournoi-classique-<id>" (see Stream). Names are explicit and versioned.
const (
	TypeTournoiOuvert      = "classique.tournoi.ouvert"
	TypeJoueurInscrit      = "classique.tournoi.joueur_inscrit"
	TypeTetesDeSerie       = "classique.tournoi.tetes_de_serie"
	TypeAppariementPropose = "classique.tournoi.appariement_propose"
	TypeAppariementAmende  = "classique.tournoi.appariement_amende"
	TypeRondePubliee       = "classique.tournoi.ronde_publiee"
	TypeResultatEnregistre = "classique.tournoi.resultat_enregistre"
	TypeJoueurRetire       = "classique.tournoi.joueur_retire"
	TypeTournoiClos        = "classique.tournoi.clos"
)

// versionEvenements is the schema version every tournament event is written at.
const versionEvenements = 1

// TournoiOuvert opens a tournament of Rondes rounds. Config is absent from
// the events recorded before a tournament could set it.
type TournoiOuvert struct {
	Tournoi string  `json:"tournoi"`
	Nom     string  `json:"nom"`
	Rondes  int     `json:"rondes"`
	Config  *Config `json:"config,omitempty"`
}

// Configuration is the tournament's configuration: Config, or
// ConfigParDefaut when the event has none.
func (e TournoiOuvert) Configuration() Config {
	if e.Config == nil {
		return ConfigParDefaut()
	}
	return *e.Config
}

// JoueurInscrit registers a player with the cote he enters with (0 for a
// player without one, rated as new by the cote policy).
type JoueurInscrit struct {
	Joueur string `json:"joueur"`
	Nom    string `json:"nom,omitempty"`
	Cote   int    `json:"cote"`
}

// TetesDeSerie is the seeding: active players by cote, best first (id
// breaks ties).
type TetesDeSerie struct {
	Ordre []string `json:"ordre"`
}

// Table is one game of a round; Premier starts it (§3.1). Match is the id
// of the match stream, set when the round is published.
type Table struct {
	Numero  int    `json:"numero"`
	Premier string `json:"premier"`
	Second  string `json:"second"`
	Match   string `json:"match,omitempty"`
}

// AppariementPropose is the software's proposal (pairing.Propose), kept as
// it was even when the director amends it.
type AppariementPropose struct {
	Ronde  int            `json:"ronde"`
	Method pairing.Method `json:"methode"`
	Tables []Table        `json:"tables"`
	Exempt string         `json:"exempt,omitempty"`
	// AdversaireRetire lists round-robin players whose opponent withdrew.
	AdversaireRetire []string `json:"adversaireRetire,omitempty"`
}

// AppariementAmende is the director's amendment of the round's pairing.
type AppariementAmende struct {
	Ronde  int     `json:"ronde"`
	Tables []Table `json:"tables"`
	Exempt string  `json:"exempt,omitempty"`
	Motif  string  `json:"motif,omitempty"`
}

// RondePubliee is the pairing the games are played from: the last
// amendment, or the proposal when none.
type RondePubliee struct {
	Ronde  int     `json:"ronde"`
	Tables []Table `json:"tables"`
	Exempt string  `json:"exempt,omitempty"`
	Amende bool    `json:"amende,omitempty"`
}

// ResultatEnregistre copies a validated feuille de match into the
// tournament, or the paper feuille de match the director entered; with a
// Correction (its reason) it replaces the match's earlier result.
type ResultatEnregistre struct {
	Ronde         int       `json:"ronde"`
	Table         int       `json:"table"`
	Match         string    `json:"match"`
	Joueurs       [2]string `json:"joueurs"`
	Premier       int       `json:"premier"`
	Fin           string    `json:"fin"`
	Scores        [2]int    `json:"scores"`
	Perdant       int       `json:"perdant"`
	PointsDeMatch [2]int    `json:"pointsDeMatch"`
	Correction    string    `json:"correction,omitempty"`
}

// JoueurRetire: a player leaves the tournament (§9 abandon en cours de
// tournoi); he is no longer paired and is ranked after the last.
type JoueurRetire struct {
	Joueur string `json:"joueur"`
	Apres  int    `json:"apres"` // rounds published when he withdrew
	Motif  string `json:"motif,omitempty"`
}

// TournoiClos ends the tournament; cotes are computed from it.
type TournoiClos struct {
	Tournoi string `json:"tournoi"`
}

// RegisterEvents declares every tournament event in r.
func RegisterEvents(r *eventstore.Registry) error {
	v := versionEvenements
	return errors.Join(
		eventstore.Register[TournoiOuvert](r, TypeTournoiOuvert, v),
		eventstore.Register[JoueurInscrit](r, TypeJoueurInscrit, v),
		eventstore.Register[TetesDeSerie](r, TypeTetesDeSerie, v),
		eventstore.Register[AppariementPropose](r, TypeAppariementPropose, v),
		eventstore.Register[AppariementAmende](r, TypeAppariementAmende, v),
		eventstore.Register[RondePubliee](r, TypeRondePubliee, v),
		eventstore.Register[ResultatEnregistre](r, TypeResultatEnregistre, v),
		eventstore.Register[JoueurRetire](r, TypeJoueurRetire, v),
		eventstore.Register[TournoiClos](r, TypeTournoiClos, v),
	)
}

// Stream is the stream of a classique tournament: "tournoi-classique-<id>",
// apart from the streams of duplicate tournaments.
func Stream(id string) (string, error) { return streamname.ClassiqueStream(id) }

// TournoiDuStream is the tournament id of a "tournoi-classique-<id>" stream.
func TournoiDuStream(stream string) (string, error) {
	_, id, err := streamname.ParseStream(stream)
	if err != nil {
		return "", err
	}
	t, ok := strings.CutPrefix(id, "classique-")
	if !ok || t == "" {
		return "", fmt.Errorf("stream %s is not a classique tournament", stream)
	}
	return t, nil
}
