package duplicate

import (
	"slices"
	"time"

	"arbitre/domain/erreur"
	"arbitre/engine/movegen"
)

// Formule is the kind of game: normal duplicate or the « joker » formula
// (§3.8.1 of fisf-reglement-duplicate-2020.txt).
type Formule string

// The formulas of §3 and §3.8.1.
const (
	FormuleNormale Formule = "normale"
	FormuleJoker   Formule = "joker"
)

// Variante is the size of the tirage and its Scrabble bonuses (§1.2.3,
// §3.8.2): "normal", "7sur8", "7et8" or "789" (movegen's variant names).
type Variante string

// The variants of §1.2.3 and §3.8.2.
const (
	VarianteNormale      Variante = "normal"
	VarianteSeptSurHuit  Variante = "7sur8"
	VarianteSeptEtHuit   Variante = "7et8"
	VarianteSeptHuitNeuf Variante = "789"
)

// SourceTirage says where the letters come from.
type SourceTirage string

// The sources of letters: the software's bag, the physical bag read by the
// director, or a pre-drawn game read from its sheet (guide §2.17). The
// juge-arbitre draws unless software draws are chosen (guide §2.1: only
// where a federation allows them).
const (
	SourceLogiciel  SourceTirage = "logiciel"
	SourceDirecteur SourceTirage = "directeur"
	SourcePretiree  SourceTirage = "pretiree"
)

// Mode is how the game ranks its players.
type Mode string

// The modes: a normal game; a sudden-death competition (§3.8.3, guide §2.15);
// a tie-break play-off between players level at the top (guide §2.14). In the
// last two, players whose score on a coup is below the best are eliminated.
//
// A topping (§3.8.4) ranks its players by the time they take to find each
// top (TopTrouve).
const (
	ModeNormal     Mode = "normal"
	ModeMortSubite Mode = "mort_subite"
	ModeBarrage    Mode = "barrage"
	ModeTopping    Mode = "topping"
)

// DefaultSeuilSolo is the number of players from which a solo earns 10
// points (§3.5).
const DefaultSeuilSolo = 16

// Config is fixed when the game is created and never changes afterwards.
type Config struct {
	// TempsParCoup is the thinking time of a coup: 3 min, 2 min 30, 2 min
	// (semi-rapide) or 1 min (blitz) (§1.3). Sudden death and tie-breaks
	// follow their own schedule (TempsDuCoup); in a topping it is the time
	// allotted to find each top, « généralement, une minute » (§3.8.4).
	TempsParCoup time.Duration `json:"tempsParCoup"`
	// AvertissementsGratuits is how many warnings cost nothing, a parameter
	// of the competition (guide §2.5, §6.1.1), zero included; when not given
	// (nil), 3, or 5 in blitz and original formulas (§5.9). Valider always
	// sets it: read it with Gratuits.
	AvertissementsGratuits *int `json:"avertissementsGratuits"`
	// SeuilSolo is the number of players from which a solo earns 10
	// points (§3.5, 16; a federation may decide otherwise, guide §2.12).
	SeuilSolo int          `json:"seuilSolo"`
	Formule   Formule      `json:"formule"`
	Variante  Variante     `json:"variante"`
	Source    SourceTirage `json:"source"`
	// GraineTest is a seed the director gave for a reproducible test game:
	// the software's bag draws from it, so anyone who knows it foresees
	// every tirage, and a rated tournament refuses it
	// (tournoi.ExigerTirage). Without it the software draws from
	// crypto/rand. Either way the letters drawn are recorded in the events
	// and a replay never draws again. Games created before it recorded
	// every seed as "graine", no longer read: their next software draws
	// come from crypto/rand.
	GraineTest *uint64 `json:"graineTest,omitempty"`
	Mode       Mode    `json:"mode"`
	// TopJoue is the option of guide §2.3: the retained solution must have
	// been played by at least one player (RetenirTop, exigerTopJoue).
	TopJoue bool `json:"topJoue,omitempty"`
}

// tempsDeJeu are the thinking times of a normal game (§1.3): 3 min, 2 min
// 30, 2 min (semi-rapide) and 1 min (blitz).
var tempsDeJeu = []time.Duration{3 * time.Minute, 150 * time.Second, 2 * time.Minute, time.Minute}

// Gratuits is the number of free warnings of a validated configuration
// (§5.9, guide §2.5).
func (c Config) Gratuits() int {
	if c.AvertissementsGratuits == nil {
		return 0
	}
	return *c.AvertissementsGratuits
}

// Blitz is a game of one minute per coup or less (§1.3).
func (c Config) Blitz() bool { return c.TempsParCoup <= time.Minute }

