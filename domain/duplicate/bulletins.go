package duplicate

import (
	"encoding/json"

	"arbitre/domain/erreur"
	"arbitre/engine/board"
	"arbitre/engine/correction"
)

// The events of a bulletin's life (fisf-reglement-duplicate-2020.txt §4–§5,
// guide §5): handed in as written, corrected by the engine and the arbiter,
// checked by a second arbiter, notified by a billet de correction, sent to
// the commission and decided on appeal. No event is ever edited: a later
// decision is a new event, and the standings follow the latest valid one.
const (
	TypeBulletinDepose        = "partie.bulletin_depose"
	TypeBulletinCorrige       = "partie.bulletin_corrige"
	TypeDoubleArbitrage       = "partie.double_arbitrage"
	TypeBilletEmis            = "partie.billet_emis"
	TypeRenvoiCommission      = "partie.renvoi_commission"
	TypeDecisionCommission    = "partie.decision_commission"
	versionBulletinDepose     = 2
	versionBulletinCorrige    = 2
	versionDoubleArbitrage    = 1
	versionBilletEmis         = 1
	versionRenvoiCommission   = 1
	versionDecisionCommission = 1
)

// BulletinDepose (BulletinSubmitted, v2) is a player's bulletin as written
// (§4, the engine/correction bulletin model), typed by the arbiter Arbitre
// who corrects table Table. Version 1 carried only a reference, a word with
// jokers in lower case and a score; its upcaster writes them as a bulletin.
type BulletinDepose struct {
	Coup     int                 `json:"coup"`
	Licence  string              `json:"licence"`
	Table    int                 `json:"table,omitempty"`
	Arbitre  string              `json:"arbitre,omitempty"`
	Bulletin correction.Bulletin `json:"bulletin"`
}

// BulletinCorrige (BulletinCorrected, v2) is the correction of a bulletin
// (§5): the engine's decision, and the arbiter's final decision when it
// differs, with his reason. A correction without engine decision is one made
// by hand (every version 1 correction). A later correction of the same
// bulletin replaces the earlier one.
type BulletinCorrige struct {
	Coup    int    `json:"coup"`
	Licence string `json:"licence"`
	Arbitre string `json:"arbitre,omitempty"`
	Table   int    `json:"table,omitempty"`
	// Moteur is engine/correction's decision, nil for a hand correction.
	Moteur *correction.Decision `json:"moteur,omitempty"`
	// Arbitrage is the arbiter's decision when it differs from Moteur.
	Arbitrage *correction.Decision `json:"arbitrage,omitempty"`
	// Motif is the arbiter's reason for departing from the engine.
	Motif string `json:"motif,omitempty"`
}

// Finale is the decision the correction applies: the arbiter's when he
// departed from the engine, the engine's otherwise.
func (c BulletinCorrige) Finale() correction.Decision {
	if c.Arbitrage != nil {
		return *c.Arbitrage
	}
	if c.Moteur != nil {
		return *c.Moteur
	}
	return correction.Decision{}
}

// DoubleArbitrage is the second arbiter's check of a corrected bulletin
// (guide §5, double arbitrage): he confirms the decision in force, or amends
// it with a reason. Both corrections stay in the stream; an amendment is the
// new decision.
type DoubleArbitrage struct {
	Coup     int                  `json:"coup"`
	Licence  string               `json:"licence"`
	Arbitre  string               `json:"arbitre"`
	Confirme bool                 `json:"confirme"`
	Decision *correction.Decision `json:"decision,omitempty"`
	Motif    string               `json:"motif,omitempty"`
}

// BilletEmis records the billet de correction handed to the player (§5.9,
// guide §5.2): the decision it shows, boxes (reasons), place and score
// written back.
type BilletEmis struct {
	Coup     int                 `json:"coup"`
	Licence  string              `json:"licence"`
	Arbitre  string              `json:"arbitre,omitempty"`
	Decision correction.Decision `json:"decision"`
}

