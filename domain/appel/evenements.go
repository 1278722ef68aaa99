package appel

import (
	"time"

	"arbitre/domain/eventstore"
	"arbitre/engine/correction"
)

// The event types of an appeal, with explicit versioned names that never
// follow Go identifiers. Each is recorded in the appeal's stream (Flux).
const (
	TypeAppelDepose        = "appel.depose"
	TypeCommissionComposee = "appel.commission_composee"
	TypeVoteEmis           = "appel.vote_emis"
	TypeDecisionRendue     = "appel.decision_rendue"
	TypeDecisionAppliquee  = "appel.decision_appliquee"
	TypeRecoursFISFForme   = "appel.recours_fisf_forme"
	TypePiecesDemandees    = "appel.pieces_demandees"
	TypeDossierComplete    = "appel.dossier_complete"
	TypeAppelClasse        = "appel.classe"
)

// Qualite is the capacity in which someone seizes a commission (§6.3).
type Qualite string

// The capacities of §6.3: a player who feels wronged, or the arbitral body
// (arbitre correcteur, double arbitre, juge-arbitre).
const (
	QualiteJoueur  Qualite = "joueur"
	QualiteArbitre Qualite = "arbitre"
)

// Requerant is who files an appeal: a licence number or an arbiter's
// identifier, and the capacity (§6.3, §6.4.2.a).
type Requerant struct {
	Identite string  `json:"identite"`
	Qualite  Qualite `json:"qualite"`
}

// Objet is what an appeal is about: a tournament, a game (partie), a coup
// and the bulletin of a player (licence) or of a table. A bulletin appeal
// names the partie, the coup and the licence; only those change standings.
type Objet struct {
	Tournoi string `json:"tournoi"`
	Partie  string `json:"partie,omitempty"`
	Coup    int    `json:"coup,omitempty"`
	Licence string `json:"licence,omitempty"`
	Table   int    `json:"table,omitempty"`
}

// Bulletin reports whether the appeal is about one player's bulletin.
func (o Objet) Bulletin() bool { return o.Partie != "" && o.Coup > 0 && o.Licence != "" }

// Instance is the body that examines a level of the appeal.
type Instance string

// The two levels of §6.4: the tournament's commission d'arbitrage (§6.4.1,
// guide §3.8) and, above it, the FISF commission de recours (§6.4.2), the
// last resort.
const (
	InstanceCommissionArbitrage Instance = "commission_arbitrage"
	InstanceRecoursFISF         Instance = "commission_recours_fisf"
)

// Issue is the outcome a member votes for and a commission decides.
type Issue string

// The outcomes of an appeal.
const (
	// IssueAccueilli (upheld): the contested decision is replaced by the one
	// the appellant requested.
	IssueAccueilli Issue = "accueilli"
	// IssueRejete: the contested decision stands.
	IssueRejete Issue = "rejete"
	// IssueAmende: the commission substitutes its own decision.
	IssueAmende Issue = "amende"
)

// AppelDepose files an appeal with the commission d'arbitrage (§6.3).
// Contestee is the bulletin decision contested, Demandee the one the
// appellant asks for (needed for the appeal to be upheld); both use the
// stable JSON form of engine/correction. Echeance is the §6.3 deadline the
// filing was checked against, nil when none was known.
type AppelDepose struct {
	Appel     string               `json:"appel"`
	Objet     Objet                `json:"objet"`
	Requerant Requerant            `json:"requerant"`
	Motif     string               `json:"motif"`
	Contestee *correction.Decision `json:"contestee,omitempty"`
	Demandee  *correction.Decision `json:"demandee,omitempty"`
	DeposeLe  time.Time            `json:"deposeLe"`
	Echeance  *time.Time           `json:"echeance,omitempty"`
}

// CommissionComposee records who sits at a level (§6.4.1, §6.4.2.b, guide
// §3.8): the président and every member, président included.
type CommissionComposee struct {
	Niveau    int      `json:"niveau"`
	Instance  Instance `json:"instance"`
	President string   `json:"president"`
	Membres   []string `json:"membres"`
}

// VoteEmis is one member's vote at a level.
type VoteEmis struct {
	Niveau int    `json:"niveau"`
	Membre string `json:"membre"`
	Issue  Issue  `json:"issue"`
}

// Vote is a member's vote as listed in a decision.
type Vote struct {
	Membre string `json:"membre"`
	Issue  Issue  `json:"issue"`
}