// Originale reports an original formula (§3.8): joker, 7 sur 8, 7 et 8,
// 7-8-9, sudden death or tie-break.
func (c Config) Originale() bool {
	return c.Formule != FormuleNormale || c.Variante != VarianteNormale || c.Mode != ModeNormal
}

// CoupsMinimumInterruption is how many coups must have been collected for an
// interrupted game to stand: 15, or 10 in original formulas (§3.7, guide §2.13).
func (c Config) CoupsMinimumInterruption() int {
	if c.Originale() {
		return 10
	}
	return 15
}

// Variant is the engine's variant for this configuration.
func (c Config) Variant() movegen.Variant {
	for _, v := range movegen.Variants {
		if v.Name == string(c.Variante) {
			return v
		}
	}
	return movegen.Standard
}

// TempsDuCoup is the thinking time of coup n (from 1). Sudden death and
// the départage of ex aequo alike (2020 §3.8.3, which wins over guide
// §2.14's older schedule): three coups in 1 min + 20 s, three in 40 s +
// 20 s, then 20 s + 20 s; the 20 s are added to the thinking time, as the
// guide writes « 1 min 30 (1 min 10 + 20 s) ».
func (c Config) TempsDuCoup(n int) time.Duration {
	if !c.Elimination() {
		return c.TempsParCoup
	}
	paliers := []time.Duration{80 * time.Second, 60 * time.Second}
	if i := (n - 1) / 3; i < len(paliers) {
		return paliers[i]
	}
	return 40 * time.Second
}

// Elimination reports a mode whose players below the best score of a coup
// are eliminated: sudden death and barrage (§3.8.3, guide §2.14–2.15).
func (c Config) Elimination() bool { return c.Mode == ModeMortSubite || c.Mode == ModeBarrage }

// Valider refuses a configuration the regulation does not allow. Missing
// optional fields take their regulation defaults.
func (c Config) Valider() (Config, error) {
	if c.Formule == "" {
		c.Formule = FormuleNormale
	}
	if c.Variante == "" {
		c.Variante = VarianteNormale
	}
	if c.Source == "" {
		c.Source = SourceDirecteur // guide §2.1: the juge-arbitre draws
	}
	if c.Mode == "" {
		c.Mode = ModeNormal
	}
	if c.SeuilSolo == 0 {
		c.SeuilSolo = DefaultSeuilSolo
	}
	if c.AvertissementsGratuits == nil {
		gratuits := 3
		if c.Blitz() || c.Originale() {
			gratuits = 5
		}
		c.AvertissementsGratuits = &gratuits
	}
	switch {
	case c.Mode == ModeNormal && !slices.Contains(tempsDeJeu, c.TempsParCoup):
		return c, erreur.Refus(CodeInvalidConfig, "temps par coup de %v : 3 min, 2 min 30, 2 min ou 1 min (§1.3)", c.TempsParCoup)
	case c.TempsParCoup <= 0 || c.TempsParCoup > time.Hour:
		return c, erreur.Refus(CodeInvalidConfig, "le temps par coup doit être positif et d'une heure au plus (§1.3)")
	case c.Formule != FormuleNormale && c.Formule != FormuleJoker:
		return c, erreur.Refus(CodeInvalidConfig, "formule %q inconnue : normale ou joker (§3.8.1)", c.Formule)
	case c.Variant().Name != string(c.Variante):
		return c, erreur.Refus(CodeInvalidConfig, "variante %q inconnue : normal, 7sur8, 7et8 ou 789 (§3.8.2)", c.Variante)
	case c.Source != SourceLogiciel && c.Source != SourceDirecteur && c.Source != SourcePretiree:
		return c, erreur.Refus(CodeInvalidConfig, "source de tirage %q inconnue : logiciel, directeur ou pretiree", c.Source)
	case c.GraineTest != nil && c.Source != SourceLogiciel:
		return c, erreur.Refus(CodeInvalidConfig, "une graine de test ne sert qu'au tirage par logiciel, pas à la source %q", c.Source)
	case c.Mode != ModeNormal && c.Mode != ModeMortSubite && c.Mode != ModeBarrage && c.Mode != ModeTopping:
		return c, erreur.Refus(CodeInvalidConfig, "mode %q inconnu : normal, mort_subite, barrage ou topping", c.Mode)
	case *c.AvertissementsGratuits < 0:
		return c, erreur.Refus(CodeInvalidConfig, "le nombre d'avertissements gratuits ne peut pas être négatif (%d) (§5.9, guide §2.5)", *c.AvertissementsGratuits)
	case c.SeuilSolo < 1:
		return c, erreur.Refus(CodeInvalidConfig, "le seuil de bonification des solos doit être positif (§3.5)")
	}
	return c, nil
}