// RenvoiCommission sends a bulletin to the commission d'arbitrage (§5.3.3,
// §6.3, 2014 §B.2 and §C): by the engine's flag, the arbiter's doubt or a
// player's appeal (Appel, the appeal's id in its tournament, appel.Flux).
type RenvoiCommission struct {
	Coup    int    `json:"coup"`
	Licence string `json:"licence"`
	Arbitre string `json:"arbitre,omitempty"`
	Appel   string `json:"appel,omitempty"`
	Motif   string `json:"motif"`
}

// IssueAppel is the outcome of an appeal on a bulletin.
type IssueAppel string

// The outcomes of an appeal (§6.3): upheld (the player is right: a new
// decision), rejected (the decision in force stands), amended (another
// decision than both the recorded one and the player's claim).
const (
	AppelAccueilli IssueAppel = "upheld"
	AppelRejete    IssueAppel = "rejected"
	AppelAmende    IssueAppel = "amended"
)

// DecisionCommission is the commission's decision on appeal (§6.3). When
// upheld or amended, Decision is the new correction of the bulletin: the
// standings change only through this new event, never by editing the old
// ones.
type DecisionCommission struct {
	Coup    int    `json:"coup"`
	Licence string `json:"licence"`
	Appel   string `json:"appel"`
	// Niveau is the appeal's level that decided (1 the commission
	// d'arbitrage, 2 the FISF); 0 in events recorded before it was kept.
	Niveau   int                  `json:"niveau,omitempty"`
	Issue    IssueAppel           `json:"issue"`
	Decision *correction.Decision `json:"decision,omitempty"`
	Motif    string               `json:"motif"`
}

// DecisionImposee returns the coup, the licence and the decision that an
// event puts in force for a bulletin, and false for an event that changes
// no decision. The aggregate and the standings both follow it: the latest
// valid decision per bulletin.
func DecisionImposee(e any) (coup int, licence string, d correction.Decision, ok bool) {
	switch e := e.(type) {
	case BulletinCorrige:
		return e.Coup, e.Licence, e.Finale(), true
	case DoubleArbitrage:
		if !e.Confirme && e.Decision != nil {
			return e.Coup, e.Licence, *e.Decision, true
		}
	case DecisionCommission:
		if e.Issue != AppelRejete && e.Decision != nil {
			return e.Coup, e.Licence, *e.Decision, true
		}
	}
	return 0, "", correction.Decision{}, false
}

// Points is what a decision counts in the standings: the score of the coup
// before the 5-point penalty (§3.5 compares solos before it), the penalty
// points, withdrawn on the coup (§5.6), and whether the
// score is an average to compute over the arbiter's other players (guide
// §2.10), capped by the solution proposed (§5.9).
func Points(d correction.Decision) (brut, penalite int, moyenne bool) {
	switch d.Sanction {
	case correction.Penalty:
		return d.Paid + 5, 5, false
	case correction.Zero:
		return 0, 0, false
	case correction.Average:
		return 0, 0, true
	}
	return d.Paid, 0, false
}

// validerDecision refuses a decision the rules cannot produce: a score
// outside 0..top (§5.9: a solution above the top gets zero; −5 for a
// penalty, §5.6), an unknown
// sanction, a paid zéro or average.
func validerDecision(d *correction.Decision, top int) error {
	switch {
	case d == nil:
		return erreur.Refus(CodeInvalidBulletin, "décision absente")
	case d.Paid < d.MinPaid() || d.Paid > top:
		return erreur.Refus(CodeInvalidBulletin, "score %d hors de %d..%d, le top du coup (§5.6, §5.9)", d.Paid, d.MinPaid(), top)
	case d.DisciplineWarnings < 0 || d.AverageCap < 0:
		return erreur.Refus(CodeInvalidBulletin, "avertissements et plafond de moyenne ne sont pas négatifs")
	}
	switch d.Sanction {
	case correction.None, correction.Warning, correction.Penalty:
	case correction.Zero, correction.Average:
		if d.Paid != 0 {
			return erreur.Refus(CodeInvalidBulletin, "une nullité ou une moyenne ne paie rien directement (§5.7, §5.9)")
		}
	default:
		return erreur.Refus(CodeInvalidBulletin, "sanction %q inconnue : « none », « warning », « penalty », « zero » ou « average »", d.Sanction)
	}
	return nil
}

