// Package tournoi is a tournament as an event-sourced aggregate: its games
// and its registered players (licence, name, club, federation, série,
// table). Events go to the stream "tournoi-<id>".
package tournoi

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"arbitre/domain/aggregate"
	"arbitre/domain/duplicate"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
)

// The event types of a tournament, explicit and versioned.
const (
	TypeTournoiCree   = "tournoi.cree"
	TypeJoueurInscrit = "tournoi.joueur_inscrit"
	TypePartieAjoutee = "tournoi.partie_ajoutee"
	TypeJoueurExclu   = "tournoi.joueur_exclu"
	// TypeNombreParties sets or changes the number of games of the
	// competition (§6.3 deadlines).
	TypeNombreParties = "tournoi.nombre_parties"
)

// TournoiCree opens a tournament. Amical declares a friendly or test
// tournament, not rated (« homologué », guide §3.1): only there may a game
// draw from a test seed. A tournament is rated unless declared otherwise;
// older events have no Amical and stay rated.
type TournoiCree struct {
	Tournoi string `json:"tournoi"`
	Nom     string `json:"nom"`
	Amical  bool   `json:"amical,omitempty"`
}

// Joueur is a registered player.
type Joueur struct {
	Licence    string `json:"licence"`
	Nom        string `json:"nom"`
	Club       string `json:"club,omitempty"`
	Federation string `json:"federation,omitempty"`
	Serie      string `json:"serie,omitempty"`
	Table      int    `json:"table,omitempty"`
	Centre     string `json:"centre,omitempty"`
	Arbitre    string `json:"arbitre,omitempty"`
}

// JoueurInscrit registers a player.
type JoueurInscrit struct {
	Joueur Joueur `json:"joueur"`
}

// PartieAjoutee adds game number Numero, recorded in stream partie-<Partie>.
type PartieAjoutee struct {
	Partie string `json:"partie"`
	Numero int    `json:"numero"`
}

// JoueurExclu excludes a player from the tournament's other games for
// cheating or proven fraud (§6.1), decided in game Partie. AnnulerParties
// is the director's choice that the exclusion also annuls the player's
// earlier games of the competition (absent from older events: false).
type JoueurExclu struct {
	Licence        string `json:"licence"`
	Partie         string `json:"partie"`
	Motif          string `json:"motif"`
	AnnulerParties bool   `json:"annulerParties,omitempty"`
}

// NombreParties is the number of games of the competition, as the
// director sets it, then changes it with his reason: the appeals' deadline
// follows it (§6.3, before the next game or 15 minutes after the last).
type NombreParties struct {
	Nombre int    `json:"nombre"`
	Motif  string `json:"motif,omitempty"`
}

// The refusal codes of the tournament aggregate.
const (
	// CodeIdentifiantPris refuses a tournament id another kind of
	// tournament (classique) already uses.
	CodeIdentifiantPris erreur.Code = "TOURNAMENT_ID_TAKEN"
	CodeInvalidTournoi  erreur.Code = "INVALID_TOURNAMENT"
	CodeInvalidPlayer   erreur.Code = "INVALID_PLAYER"
	CodeInvalidPartie   erreur.Code = "INVALID_GAME"
	CodeUnknownPlayer   erreur.Code = "UNKNOWN_PLAYER"
	CodeExcluded        erreur.Code = "EXCLUDED"
	CodeInvalidSanction erreur.Code = "INVALID_SANCTION"
	// CodeInvalidDepartage refuses the players named for a game: a normal
	// game names none, a barrage names the tied players it separates.
	CodeInvalidDepartage erreur.Code = "INVALID_TIEBREAK"
	// CodeGraineTestRefusee refuses a test seed in a rated tournament:
	// anyone who knows it foresees every tirage.
	CodeGraineTestRefusee erreur.Code = "TEST_SEED_REFUSED"
)

// MaxTables is the highest table number of a tournament.
const MaxTables = 1000

// Tournoi is the aggregate.
type Tournoi struct {
	aggregate.Base
	id      string
	nom     string
	amical  bool
	joueurs map[string]Joueur
	ordre   []string
	parties []string
	exclus  map[string]bool
	// nombreParties is the number of games of the competition, 0 when not
	// set.
	nombreParties int
}

