// Package federation holds what several Arbitre servers share (guide
// §2.17–2.18): the events played in many centres on pre-drawn games, whose
// results the federation merges into one national ranking (Epreuve), and the
// tournaments twinned over the Internet, with their link cuts and the
// decisions they force (Jumelage). Every fact says where it came from
// (Origine).
package federation

import (
	"encoding/json"
	"errors"
	"time"

	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
)

// The event types of the federation, recorded in the streams
// "federation-epreuve-<id>" and "federation-jumelage-<id>".
const (
	TypeEpreuveOuverte       = "federation.epreuve_ouverte"
	TypeResultatsCentreRecus = "federation.resultats_centre_recus"
	TypeJumelageCree         = "federation.jumelage_cree"
	TypeLiaisonCoupee        = "federation.liaison_coupee"
	TypeLiaisonRetablie      = "federation.liaison_retablie"
	TypePartieAnnuleeAuSite  = "federation.partie_annulee_au_site"
	TypeSiteDetache          = "federation.site_detache"
	TypeResultatsSiteRecus   = "federation.resultats_site_recus"
)

// Origine says how a fact reached this server.
type Origine string

// The ways results travel: online from the centre's server, or as a file
// (a bundle) when the club had no connection (§2.17).
const (
	OrigineEnLigne Origine = "en_ligne"
	OrigineFichier Origine = "fichier"
)

// JoueurCentre is one player's result in a centre: the score of his
// centre's standings and his points per coup (index coup-1), which the
// national ranking needs to replace an annulled coup (§2.17.2).
type JoueurCentre struct {
	Licence string `json:"licence"`
	Nom     string `json:"nom"`
	Serie   string `json:"serie"`
	Club    string `json:"club"`
	Score   int    `json:"score"`
	Points  []int  `json:"points"`
}

// ResultatsCentre are the results one centre sends for the event's game.
type ResultatsCentre struct {
	Centre string `json:"centre"`
	// Partie is the centre's own game, on its own server.
	Partie  string         `json:"partie"`
	Joueurs []JoueurCentre `json:"joueurs"`
	// CoupsAnnules are the coups an incident annulled in this centre
	// (§2.17.2): the sheet went on, the coup counts the other centres'
	// average for its players.
	CoupsAnnules []int `json:"coupsAnnules,omitempty"`
	// PartieAnnulee: the whole game was annulled or missing in this centre
	// (§2.17.2–2.17.4): its results stay out of the national ranking.
	PartieAnnulee bool `json:"partieAnnulee,omitempty"`
}

// TailleResultatsMax bounds a centre's results as they are recorded, in
// JSON (docs/securite.md): a hall of 1,000 players over 50 coups is about
// 250 KB.
const TailleResultatsMax = 512 << 10

// borner refuses results past TailleResultatsMax: each sending is one
// event, kept for good.
func (r ResultatsCentre) borner() error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	if len(b) > TailleResultatsMax {
		return erreur.Refus(CodeResultatsInvalides, "les résultats du centre %s font %d octets, %d au plus", r.Centre, len(b), TailleResultatsMax)
	}
	return nil
}

// EpreuveOuverte opens an event played in many centres on one pre-drawn
// game of Coups coups (guide §2.17).
type EpreuveOuverte struct {
	Epreuve string `json:"epreuve"`
	Nom     string `json:"nom"`
	Coups   int    `json:"coups"`
}

// ResultatsCentreRecus records one centre's results, how they came and
// the fingerprint of what was received (a bundle's hash): the same
// fingerprint received again records nothing.
type ResultatsCentreRecus struct {
	Resultats ResultatsCentre `json:"resultats"`
	Origine   Origine         `json:"origine"`
	Empreinte string          `json:"empreinte"`
}

// Formule is the twinning's formula (guide §2.18).
type Formule int

// The two formulas: a principal tournament and satellites (§2.18.1), or
// tournaments of comparable size (§2.18.2).
const (
	FormuleSatellites Formule = 1
	FormuleEgaux      Formule = 2
)

