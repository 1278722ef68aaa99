package matchclassique

import (
	"arbitre/domain/eventstore"
	"arbitre/engine/lexicon"
	"errors"
)

// The event types of a classique match, recorded in the stream
// "match-<id>". Names are explicit and versioned (never derived from Go
// identifiers) so that renaming a struct never breaks replay.
const (
	TypeMatchCree            = "classique.match.cree"
	TypeTirage               = "classique.match.tirage"
	TypeMotPlace             = "classique.match.mot_place"
	TypePasse                = "classique.match.passe"
	TypeEchange              = "classique.match.echange"
	TypeContestationTranchee = "classique.match.contestation_tranchee"
	TypePenalite             = "classique.match.penalite"
	TypeTempsEpuise          = "classique.match.temps_epuise"
	TypeAbandonDemande       = "classique.match.abandon_demande"
	TypeAbandonRefuse        = "classique.match.abandon_refuse"
	TypeMatchTermine         = "classique.match.terminee"
	TypeFeuilleSignee        = "classique.match.feuille_signee"
	TypeDesaccordSignale     = "classique.match.desaccord_signale"
	TypeDesaccordTranche     = "classique.match.desaccord_tranche"
	TypeFeuilleValidee       = "classique.match.feuille_validee"
)

// versionEvenements is the schema version every match event is written at.
const versionEvenements = 1

// Designation says how the starting player was chosen (§3.1).
type Designation string

const (
	// ParLogiciel: designated by the tournament software to balance starts.
	ParLogiciel Designation = "logiciel"
	// ParTirageAuSort: each player drew a letter, the one closest to A starts.
	ParTirageAuSort Designation = "tirage_au_sort"
)

// MatchCree opens a match. Joueurs[Premier] starts (§3.1). Manche is the
// game number in a best-of-three (0 for a single game); PremierManche1 is
// who started game 1 when Manche is 2. Tirages are the letters drawn for
// the start when Designation is ParTirageAuSort, one pair per draw ('?' a
// joker, which does not count).
type MatchCree struct {
	Match          string      `json:"match"`
	Tournoi        string      `json:"tournoi,omitempty"`
	Ronde          int         `json:"ronde,omitempty"`
	Table          int         `json:"table,omitempty"`
	Manche         int         `json:"manche,omitempty"`
	Joueurs        [2]string   `json:"joueurs"`
	Premier        int         `json:"premier"`
	Designation    Designation `json:"designation"`
	PremierManche1 string      `json:"premierManche1,omitempty"`
	Tirages        []string    `json:"tirages,omitempty"`
	Lexique        string      `json:"lexique"`
	// Identite identifies the lexicon for good; matches created before it
	// was recorded have none and are judged with the server's default
	// lexicon (lexicon.Bibliotheque.Trouver).
	Identite *lexicon.Identite `json:"identiteLexique,omitempty"`
}

// Tirage is letters a player took from the bag ('?' a joker): his first
// seven (§3.2.2) or the letters completing his rack after a word (§4.1.4).
type Tirage struct {
	Joueur  int    `json:"joueur"`
	Lettres string `json:"lettres"`
}

// MotPlace is a word put on the grid (§4.1): Ref in FISF notation, Mot the
// whole main word (jokers in lower case, the declared letter of §4.1.3),
// Placees the tiles put down in word order, Mots every word formed (main
// first), Score as counted by the engine (§4.1.2).
type MotPlace struct {
	Joueur  int      `json:"joueur"`
	Ref     string   `json:"ref"`
	Mot     string   `json:"mot"`
	Placees string   `json:"placees"`
	Jokers  string   `json:"jokers,omitempty"`
	Mots    []string `json:"mots"`
	Score   int      `json:"score"`
}

// Passe is "JE PASSE" (§4.2). Force is set when the player's time is
// exhausted and he must pass (§7, temps épuisé).
type Passe struct {
	Joueur int  `json:"joueur"`
	Force  bool `json:"force,omitempty"`
}