// Nouveau returns an empty tournament, ready for Creer or a replay.
func Nouveau() *Tournoi { return &Tournoi{joueurs: map[string]Joueur{}, exclus: map[string]bool{}} }

// ID, Nom and Parties read the state.
func (t *Tournoi) ID() string        { return t.id }
func (t *Tournoi) Nom() string       { return t.nom }
func (t *Tournoi) Parties() []string { return append([]string(nil), t.parties...) }

// Homologue reports a rated tournament: every tournament not declared
// friendly or test (TournoiCree.Amical).
func (t *Tournoi) Homologue() bool { return !t.amical }

// ExigerTirage refuses a game whose software draws come from a test seed in
// a rated tournament: whoever knows the seed foresees every tirage.
func (t *Tournoi) ExigerTirage(c duplicate.Config) error {
	if c.GraineTest != nil && t.Homologue() {
		return erreur.Refus(CodeGraineTestRefusee, "le tournoi %s est homologué : une graine de test rendrait les tirages prévisibles ; "+
			"tirage par le juge-arbitre, ou par logiciel sans graine (guide §2.1)", t.nom)
	}
	return nil
}

// NombreParties is the number of games of the competition (§6.3), 0 when
// the director has not set it.
func (t *Tournoi) NombreParties() int { return t.nombreParties }

// Joueurs lists the players in order of registration.
func (t *Tournoi) Joueurs() []Joueur {
	out := make([]Joueur, len(t.ordre))
	for i, l := range t.ordre {
		out[i] = t.joueurs[l]
	}
	return out
}

// Exclu reports whether a player was excluded (§6.1).
func (t *Tournoi) Exclu(licence string) bool { return t.exclus[licence] }

// Participants lists the players a new game starts with: the registered
// players, in order, without the excluded ones (§6.1).
func (t *Tournoi) Participants() []string {
	var out []string
	for _, l := range t.ordre {
		if !t.exclus[l] {
			out = append(out, l)
		}
	}
	return out
}

// JoueursDePartie lists the players a new game of the given mode starts
// with. A normal game takes Participants and names none. A départage game
// (barrage, sudden death: guide §2.14, 2020 §3.8.3) takes only the players
// it separates when they are named — at least two, each registered, not
// excluded, named once; a barrage must name them, and they must be level
// on the cumul, their scores in cumul (« ex aequo », guide §2.14). A sudden
// death naming nobody is a sudden-death competition of every participant.
func (t *Tournoi) JoueursDePartie(mode duplicate.Mode, licences []string, cumul map[string]int) ([]string, error) {
	switch {
	case len(licences) == 0 && mode == duplicate.ModeBarrage:
		return nil, erreur.Refus(CodeInvalidDepartage, "un barrage nomme les joueurs à départager (guide §2.14)")
	case len(licences) == 0:
		return t.Participants(), nil
	case mode != duplicate.ModeBarrage && mode != duplicate.ModeMortSubite:
		return nil, erreur.Refus(CodeInvalidDepartage, "une partie normale réunit tous les joueurs inscrits : seul un départage nomme ses joueurs")
	case len(licences) < 2:
		return nil, erreur.Refus(CodeInvalidDepartage, "un départage réunit au moins deux joueurs")
	}
	vus := map[string]bool{}
	for _, l := range licences {
		if err := t.ExigerJoueur(l); err != nil {
			return nil, err
		}
		switch {
		case vus[l]:
			return nil, erreur.Refus(CodeInvalidDepartage, "la licence %s est nommée deux fois", l)
		}
		vus[l] = true
		if mode == duplicate.ModeBarrage && cumul[l] != cumul[licences[0]] {
			return nil, erreur.Refus(CodeInvalidDepartage, "%s (%d points) et %s (%d points) ne sont pas ex aequo : un barrage départage des ex aequo (guide §2.14)",
				licences[0], cumul[licences[0]], l, cumul[l])
		}
	}
	return append([]string(nil), licences...), nil
}

