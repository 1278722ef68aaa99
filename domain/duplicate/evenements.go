package duplicate

import (
	"errors"
	"time"

	"arbitre/domain/eventstore"
	"arbitre/engine/lexicon"
)

// The event types of a duplicate game, with explicit versioned names that
// never follow Go identifiers. Each is recorded in the stream "partie-<id>".
const (
	TypePartieCreee          = "partie.creee"
	TypeTirageEffectue       = "partie.tirage_effectue"
	TypeTirageRejete         = "partie.tirage_rejete"
	TypeTopRetenu            = "partie.top_retenu"
	TypeCoupAnnule           = "partie.coup_annule"
	TypeBulletinsRamasses    = "partie.bulletins_ramasses"
	TypeJoueurArrive         = "partie.joueur_arrive"
	TypeJoueurRetire         = "partie.joueur_retire"
	TypePartieInterrompue    = "partie.interrompue"
	TypePartieReprise        = "partie.reprise"
	TypeEliminationsDecidees = "partie.eliminations_decidees"
	TypeEliminationsAnnulees = "partie.eliminations_annulees"
	TypePartieTerminee       = "partie.terminee"
)

// PartieCreee opens a game with its fixed configuration and its players
// (licence numbers).
type PartieCreee struct {
	Partie  string   `json:"partie"`
	Tournoi string   `json:"tournoi,omitempty"`
	Numero  int      `json:"numero,omitempty"`
	Config  Config   `json:"config"`
	Joueurs []string `json:"joueurs"`
	// Lexique identifies the word list the game is judged with, for good.
	// Games created before it was recorded have none: they are played with
	// the server's default lexicon (lexicon.Bibliotheque.Trouver).
	Lexique *lexicon.Identite `json:"lexique,omitempty"`
	// Arbitres are the tables each arbiter covers: a player's average is
	// over the other players of his arbiter (§5.9). None: over the game.
	Arbitres []ArbitreTables `json:"arbitres,omitempty"`
}

// ArbitreTables names an arbiter and the tables he covers in a game.
type ArbitreTables struct {
	Arbitre string `json:"arbitre"`
	Tables  []int  `json:"tables"`
}

// TirageEffectue is a tirage kept for coup Coup (§3.1, §3.2). Reliquat is
// announced alphabetically, joker last; Tirees are the new letters in order
// of extraction ('?' a joker); JokerAjoute is the joker the director adds
// in the joker formula (§3.8.1). AuChoix says the tirage is valid only
// because the director counted Y or a joker favourably (§3.2, guide §4.2).
type TirageEffectue struct {
	Coup        int          `json:"coup"`
	Reliquat    string       `json:"reliquat"`
	Tirees      string       `json:"tirees"`
	JokerAjoute bool         `json:"jokerAjoute,omitempty"`
	AuChoix     bool         `json:"auChoix,omitempty"`
	Source      SourceTirage `json:"source"`
}

// The reasons for a rejet.
const (
	RejetVoyellesConsonnes = "voyelles_consonnes" // §3.2: minimum not met
	RejetChoixDirecteur    = "choix_directeur"    // §3.2, guide §4.2: Y or joker counted against
	RejetTirageIdentique   = "tirage_identique"   // §3.6: same letters as the annulled coup
)

// TirageRejete puts every letter of a tirage back in the bag, reliquat
// included, before a new tirage (§3.2, §3.6).
type TirageRejete struct {
	Coup        int    `json:"coup"`
	Reliquat    string `json:"reliquat"`
	Tirees      string `json:"tirees"`
	JokerAjoute bool   `json:"jokerAjoute,omitempty"`
	Motif       string `json:"motif"`
}

// TopRetenu is the director's solution for the coup (§3.4): reference in
// FISF notation, whole word (jokers in lower case), score. Placees are the
// letters put down ('?' a joker). JokerRemplace says the joker was replaced
// by the letter from the bag in the joker formula (§3.8.1).
type TopRetenu struct {
	Coup          int    `json:"coup"`
	Ref           string `json:"ref"`
	Mot           string `json:"mot"`
	Score         int    `json:"score"`
	Placees       string `json:"placees"`
	JokerRemplace bool   `json:"jokerRemplace,omitempty"`
}

// The reasons for annulling a coup (§3.6).
const (
	AnnulationAucuneSolution = "aucune_solution"
	AnnulationErreur         = "erreur"
)

// CoupAnnule voids a coup (§3.6): its points, its top, its bulletins; every
// letter of its tirage goes back to the bag and the next tirage must differ.
type CoupAnnule struct {
	Coup  int    `json:"coup"`
	Motif string `json:"motif"`
}

// BulletinsRamasses records that the bulletins of a coup were collected,
// which counts for an interrupted game (§3.7, guide §2.13).
type BulletinsRamasses struct {
	Coup int `json:"coup"`
}

// JoueurArrive adds a late player (§6.2): every coup before PremierCoup
// counts zero for him.
type JoueurArrive struct {
	Licence     string `json:"licence"`
	PremierCoup int    `json:"premierCoup"`
}