// Echange is "JE CHANGE n LETTRES" (§4.3): Tirees were taken from the bag
// before Rejetees went back in.
type Echange struct {
	Joueur   int    `json:"joueur"`
	Rejetees string `json:"rejetees"`
	Tirees   string `json:"tirees"`
}

// Verdict is the arbiter's answer for one contested word (§5.2).
type Verdict struct {
	Mot   string `json:"mot"`
	Admis bool   `json:"admis"`
}

// ContestationTranchee is the outcome of a contestation (§5.3). When Retire
// is set the contested player takes back Reprises (his tiles, '?' a joker)
// and loses ScoreRetire; letters he had already drawn after the play go back
// to the bag (RemisesAuSac). Penalite is 5 points per word contested
// wrongly, taken from the contester.
type ContestationTranchee struct {
	Contestataire int       `json:"contestataire"`
	Verdicts      []Verdict `json:"verdicts"`
	Retire        bool      `json:"retire"`
	ScoreRetire   int       `json:"scoreRetire,omitempty"`
	Reprises      string    `json:"reprises,omitempty"`
	RemisesAuSac  string    `json:"remisesAuSac,omitempty"`
	Penalite      int       `json:"penalite,omitempty"`
}

// Motif is the reason of a penalty.
type Motif string

// The penalties of the regulation, 5 points each (per letter where said).
const (
	// MotifLettresEnTrop: letters drawn in excess and turned over (§9), per letter.
	MotifLettresEnTrop Motif = "lettres_en_trop"
	// MotifTirageAnticipe: letters drawn before the opponent and turned over (§9), per letter.
	MotifTirageAnticipe Motif = "tirage_anticipe"
	// MotifJokerErrone: a tile announced as a joker is not one (§4.1.3).
	MotifJokerErrone Motif = "joker_errone"
	// MotifArbitre: the arbiter's 5-point penalty of §8.
	MotifArbitre Motif = "arbitre"
)

// PenaliteFixe is the one penalty of the regulation (§4.1.3, §5.3, §8, §9).
const PenaliteFixe = 5

// Penalite is a penalty inflicted by an arbiter; Points is 5 × Lettres for
// the per-letter motifs, 5 otherwise.
type Penalite struct {
	Joueur  int   `json:"joueur"`
	Motif   Motif `json:"motif"`
	Lettres int   `json:"lettres,omitempty"`
	Points  int   `json:"points"`
}

// TempsEpuise: the player's clock ran out (§6, §7).
type TempsEpuise struct {
	Joueur int `json:"joueur"`
}

// AbandonDemande: "J'abandonne" (§9).
type AbandonDemande struct {
	Joueur int `json:"joueur"`
}

// AbandonRefuse: the opponent refuses, the game goes on (§9).
type AbandonRefuse struct {
	Joueur int `json:"joueur"`
}

// Fin is how a game ended.
type Fin string

// The endings of §7 and §9.
const (
	FinReliquatEpuise     Fin = "reliquat_epuise"      // §7: rack and bag empty
	FinBlocage            Fin = "blocage"              // §7: no word, too few letters to exchange
	FinTempsEpuise        Fin = "temps_epuise"         // §7: both clocks ran out
	FinSixPasses          Fin = "six_passes"           // §4.2, §7 refus de jeu
	FinAbandon            Fin = "abandon"              // §9: abandon agreed by the opponent
	FinAbandonUnilateral  Fin = "abandon_unilateral"   // §9: left without agreement
	FinDefaiteArbitrale   Fin = "defaite_arbitrale"    // §8, §9: loss by arbiter's decision
	FinDefaiteHuitLettres Fin = "defaite_huit_lettres" // §9: played with 8 letters or more
	FinForfait            Fin = "forfait"              // §9: absent player
)