// JumelageCree twins sites on the games drawn live at the principal.
type JumelageCree struct {
	Jumelage  string  `json:"jumelage"`
	Formule   Formule `json:"formule"`
	Principal string  `json:"principal"`
	// Tournoi is the principal's tournament whose games the sites follow
	// live (arbitre serve --satellite-de); none for a twinning whose sites
	// play the principal's sheet by hand.
	Tournoi string   `json:"tournoi,omitempty"`
	Sites   []string `json:"sites"`
}

// LiaisonCoupee: the link to a site was lost during a game, at A;
// Monotone is the server's monotonic reading then, from which the cut's
// 15 minutes are measured (guide §2.18; nil in a stream written before it
// was recorded, or noted from the command line with an hour given: the
// wall clock measures).
type LiaisonCoupee struct {
	Site     string                       `json:"site"`
	Partie   string                       `json:"partie"`
	A        time.Time                    `json:"a"`
	Monotone *eventstore.MonotonicReading `json:"monotone,omitempty"`
}

// duree is the length of the cut at a: a real length when both readings
// are of the same clock (eventstore.Instant.Since).
func (c LiaisonCoupee) duree(a eventstore.Instant) time.Duration {
	d, _ := a.Since(eventstore.Instant{Wall: c.A, Monotonic: c.Monotone})
	return d
}

// LiaisonRetablie: the link is back; the site resumes in slight delay and
// catches up from where it stopped (§2.18.1.B), or every site resumes
// (§2.18.2.B). Interruption is the length of this cut.
type LiaisonRetablie struct {
	Site         string        `json:"site"`
	Partie       string        `json:"partie"`
	A            time.Time     `json:"a"`
	Interruption time.Duration `json:"interruption"`
}

// PartieAnnuleeAuSite: a satellite's game is annulled for that centre, its
// link cut for more than 15 minutes (§2.18.1.B).
type PartieAnnuleeAuSite struct {
	Site   string    `json:"site"`
	Partie string    `json:"partie"`
	A      time.Time `json:"a"`
	Motif  string    `json:"motif"`
}

// SiteDetache: beyond 15 minutes of interruption in a game, the site
// leaves the twinning and goes on as an independent tournament with its
// own ranking (§2.18.2.B, §2.18.2.C); Fin marks that no two sites are left
// twinned.
type SiteDetache struct {
	Site   string    `json:"site"`
	Partie string    `json:"partie"`
	A      time.Time `json:"a"`
	Motif  string    `json:"motif"`
	Fin    bool      `json:"fin"`
}

// ResultatsSiteRecus records a twinned site's results of one game as they
// stand, sent online by its server as the game goes (a bundle, its
// fingerprint Empreinte): they replace what the site sent before for that
// game (§2.18.1.C, §2.18.2.C).
type ResultatsSiteRecus struct {
	Resultats ResultatsCentre `json:"resultats"`
	Empreinte string          `json:"empreinte"`
}

// RegisterEvents declares the federation's event types in r.
func RegisterEvents(r *eventstore.Registry) error {
	return errors.Join(
		eventstore.Register[EpreuveOuverte](r, TypeEpreuveOuverte, 1),
		eventstore.Register[ResultatsCentreRecus](r, TypeResultatsCentreRecus, 1),
		eventstore.Register[JumelageCree](r, TypeJumelageCree, 1),
		eventstore.Register[LiaisonCoupee](r, TypeLiaisonCoupee, 1),
		eventstore.Register[LiaisonRetablie](r, TypeLiaisonRetablie, 1),
		eventstore.Register[PartieAnnuleeAuSite](r, TypePartieAnnuleeAuSite, 1),
		eventstore.Register[SiteDetache](r, TypeSiteDetache, 1),
		eventstore.Register[ResultatsSiteRecus](r, TypeResultatsSiteRecus, 1),
	)
}