// ExigerJoueur refuses a licence that may not join one of the
// tournament's games: not registered in it (another tournament's player, a
// made-up licence) or excluded from it (§6.1).
func (t *Tournoi) ExigerJoueur(licence string) error {
	switch {
	case t.joueurs[licence].Licence == "":
		return erreur.Refus(CodeUnknownPlayer, "la licence %s n'est pas inscrite au tournoi %s", licence, t.id)
	case t.exclus[licence]:
		return erreur.Refus(CodeExcluded, "%s est exclu du tournoi (§6.1)", licence)
	}
	return nil
}

// Copie is a copy of the tournament sharing nothing a transition changes.
func (t *Tournoi) Copie() *Tournoi {
	c := *t
	c.joueurs, c.exclus = maps.Clone(t.joueurs), maps.Clone(t.exclus)
	c.ordre, c.parties = slices.Clone(t.ordre), slices.Clone(t.parties)
	return &c
}

// Creer opens the tournament, rated (homologué) or friendly.
func (t *Tournoi) Creer(id, nom string, homologue bool) error {
	if t.Version() > 0 || id == "" {
		return erreur.Refus(CodeInvalidTournoi, "tournoi %q déjà créé ou sans identifiant", id)
	}
	return aggregate.Record(t, TournoiCree{Tournoi: id, Nom: nom, Amical: !homologue})
}

// Inscrire registers a player once, by licence.
func (t *Tournoi) Inscrire(j Joueur) error {
	if t.Version() == 0 {
		return erreur.Refus(erreur.CodeNotFound, "le tournoi n'existe pas")
	}
	if motif := t.refusJoueur(j); motif != "" {
		return erreur.Refus(CodeInvalidPlayer, "%s", motif)
	}
	return aggregate.Record(t, JoueurInscrit{Joueur: j})
}

// refusJoueur says why a player cannot be registered, or "".
func (t *Tournoi) refusJoueur(j Joueur) string {
	switch {
	case j.Licence == "" || j.Nom == "":
		return "un joueur a une licence et un nom"
	case j.Table < 0 || j.Table > MaxTables:
		return fmt.Sprintf("la table %d n'est pas entre 1 et %d", j.Table, MaxTables)
	case t.joueurs[j.Licence].Licence != "":
		return fmt.Sprintf("la licence %s est déjà inscrite", j.Licence)
	}
	return ""
}

// InscrireTous registers a list of players all or nothing: every player is
// checked first (a licence twice in the list included), and one refusal
// names every bad line (1 the list's first player) and registers nobody.
func (t *Tournoi) InscrireTous(js []Joueur) error {
	if t.Version() == 0 {
		return erreur.Refus(erreur.CodeNotFound, "le tournoi n'existe pas")
	}
	if len(js) == 0 {
		return erreur.Refus(CodeInvalidPlayer, "la liste des joueurs est vide")
	}
	var fautes []string
	vues := map[string]int{}
	for i, j := range js {
		motif := t.refusJoueur(j)
		if n, ok := vues[j.Licence]; ok && motif == "" {
			motif = fmt.Sprintf("la licence %s est déjà en ligne %d", j.Licence, n)
		}
		if motif != "" {
			fautes = append(fautes, fmt.Sprintf("ligne %d : %s", i+1, motif))
			continue
		}
		vues[j.Licence] = i + 1
	}
	if len(fautes) > 0 {
		return erreur.Refus(CodeInvalidPlayer, "aucun joueur inscrit : %s", strings.Join(fautes, " ; "))
	}
	evts := make([]any, len(js))
	for i, j := range js {
		evts[i] = JoueurInscrit{Joueur: j}
	}
	return aggregate.Record(t, evts...)
}

// AjouterPartie adds the next game.
func (t *Tournoi) AjouterPartie(partie string) error {
	if t.Version() == 0 || partie == "" {
		return erreur.Refus(CodeInvalidPartie, "tournoi inexistant ou partie sans identifiant")
	}
	for _, p := range t.parties {
		if p == partie {
			return erreur.Refus(erreur.CodeAlreadyExists, "La partie %s existe déjà dans ce tournoi", partie)
		}
	}
	return aggregate.Record(t, PartieAjoutee{Partie: partie, Numero: len(t.parties) + 1})
}