// DecisionRendue is a commission's decision at a level. Decision is the
// bulletin decision now in force (nil when rejected: the previous one
// stands). Votes are every member's vote; Departage says the président's
// vote broke a tie. A decided level is never edited: only a higher level
// (§6.4.2) can change its effect, through new events.
type DecisionRendue struct {
	Niveau     int                  `json:"niveau"`
	Instance   Instance             `json:"instance"`
	Issue      Issue                `json:"issue"`
	Decision   *correction.Decision `json:"decision,omitempty"`
	Motivation string               `json:"motivation"`
	President  string               `json:"president"`
	Votes      []Vote               `json:"votes"`
	Departage  bool                 `json:"departage,omitempty"`
	RendueLe   time.Time            `json:"rendueLe"`
}

// DecisionAppliquee records that a level's decision was carried into the
// game: a new bulletin correction in the stream "partie-<Partie>".
type DecisionAppliquee struct {
	Niveau  int    `json:"niveau"`
	Partie  string `json:"partie"`
	Coup    int    `json:"coup"`
	Licence string `json:"licence"`
}

// RecoursFISFForme takes a decided appeal to the FISF commission de
// recours (§6.4.2.a). TransmisPar is who sends the dossier: the président
// of the commission d'arbitrage or, in his absence, the organiser
// (§6.4.2.c). Demandee, when set, replaces the decision requested below.
type RecoursFISFForme struct {
	Niveau      int                  `json:"niveau"`
	Requerant   Requerant            `json:"requerant"`
	Motif       string               `json:"motif"`
	Demandee    *correction.Decision `json:"demandee,omitempty"`
	TransmisPar string               `json:"transmisPar"`
	FormeLe     time.Time            `json:"formeLe"`
}

// PiecesDemandees is the FISF président's request for missing documents;
// the appellant has two weeks (§6.4.2.c): until Echeance on the wall
// clock, measured from Monotone, the server's monotonic reading at the
// request (nil in a stream written before it was recorded: the wall clock
// measures).
type PiecesDemandees struct {
	Niveau   int                          `json:"niveau"`
	Pieces   string                       `json:"pieces"`
	Echeance time.Time                    `json:"echeance"`
	Monotone *eventstore.MonotonicReading `json:"monotone,omitempty"`
}

// echeance is the deadline of the request: two weeks from it.
func (p PiecesDemandees) echeance() Echeance {
	return Echeance{Depuis: eventstore.Instant{Wall: p.Echeance.Add(-delaiPieces), Monotonic: p.Monotone}, Delai: delaiPieces}
}

// DossierComplete records the documents received in time (§6.4.2.c).
type DossierComplete struct {
	Niveau     int       `json:"niveau"`
	CompleteLe time.Time `json:"completeLe"`
}

// AppelClasse closes a level as null and void: documents not received
// within two weeks (§6.4.2.c). The level below stands.
type AppelClasse struct {
	Niveau   int       `json:"niveau"`
	Motif    string    `json:"motif"`
	ClasseLe time.Time `json:"classeLe"`
}

// RegisterEvents declares every event type of the appeal in reg.
func RegisterEvents(reg *eventstore.Registry) error {
	for _, f := range []func(*eventstore.Registry) error{
		func(r *eventstore.Registry) error { return eventstore.Register[AppelDepose](r, TypeAppelDepose, 1) },
		func(r *eventstore.Registry) error {
			return eventstore.Register[CommissionComposee](r, TypeCommissionComposee, 1)
		},
		func(r *eventstore.Registry) error { return eventstore.Register[VoteEmis](r, TypeVoteEmis, 1) },
		func(r *eventstore.Registry) error {
			return eventstore.Register[DecisionRendue](r, TypeDecisionRendue, 1)
		},
		func(r *eventstore.Registry) error {
			return eventstore.Register[DecisionAppliquee](r, TypeDecisionAppliquee, 1)
		},
		func(r *eventstore.Registry) error {
			return eventstore.Register[RecoursFISFForme](r, TypeRecoursFISFForme, 1)
		},
		func(r *eventstore.Registry) error {
			return eventstore.Register[PiecesDemandees](r, TypePiecesDemandees, 1)
		},
		func(r *eventstore.Registry) error {
			return eventstore.Register[DossierComplete](r, TypeDossierComplete, 1)
		},
		func(r *eventstore.Registry) error { return eventstore.Register[AppelClasse](r, TypeAppelClasse, 1) },
	} {
		if err := f(reg); err != nil {
			return err
		}
	}
	return nil
}
