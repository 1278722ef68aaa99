// Package archive is the federation's archive, in and out: the document of
// one tournament's results (duplicate: each player's score and rank per
// game, cumul and percentage of the top, his série — the general and série
// rankings of guide §2.16; classique: each player's rounds, opponents,
// scores and points de match as the feuille de match gives them, classique
// §2.1.5 and §7, and his cote before and after, classique §2.2), its CSV and
// JSON forms (docs/archive.md), and the import of past results into the
// archive as events, all or nothing, once per file: the results a centre
// keeps for the federation (guide §2.17.1) reach its history.
package archive

import (
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"arbitre/domain/classique/tournoiclassique"
	"arbitre/domain/erreur"
)

// Genre is the form of play of a tournament.
type Genre string

// The two forms of play.
const (
	GenreDuplicate Genre = "duplicate"
	GenreClassique Genre = "classique"
)

// FormatDate is the layout of a tournament's date (AAAA-MM-JJ).
const FormatDate = "2006-01-02"

// Document is one tournament's results. Exactly one of Duplicate and
// Classique holds lines, as Genre says; lines are in the order of the CSV.
type Document struct {
	Tournoi string `json:"tournoi"`
	Nom     string `json:"nom"`
	Genre   Genre  `json:"genre"`
	Date    string `json:"date"`
	// Exempt is what a bye counts in this classique tournament: its
	// configuration (tournoiclassique.Config.Exempt), the default one unless it was
	// opened with others; the CSV carries it in its bye lines.
	Exempt    *tournoiclassique.Exempt `json:"exempt,omitempty"`
	Duplicate []LigneDuplicate         `json:"duplicate,omitempty"`
	Classique []LigneClassique         `json:"classique,omitempty"`
}

// LigneDuplicate is one player's result in one game of a duplicate
// tournament, with his line of the tournament's standings (the cumul
// columns repeat on each of his games).
type LigneDuplicate struct {
	Partie      string  `json:"partie"`
	Numero      int     `json:"numero"`
	Licence     string  `json:"licence"`
	Nom         string  `json:"nom"`
	Club        string  `json:"club"`
	Serie       string  `json:"serie"`
	Score       int     `json:"score"`
	Top         int     `json:"top"`
	Rang        int     `json:"rang"`
	Cumul       int     `json:"cumul"`
	TopCumul    int     `json:"topCumul"`
	Pourcentage float64 `json:"pourcentage"`
	RangGeneral int     `json:"rangGeneral"`
}

// LigneClassique is one player's game in one round of a classique
// tournament; each match has two lines, one per player, that mirror each
// other. A round the player was exempt from has one line without match nor
// opponent, scored as the tournament's bye (Exempte). The cote columns (0: none,
// the tournament is not closed) repeat on each of the player's rounds.
type LigneClassique struct {
	Ronde           int    `json:"ronde"`
	Match           string `json:"match"`
	Licence         string `json:"licence"`
	Nom             string `json:"nom"`
	Club            string `json:"club"`
	Adversaire      string `json:"adversaire"`
	Score           int    `json:"score"`
	ScoreAdversaire int    `json:"scoreAdversaire"`
	PointsDeMatch   int    `json:"pointsDeMatch"`
	CoteAvant       int    `json:"coteAvant"`
	CoteApres       int    `json:"coteApres"`
}

// Exempte is the line of a player exempt from round r: the win the
// standings count for a bye, e (the tournament's configuration; classique
// §9's 450–350 and 3 points de match by default, tournoiclassique.ConfigParDefaut).
func Exempte(r int, licence, nom, club string, cotes [2]int, e tournoiclassique.Exempt) LigneClassique {
	return LigneClassique{Ronde: r, Licence: licence, Nom: nom, Club: club, Score: e.Score,
		ScoreAdversaire: e.ScoreAdverse, PointsDeMatch: e.PointsDeMatch, CoteAvant: cotes[0], CoteApres: cotes[1]}
}

// exemptParDefaut is the bye of a tournament opened without configuration
// (tournoiclassique.ConfigParDefaut).
func exemptParDefaut() *tournoiclassique.Exempt {
	e := tournoiclassique.ConfigParDefaut().Exempt
	return &e
}

// Codes of the archive's refusals.
const (
	CodeInvalidInput  = erreur.CodeInvalidInput
	CodeAlreadyExists = erreur.CodeAlreadyExists
	CodeNotFound      = erreur.CodeNotFound
)

// Bounds of an imported file.
const (
	// MaxLignes bounds the lines of one file (a national festival's
	// duplicate: 2,000 players × 7 games is 14,000).
	MaxLignes = 50000
	// MaxOctets bounds a file's size before it is read: MaxLignes lines of
	// the longest names, clubs and séries the export writes fit in it.
	MaxOctets = 32 << 20
	// MaxTexte bounds a name, a club or a série, in characters.
	MaxTexte = 100
)

// identifiant tells whether v is an id of the archive: a tournament, a
// game, a licence (1 to 64 ASCII letters, digits, '-' and '_', as the event
// store's stream ids). A loop rather than a regexp: every line of a file
// has three ids, and the regexp was a quarter of reading it (issue 34).
func identifiant(v string) bool {
	if len(v) == 0 || len(v) > 64 {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// refus is a bad line: its number (1 is the header) and the column.
func refus(ligne int, champ, format string, args ...any) *erreur.Erreur {
	msg := fmt.Sprintf(format, args...)
	if ligne > 0 {
		msg = fmt.Sprintf("ligne %d : %s", ligne, msg)
	}
	e := &erreur.Erreur{Code: CodeInvalidInput, Message: msg, Details: map[string]any{"champ": champ}}
	if ligne > 0 {
		e.Details["ligne"] = ligne
	}
	return e
}

// verifierEnTete checks what every line repeats: the tournament's id, name
// and date; ligne gives the line of each field.
func verifierEnTete(ligne func(champ string) int, d Document) error {
	if !identifiant(d.Tournoi) {
		return refus(ligne("tournoi"), "tournoi", "l'identifiant de tournoi « %s » n'est fait que de lettres, chiffres, - et _ (64 au plus)", d.Tournoi)
	}
	if err := verifierTexte(ligne("nom_tournoi"), "nom_tournoi", d.Nom, true); err != nil {
		return err
	}
	if _, err := time.Parse(FormatDate, d.Date); err != nil {
		return refus(ligne("date"), "date", "la date « %s » s'écrit AAAA-MM-JJ", d.Date)
	}
	return nil
}

// verifierTexte checks a name, a club or a série: at most MaxTexte
// characters, no control character, not empty when requis.
func verifierTexte(ligne int, champ, v string, requis bool) error {
	switch {
	case requis && strings.TrimSpace(v) == "":
		return refus(ligne, champ, "%s est vide", champ)
	case utf8.RuneCountInString(v) > MaxTexte:
		return refus(ligne, champ, "%s dépasse %d caractères", champ, MaxTexte)
	case strings.IndexFunc(v, unicode.IsControl) >= 0:
		return refus(ligne, champ, "%s contient un caractère de contrôle", champ)
	}
	return nil
}

// verifierID checks an id column.
func verifierID(ligne int, champ, v string) error {
	if !identifiant(v) {
		return refus(ligne, champ, "%s « %s » n'est fait que de lettres, chiffres, - et _ (64 au plus)", champ, v)
	}
	return nil
}