// bulletinDeposeV1 is version 1 of partie.bulletin_depose.
type bulletinDeposeV1 struct {
	Coup    int    `json:"coup"`
	Licence string `json:"licence"`
	Ref     string `json:"ref,omitempty"`
	Mot     string `json:"mot,omitempty"`
	Score   *int   `json:"score,omitempty"`
	Blanc   bool   `json:"blanc,omitempty"`
	Retard  bool   `json:"retard,omitempty"`
}

// BulletinEcrit writes a bulletin the way engine/correction reads it from a
// reference, a word with jokers in lower case (as a top is written) and a
// score: the jokers' letters circled, the direction taken from the
// reference.
func BulletinEcrit(ref, mot string, score *int, blanc, retard bool) correction.Bulletin {
	out := correction.Bulletin{Blank: blanc, Late: retard}
	if blanc {
		return out
	}
	ecrit := make([]byte, 0, len(mot)+4)
	for i := 0; i < len(mot); i++ {
		if c := mot[i]; c >= 'a' && c <= 'z' {
			ecrit = append(ecrit, '(', c-'a'+'A', ')')
		} else {
			ecrit = append(ecrit, c)
		}
	}
	sens := correction.Horizontal
	if r, err := board.ParseRef(ref); err == nil && r.Vertical {
		sens = correction.Vertical
	}
	var r *string
	if ref != "" {
		r = &ref
	}
	out.Solutions = []correction.Solution{{Word: string(ecrit), Written: sens, Ref: r, Score: score}}
	return out
}

func upcastBulletinDeposeV1(data json.RawMessage) (json.RawMessage, error) {
	var v1 bulletinDeposeV1
	if err := json.Unmarshal(data, &v1); err != nil {
		return nil, err
	}
	return json.Marshal(BulletinDepose{Coup: v1.Coup, Licence: v1.Licence,
		Bulletin: BulletinEcrit(v1.Ref, v1.Mot, v1.Score, v1.Blanc, v1.Retard)})
}

// bulletinCorrigeV1 is version 1 of partie.bulletin_corrige: the arbiter's
// figures typed by hand.
type bulletinCorrigeV1 struct {
	Coup            int    `json:"coup"`
	Licence         string `json:"licence"`
	Score           int    `json:"score"`
	Avertissements  int    `json:"avertissements,omitempty"`
	Penalites       int    `json:"penalites,omitempty"`
	Nullite         bool   `json:"nullite,omitempty"`
	Moyenne         bool   `json:"moyenne,omitempty"`
	ScoreRevendique int    `json:"scoreRevendique,omitempty"`
	ScoreMerite     int    `json:"scoreMerite,omitempty"`
	Arbitre         string `json:"arbitre,omitempty"`
	Motif           string `json:"motif,omitempty"`
}

// upcastBulletinCorrigeV1 turns hand figures into the arbiter's decision:
// a penalty's score loses its 5 points, down to −5 on a word under 5
// points (§5.6), the first warning is the
// sanction and the others disciplinary (§5.8), an average is capped by the
// claimed score (§5.9).
func upcastBulletinCorrigeV1(data json.RawMessage) (json.RawMessage, error) {
	var v1 bulletinCorrigeV1
	if err := json.Unmarshal(data, &v1); err != nil {
		return nil, err
	}
	d := correction.Decision{Paid: v1.Score, Sanction: correction.None, Reasons: []correction.Reason{}}
	avert := v1.Avertissements
	switch {
	case v1.Nullite:
		d.Paid, d.Sanction = 0, correction.Zero
	case v1.Moyenne:
		d.Paid, d.Sanction, d.AverageCap = 0, correction.Average, v1.ScoreRevendique
	case v1.Penalites > 0:
		d.Sanction = correction.Penalty
		d.Paid = max(d.MinPaid(), v1.Score-5*v1.Penalites)
	case avert > 0:
		d.Sanction = correction.Warning
		avert--
	}
	d.DisciplineWarnings = avert
	if d.Sanction != correction.Average {
		paid := d.Paid
		d.ScoreWrittenBack = &paid
	}
	return json.Marshal(BulletinCorrige{Coup: v1.Coup, Licence: v1.Licence, Arbitre: v1.Arbitre, Arbitrage: &d, Motif: v1.Motif})
}
