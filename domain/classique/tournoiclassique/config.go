package tournoiclassique

import (
	"slices"
	"strings"

	"arbitre/domain/classique/matchclassique"
	"arbitre/domain/erreur"
)

// Critere is a tie-break between players level on points de match. The
// classique regulation gives none (its §4 counts only the points de match,
// victoire 3, nul 2, défaite 1): the tournament names its own, in order,
// as it names its cote policy.
type Critere string

// The tie-breaks a policy may use.
const (
	// CritereConfrontation: the points de match earned against the tied
	// players when all of them met each other (Ligne.PPM).
	CritereConfrontation Critere = "confrontation"
	// CritereEcartPlafonne: the spread, each game capped at ±PlafondEcart
	// (Ligne.Pdep).
	CritereEcartPlafonne Critere = "ecart_plafonne"
	// CritereEcart: the spread without the cap (Ligne.Ecart).
	CritereEcart Critere = "ecart"
	// CritereCote: the cote entering the tournament.
	CritereCote Critere = "cote"
)

// Criteres lists every tie-break, in the default policy's order first.
var Criteres = []Critere{CritereConfrontation, CritereEcartPlafonne, CritereCote, CritereEcart}

// Departage is a tournament's tie-break policy after points de match: its
// criteria in order, and whether players level on every one of them are
// ex aequo (they share the rank, the next rank skips) or ranked by id.
type Departage struct {
	Criteres []Critere `json:"criteres"`
	ExAequo  bool      `json:"exAequo,omitempty"`
}

// Nom names the policy from what it does, e.g.
// "pm>confrontation>ecart_plafonne>cote" or "pm>ecart=ex-aequo": the name
// recorded with the standings, as a cote carries its policy's.
func (d Departage) Nom() string {
	var b strings.Builder
	b.WriteString("pm")
	for _, c := range d.Criteres {
		b.WriteString(">" + string(c))
	}
	if d.ExAequo {
		b.WriteString("=ex-aequo")
	}
	return b.String()
}

// Exempt is what the bye counts: points de match and the score of the game
// it stands for, against ScoreAdverse.
type Exempt struct {
	PointsDeMatch int `json:"pointsDeMatch"`
	Score         int `json:"score"`
	ScoreAdverse  int `json:"scoreAdverse"`
}

// Config is a classique tournament's configuration, fixed when it opens.
type Config struct {
	Departage Departage `json:"departage"`
	Exempt    Exempt    `json:"exempt"`
}

// ConfigParDefaut is the configuration of a tournament that sets none (and
// of every tournament opened before it could): head-to-head, capped spread,
// cote, no ex aequo; the bye a win 450–350 (§9's table for a game not
// played: 450 to the winner, 350 to the other side).
func ConfigParDefaut() Config {
	return Config{
		Departage: Departage{Criteres: []Critere{CritereConfrontation, CritereEcartPlafonne, CritereCote}},
		Exempt:    Exempt{PointsDeMatch: matchclassique.PointsVictoire, Score: ScoreExempt, ScoreAdverse: ScoreExemptAdvers},
	}
}

// Valider refuses an unknown or repeated criterion, and negative points or
// scores for the bye.
func (c Config) Valider() error {
	for i, k := range c.Departage.Criteres {
		switch {
		case !slices.Contains(Criteres, k):
			return erreur.Refus(CodeInvalidInput, "Départage inconnu %q : confrontation, ecart_plafonne, ecart ou cote", k)
		case slices.Contains(c.Departage.Criteres[:i], k):
			return erreur.Refus(CodeInvalidInput, "Le départage %q est nommé deux fois", k)
		}
	}
	if e := c.Exempt; e.PointsDeMatch < 0 || e.Score < 0 || e.ScoreAdverse < 0 {
		return erreur.Refus(CodeInvalidInput, "L'exempt compte des points de match et des scores positifs ou nuls (%d PM, %d–%d)", e.PointsDeMatch, e.Score, e.ScoreAdverse)
	}
	return nil
}