// Exclure excludes a registered player from the tournament's other games
// (§6.1), once; annulerParties, the director's choice, also annuls his
// earlier games.
func (t *Tournoi) Exclure(licence, partie, motif string, annulerParties bool) error {
	switch {
	case t.joueurs[licence].Licence == "":
		return erreur.Refus(CodeUnknownPlayer, "la licence %s n'est pas inscrite", licence)
	case t.exclus[licence]:
		return erreur.Refus(CodeExcluded, "%s est déjà exclu du tournoi", licence)
	case motif == "":
		return erreur.Refus(CodeInvalidSanction, "une exclusion est motivée (§6.1)")
	}
	return aggregate.Record(t, JoueurExclu{Licence: licence, Partie: partie, Motif: motif, AnnulerParties: annulerParties})
}

// FixerNombreParties sets the number of games of the competition (§6.3:
// an appeal is filed before the next game, or 15 minutes after the last);
// changing a number already set is motivated. It is at least one and at
// least the number of games already added.
func (t *Tournoi) FixerNombreParties(nombre int, motif string) error {
	switch {
	case t.Version() == 0:
		return erreur.Refus(erreur.CodeNotFound, "le tournoi n'existe pas")
	case nombre < max(1, len(t.parties)):
		return erreur.Refus(CodeInvalidTournoi, "%d partie(s) : le tournoi en compte déjà %d, et au moins une", nombre, len(t.parties))
	case t.nombreParties != 0 && motif == "":
		return erreur.Refus(CodeInvalidTournoi, "le nombre de parties, déjà fixé à %d, change avec un motif (§6.3)", t.nombreParties)
	}
	return aggregate.Record(t, NombreParties{Nombre: nombre, Motif: motif})
}

// Apply is the transition function shared by commands and replay. An
// event that does not fit the state is a corrupt history: it is refused
// and changes nothing.
func (t *Tournoi) Apply(e any) error { return aggregate.Apply(&t.Base, t.appliquer, e) }

func (t *Tournoi) appliquer(e any) error {
	if err := t.verifier(e); err != nil {
		return erreur.RefusCause(erreur.CodeCorruptHistory, err, "événement %T incohérent avec le tournoi %s", e, t.id)
	}
	switch e := e.(type) {
	case TournoiCree:
		t.id, t.nom, t.amical = e.Tournoi, e.Nom, e.Amical
	case JoueurInscrit:
		t.joueurs[e.Joueur.Licence] = e.Joueur
		t.ordre = append(t.ordre, e.Joueur.Licence)
	case PartieAjoutee:
		t.parties = append(t.parties, e.Partie)
	case JoueurExclu:
		t.exclus[e.Licence] = true
	case NombreParties:
		t.nombreParties = e.Nombre
	default:
		return erreur.Refus(erreur.CodeCorruptHistory, "événement %T inconnu", e)
	}
	return nil
}

// verifier tells why an event does not fit the state, before Appliquer
// changes anything.
func (t *Tournoi) verifier(e any) error {
	switch e := e.(type) {
	case TournoiCree, PartieAjoutee, NombreParties:
	case JoueurInscrit:
		if t.joueurs[e.Joueur.Licence].Licence != "" {
			return fmt.Errorf("licence %s déjà inscrite", e.Joueur.Licence)
		}
	case JoueurExclu:
		if t.joueurs[e.Licence].Licence == "" {
			return fmt.Errorf("licence %s pas inscrite", e.Licence)
		}
	default:
		return errors.New("type d'événement inconnu")
	}
	if _, creation := e.(TournoiCree); creation != (t.Version() == 0) {
		return errors.New("seule la création ouvre l'historique")
	}
	return nil
}

// RegisterEvents declares the tournament's event types in r.
func RegisterEvents(r *eventstore.Registry) error {
	return errors.Join(
		eventstore.Register[TournoiCree](r, TypeTournoiCree, 1),
		eventstore.Register[JoueurInscrit](r, TypeJoueurInscrit, 1),
		eventstore.Register[PartieAjoutee](r, TypePartieAjoutee, 1),
		eventstore.Register[JoueurExclu](r, TypeJoueurExclu, 1),
		eventstore.Register[NombreParties](r, TypeNombreParties, 1),
	)
}
