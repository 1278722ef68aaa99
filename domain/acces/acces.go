// Package acces decides who may do what: bearer tokens (jetons) issued by the
// director per role, per tournament and, for arbiters, per range of tables
// (`arbitre token create --role arbiter --tables 1-40`). A token's secret is
// never stored: events keep its SHA-256 fingerprint. Issuing and revoking are
// events; the Registre of valid tokens is rebuilt from them.
package acces

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
)

// Role is what a token lets its holder do.
type Role string

// The roles of a tournament hall.
const (
	// Directeur is the juge-arbitre: creates games, draws, chooses tops,
	// pairs rounds, issues tokens.
	Directeur Role = "director"
	// Arbitre corrects the bulletins of the tables assigned to the token.
	Arbitre Role = "arbiter"
	// Commission is the appeal body: replays and decides appeals.
	Commission Role = "commission"
	// Centre is another Arbitre server playing the federation's games in
	// its own hall (guide §2.17–2.18): limited to one event or twinning
	// (its Tournoi) and one centre (its Centre, fixed at issue), it may only
	// send that centre's results; it reads its twinning and the facts of
	// the twinned games (tirages, tops...), public once played.
	Centre Role = "centre"
)

// ParseRole reads a role name.
func ParseRole(s string) (Role, error) {
	switch r := Role(s); r {
	case Directeur, Arbitre, Commission, Centre:
		return r, nil
	}
	if r, ok := rolesFrancais[s]; ok {
		return r, nil
	}
	return "", invalide("role", fmt.Sprintf("rôle %q inconnu : directeur (director), arbitre (arbiter), commission ou centre", s))
}

// rolesFrancais are the roles' French names, which ParseRole reads beside
// the stored (English) ones.
var rolesFrancais = map[string]Role{"directeur": Directeur, "arbitre": Arbitre}

// Tables is an inclusive range of table numbers; the zero value means every table.
type Tables struct {
	Min int `json:"min,omitempty"`
	Max int `json:"max,omitempty"`
}

// ParseTables reads "1-40", "7" or "" (every table).
func ParseTables(s string) (Tables, error) {
	if s == "" {
		return Tables{}, nil
	}
	lo, hi, isRange := strings.Cut(s, "-")
	if !isRange {
		hi = lo
	}
	min, err1 := strconv.Atoi(strings.TrimSpace(lo))
	max, err2 := strconv.Atoi(strings.TrimSpace(hi))
	if err1 != nil || err2 != nil || min < 1 || max < min {
		return Tables{}, invalide("tables", fmt.Sprintf("tables %q : écrire par exemple 1-40 ou 7", s))
	}
	return Tables{Min: min, Max: max}, nil
}

// Contains reports whether table n is in the range.
func (t Tables) Contains(n int) bool {
	return t == (Tables{}) || (n >= t.Min && n <= t.Max)
}

// String renders the range as ParseTables reads it.
func (t Tables) String() string {
	switch {
	case t == (Tables{}):
		return ""
	case t.Min == t.Max:
		return strconv.Itoa(t.Min)
	}
	return fmt.Sprintf("%d-%d", t.Min, t.Max)
}

// JetonEmis records a token's issue.
type JetonEmis struct {
	ID string `json:"id"`
	// Empreinte is the hex SHA-256 of the secret.
	Empreinte string `json:"empreinte"`
	Role      Role   `json:"role"`
	// Tournoi limits the token to one tournament; empty for every one.
	Tournoi string    `json:"tournoi,omitempty"`
	Tables  Tables    `json:"tables"`
	Expire  time.Time `json:"expire"`
	Libelle string    `json:"libelle,omitempty"`
	// Centre is the centre a centre's token speaks for (guide §2.17).
	Centre string `json:"centre,omitempty"`
	// Emetteur is the id of the token that issued this one over the API;
	// empty for a token of the command line. Revoking it revokes this one.
	Emetteur string `json:"emetteur,omitempty"`
}

// JetonRevoque records that a token no longer works, nor any token it
// issued, directly or not.
type JetonRevoque struct {
	ID string `json:"id"`
}

// DureeMax is the longest validity of a token: a tournament's tokens
// outlive it by little, and a leaked one works for 30 days at most.
const DureeMax = 30 * 24 * time.Hour

// DureeEnHeures reads a validity given in hours (the API's heures), between
// 1 and DureeMax, without overflowing time.Duration.
func DureeEnHeures(heures int) (time.Duration, error) {
	if heures < 1 || heures > int(DureeMax/time.Hour) {
		return 0, errDuree
	}
	return time.Duration(heures) * time.Hour, nil
}

var errDuree = invalide("heures", fmt.Sprintf("la durée de validité d'un jeton doit être positive et de %d jours (%d heures) au plus",
	DureeMax/(24*time.Hour), DureeMax/time.Hour))

// Demande is a request for a token.
type Demande struct {
	Role    Role
	Tournoi string
	Tables  Tables
	Duree   time.Duration
	Libelle string
	Centre  string
	// Emetteur is the token issuing this one (nil: the command line): the
	// new token expires no later than it, and is revoked with it.
	Emetteur *Habilitation
}

// Emettre creates a token: the secret to hand over (shown once) and the
// event to record. A token issued by another one expires at the latest
// when its issuer does, whatever the duration asked. entropy is
// crypto/rand.Reader outside tests.
func Emettre(entropy io.Reader, now time.Time, d Demande) (secret string, ev JetonEmis, err error) {
	if _, err := ParseRole(string(d.Role)); err != nil {
		return "", JetonEmis{}, err
	}
	if d.Duree <= 0 || d.Duree > DureeMax {
		return "", JetonEmis{}, errDuree
	}
	if d.Tables != (Tables{}) && d.Role != Arbitre {
		return "", JetonEmis{}, invalide("tables", "seuls les jetons d'arbitre portent des tables")
	}
	if (d.Role == Centre) != (d.Centre != "") || (d.Role == Centre && d.Tournoi == "") {
		return "", JetonEmis{}, invalide("centre", "un jeton de centre, et lui seul, nomme son centre et son épreuve (--centre, --tournoi)")
	}
	if entropy == nil {
		entropy = rand.Reader
	}
	var raw [32]byte
	if _, err := io.ReadFull(entropy, raw[:]); err != nil {
		return "", JetonEmis{}, fmt.Errorf("drawing a token secret: %w", err)
	}
	id, err := uuid.NewRandomFromReader(entropy)
	if err != nil {
		return "", JetonEmis{}, fmt.Errorf("drawing a token id: %w", err)
	}
	secret = "arb_" + base64.RawURLEncoding.EncodeToString(raw[:])
	ev = JetonEmis{ID: id.String(), Empreinte: Empreinte(secret), Role: d.Role, Tournoi: d.Tournoi,
		Tables: d.Tables, Expire: now.Add(d.Duree).UTC(), Libelle: d.Libelle, Centre: d.Centre}
	if d.Emetteur != nil {
		ev.Emetteur = d.Emetteur.JetonID
		if ev.Expire.After(d.Emetteur.Expire) {
			ev.Expire = d.Emetteur.Expire.UTC()
		}
	}
	return secret, ev, nil
}

// Empreinte is the fingerprint stored for a secret.
func Empreinte(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}