// Libelle says the ending in French, as the pages do.
func (f Fin) Libelle() string {
	switch f {
	case FinReliquatEpuise:
		return "lettres épuisées"
	case FinBlocage:
		return "blocage"
	case FinTempsEpuise:
		return "temps épuisé"
	case FinSixPasses:
		return "six passes"
	case FinAbandon:
		return "abandon"
	case FinAbandonUnilateral:
		return "abandon sans accord"
	case FinDefaiteArbitrale:
		return "défaite par décision de l'arbitre"
	case FinDefaiteHuitLettres:
		return "défaite (huit lettres ou plus)"
	case FinForfait:
		return "forfait"
	}
	return string(f)
}

// MatchTermine ends the game. Ajustements are the end-of-game moves of §7
// (rack values); Scores the final scores; Perdant the loser (-1 for a
// draw) and PointsDeMatch 3/2/1, or 0 for the loser of a forfeit, of a
// unilateral abandon or of an arbiter's decision (§9).
type MatchTermine struct {
	Fin           Fin    `json:"fin"`
	Joueur        int    `json:"joueur"` // who finished, abandoned or was sanctioned; -1 when nobody
	Ajustements   [2]int `json:"ajustements"`
	Scores        [2]int `json:"scores"`
	Perdant       int    `json:"perdant"`
	PointsDeMatch [2]int `json:"pointsDeMatch"`
}

// FeuilleSignee: a player signed the match sheet as recorded (§7).
type FeuilleSignee struct {
	Joueur int `json:"joueur"`
}

// DesaccordSignale: a player declares other scores than the recorded ones
// (§4.1.2 d, §9 désaccord sur les totaux); an arbiter must decide.
type DesaccordSignale struct {
	Joueur int    `json:"joueur"`
	Scores [2]int `json:"scores"`
}

// DesaccordTranche: the arbiter's decision on the scores; signatures start
// over.
type DesaccordTranche struct {
	Scores        [2]int `json:"scores"`
	Perdant       int    `json:"perdant"`
	PointsDeMatch [2]int `json:"pointsDeMatch"`
}

// FeuilleValidee is the result that counts (§7: the signed sheet alone
// proves the result), signed by both players or entered by the arbiter
// (§9). It carries everything the tournament needs.
type FeuilleValidee struct {
	Tournoi       string    `json:"tournoi,omitempty"`
	Ronde         int       `json:"ronde,omitempty"`
	Table         int       `json:"table,omitempty"`
	Joueurs       [2]string `json:"joueurs"`
	Premier       int       `json:"premier"`
	Fin           Fin       `json:"fin"`
	Scores        [2]int    `json:"scores"`
	Perdant       int       `json:"perdant"`
	PointsDeMatch [2]int    `json:"pointsDeMatch"`
	ParArbitre    bool      `json:"parArbitre,omitempty"`
}

// RegisterEvents declares every match event in r at its current version.
func RegisterEvents(r *eventstore.Registry) error {
	v := versionEvenements
	return errors.Join(
		eventstore.Register[MatchCree](r, TypeMatchCree, v),
		eventstore.Register[Tirage](r, TypeTirage, v),
		eventstore.Register[MotPlace](r, TypeMotPlace, v),
		eventstore.Register[Passe](r, TypePasse, v),
		eventstore.Register[Echange](r, TypeEchange, v),
		eventstore.Register[ContestationTranchee](r, TypeContestationTranchee, v),
		eventstore.Register[Penalite](r, TypePenalite, v),
		eventstore.Register[TempsEpuise](r, TypeTempsEpuise, v),
		eventstore.Register[AbandonDemande](r, TypeAbandonDemande, v),
		eventstore.Register[AbandonRefuse](r, TypeAbandonRefuse, v),
		eventstore.Register[MatchTermine](r, TypeMatchTermine, v),
		eventstore.Register[FeuilleSignee](r, TypeFeuilleSignee, v),
		eventstore.Register[DesaccordSignale](r, TypeDesaccordSignale, v),
		eventstore.Register[DesaccordTranche](r, TypeDesaccordTranche, v),
		eventstore.Register[FeuilleValidee](r, TypeFeuilleValidee, v),
	)
}