// JoueurRetire withdraws a player added late by mistake (a mistyped
// licence, the wrong player), before anything of his was recorded: the
// game goes on as if he had never arrived; the event keeps why.
type JoueurRetire struct {
	Licence string `json:"licence"`
	Motif   string `json:"motif"`
}

// PartieInterrompue starts an interruption (§3.7, guide §2.13) at Debut;
// Monotone is the server's monotonic reading at that instant, from which it
// measures the interruption's length (DureeInterruption).
type PartieInterrompue struct {
	Debut    time.Time                    `json:"debut"`
	Monotone *eventstore.MonotonicReading `json:"monotone,omitempty"`
}

// PartieReprise ends an interruption of 15 minutes or less, at Fin (and
// Monotone, the server's monotonic reading then), after the length
// Interruption (absent from the events recorded before it was measured).
type PartieReprise struct {
	Fin          time.Time                    `json:"fin"`
	Monotone     *eventstore.MonotonicReading `json:"monotone,omitempty"`
	Interruption *DureeInterruption           `json:"interruption,omitempty"`
}

// EliminationsDecidees records, in sudden death (§3.8.3, guide §2.15) and
// tie-break play-offs (guide §2.14), the players whose score on the coup
// is below the reference: the best score among the players still in.
type EliminationsDecidees struct {
	Coup      int      `json:"coup"`
	Reference int      `json:"reference"`
	Elimines  []string `json:"elimines"`
}

// EliminationsAnnulees undoes the eliminations the director decided in
// error on coup Coup (§3.8.3), with his reason: the players eliminated on
// it are in again, and the end of the game they caused (FinVainqueur on
// that coup) is undone.
type EliminationsAnnulees struct {
	Coup  int    `json:"coup"`
	Motif string `json:"motif"`
}

// PartieTerminee ends the game (§3.7). Annulee voids every result (an
// interruption before enough coups were collected); otherwise the results
// stand up to DernierCoup. Vainqueur is the last player left in the
// elimination modes; Interruption the length of the interruption that ended
// the game (FinInterruption).
type PartieTerminee struct {
	Motif        MotifFin           `json:"motif"`
	DernierCoup  int                `json:"dernierCoup"`
	Annulee      bool               `json:"annulee,omitempty"`
	Vainqueur    string             `json:"vainqueur,omitempty"`
	Interruption *DureeInterruption `json:"interruption,omitempty"`
}

// RegisterEvents declares every event type of the duplicate game in r.
func RegisterEvents(r *eventstore.Registry) error {
	return errors.Join(
		eventstore.Register[PartieCreee](r, TypePartieCreee, 1),
		eventstore.Register[TirageEffectue](r, TypeTirageEffectue, 1),
		eventstore.Register[TirageRejete](r, TypeTirageRejete, 1),
		eventstore.Register[FeuillePretireeChargee](r, TypeFeuillePretireeChargee, 1),
		eventstore.Register[TopRetenu](r, TypeTopRetenu, 1),
		eventstore.Register[CoupAnnule](r, TypeCoupAnnule, 1),
		eventstore.Register[BulletinsRamasses](r, TypeBulletinsRamasses, 1),
		eventstore.Register[BulletinDepose](r, TypeBulletinDepose, versionBulletinDepose, upcastBulletinDeposeV1),
		eventstore.Register[BulletinCorrige](r, TypeBulletinCorrige, versionBulletinCorrige, upcastBulletinCorrigeV1),
		eventstore.Register[DoubleArbitrage](r, TypeDoubleArbitrage, versionDoubleArbitrage),
		eventstore.Register[BilletEmis](r, TypeBilletEmis, versionBilletEmis),
		eventstore.Register[RenvoiCommission](r, TypeRenvoiCommission, versionRenvoiCommission),
		eventstore.Register[DecisionCommission](r, TypeDecisionCommission, versionDecisionCommission),
		eventstore.Register[ChronoDemarre](r, TypeChronoDemarre, 1),
		eventstore.Register[ChronoSuspendu](r, TypeChronoSuspendu, 1),
		eventstore.Register[ChronoRepris](r, TypeChronoRepris, 1),
		eventstore.Register[SanctionDisciplinaire](r, TypeSanctionDisciplinaire, versionSanctionDisciplinaire),
		eventstore.Register[JoueurArrive](r, TypeJoueurArrive, 1),
		eventstore.Register[JoueurRetire](r, TypeJoueurRetire, 1),
		eventstore.Register[PartieInterrompue](r, TypePartieInterrompue, 1),
		eventstore.Register[PartieReprise](r, TypePartieReprise, 1),
		eventstore.Register[EliminationsDecidees](r, TypeEliminationsDecidees, 1),
		eventstore.Register[EliminationsAnnulees](r, TypeEliminationsAnnulees, 1),
		eventstore.Register[PartieTerminee](r, TypePartieTerminee, 1),
		eventstore.Register[TopTrouve](r, TypeTopTrouve, 1),
		eventstore.Register[ResultatsClos](r, TypeResultatsClos, versionResultatsClos),
	)
}
