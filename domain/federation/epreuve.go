package federation

import (
	"arbitre/domain/aggregate"
	"arbitre/domain/erreur"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"
)

// Epreuve is an event played in many centres on one pre-drawn game (guide
// §2.17): each centre plays it on its own server and sends its results,
// online or as a file; the national ranking merges them.
type Epreuve struct {
	aggregate.Base
	id      string
	nom     string
	coups   int
	centres []ResultatsCentreRecus
	// licences are the centre of each player received: a centre's results
	// are checked against them, not against every centre again (150
	// centres replayed took 17 s, the event's loading growing with the
	// square of its centres).
	licences map[string]string
}

// NouvelleEpreuve returns an empty event, ready for a replay.
func NouvelleEpreuve() *Epreuve { return &Epreuve{} }

// ID is the event's identifier.
func (e *Epreuve) ID() string { return e.id }

// Copie is a copy of the event sharing nothing a transition changes.
func (e *Epreuve) Copie() *Epreuve {
	c := *e
	c.centres = slices.Clone(e.centres)
	c.licences = maps.Clone(e.licences)
	return &c
}

// Ouvrir opens the event on a pre-drawn game of coups coups.
func (e *Epreuve) Ouvrir(id, nom string, coups int) error {
	if e.Version() > 0 {
		return erreur.Refus(CodeAlreadyExists, "l'épreuve %s est déjà ouverte", e.id)
	}
	if id == "" || coups < 1 {
		return erreur.Refus(CodeResultatsInvalides, "une épreuve demande un identifiant et au moins un coup")
	}
	return aggregate.Record(e, EpreuveOuverte{Epreuve: id, Nom: nom, Coups: coups})
}

// Recevoir records a centre's results (§2.17). The same fingerprint
// received again records nothing: a bundle imported twice, a result sent
// twice has no effect. Other results for a centre already received are
// refused.
func (e *Epreuve) Recevoir(r ResultatsCentre, origine Origine, empreinte string) error {
	if e.Version() == 0 {
		return erreur.Refus(CodeNotFound, "l'épreuve n'est pas ouverte")
	}
	for _, c := range e.centres {
		if c.Empreinte == empreinte {
			return nil
		}
		if c.Resultats.Centre == r.Centre {
			return erreur.Refus(CodeCentreDejaRecu, "les résultats du centre %s sont déjà reçus (empreinte %.12s)", r.Centre, c.Empreinte)
		}
	}
	if err := r.borner(); err != nil {
		return err
	}
	if err := e.verifier(r); err != nil {
		return err
	}
	return aggregate.Record(e, ResultatsCentreRecus{Resultats: r, Origine: origine, Empreinte: empreinte})
}

// Apply is the one transition, shared by commands and replay.
func (e *Epreuve) Apply(evt any) error {
	if err := aggregate.Apply(&e.Base, e.appliquer, evt); err != nil {
		return &erreur.Erreur{Code: CodeCorruptHistory, Message: fmt.Sprintf("événement %T incohérent avec l'épreuve %s", evt, e.id), Err: err}
	}
	return nil
}

func (e *Epreuve) appliquer(evt any) error {
	switch evt := evt.(type) {
	case EpreuveOuverte:
		if e.Version() > 0 {
			return errors.New("épreuve déjà ouverte")
		}
		e.id, e.nom, e.coups = evt.Epreuve, evt.Nom, evt.Coups
	case ResultatsCentreRecus:
		if e.Version() == 0 {
			return errors.New("résultats avant l'ouverture")
		}
		if err := e.verifier(evt.Resultats); err != nil {
			return err
		}
		e.centres = append(e.centres, evt)
		if e.licences == nil {
			e.licences = map[string]string{}
		}
		for _, j := range evt.Resultats.Joueurs {
			e.licences[j.Licence] = evt.Resultats.Centre
		}
	default:
		return fmt.Errorf("événement %T inconnu", evt)
	}
	return nil
}

// verifier checks a centre's results against the event: a line per coup
// for every player, annulled coups inside the game, each licence in one
// centre only.
func (e *Epreuve) verifier(r ResultatsCentre) error {
	if r.Centre == "" || len(r.Joueurs) == 0 {
		return erreur.Refus(CodeResultatsInvalides, "résultats sans centre ou sans joueur")
	}
	for _, c := range e.centres {
		if c.Resultats.Centre == r.Centre {
			return erreur.Refus(CodeCentreDejaRecu, "centre %s déjà reçu", r.Centre)
		}
	}
	vus := make(map[string]bool, len(r.Joueurs))
	for _, j := range r.Joueurs {
		if len(j.Points) != e.coups {
			return erreur.Refus(CodeResultatsInvalides, "centre %s, joueur %s : %d coups au lieu de %d", r.Centre, j.Licence, len(j.Points), e.coups)
		}
		autre, ok := e.licences[j.Licence]
		if vus[j.Licence] {
			autre, ok = r.Centre, true
		}
		if ok {
			return erreur.Refus(CodeResultatsInvalides, "le joueur %s est déjà classé au centre %s", j.Licence, autre)
		}
		vus[j.Licence] = true
	}
	for _, c := range r.CoupsAnnules {
		if c < 1 || c > e.coups {
			return erreur.Refus(CodeResultatsInvalides, "centre %s : coup annulé %d hors de la partie (1 à %d)", r.Centre, c, e.coups)
		}
	}
	return nil
}

// LigneNationale is one player's line of the national ranking.
type LigneNationale struct {
	Centre  string `json:"centre"`
	Licence string `json:"licence"`
	Nom     string `json:"nom"`
	Serie   string `json:"serie"`
	Club    string `json:"club"`
	Score   int    `json:"score"`
	Rang    int    `json:"rang"`
	// Moyennes are the coups that count the other centres' average
	// instead of the player's points (§2.17.2).
	Moyennes []int `json:"moyennes,omitempty"`
}

// Proportion is, for one série, the players of a centre and every
// participant of the event: the share of the quota (§2.17.3) and of the
// points (§2.17.4) the commission gives the centre.
type Proportion struct {
	Serie        string `json:"serie"`
	Joueurs      int    `json:"joueurs"`
	Participants int    `json:"participants"`
}

// CentreIsole is a centre whose game was annulled: out of the national
// ranking, ranked on its own with its share per série (§2.17.3–2.17.4).
type CentreIsole struct {
	Centre      string           `json:"centre"`
	Classement  []LigneNationale `json:"classement"`
	Proportions []Proportion     `json:"proportions"`
}

// National is the event's ranking.
type National struct {
	Epreuve string   `json:"epreuve"`
	Nom     string   `json:"nom"`
	Centres []string `json:"centres"`
	// Origines say how each centre's results came (online, as a file).
	Origines    map[string]Origine `json:"origines"`
	Classement  []LigneNationale   `json:"classement"`
	HorsClasses []CentreIsole      `json:"horsClasses,omitempty"`
}

// Classement merges every centre received (§2.17): a coup annulled in a
// centre counts, for each of its players, the average of the other centres'
// players of his série, A and B together, on that coup (§2.17.2), rounded
// to the nearest point (every other centre's player when none is of his
// série); a centre whose game was annulled is left out of the ranking and
// ranked on its own, with its proportion of the participants per série
// (§2.17.3, §2.17.4).
func (e *Epreuve) Classement() National {
	n := National{Epreuve: e.id, Nom: e.nom, Origines: map[string]Origine{}}
	participants := map[string]int{}
	for _, c := range e.centres {
		n.Centres = append(n.Centres, c.Resultats.Centre)
		n.Origines[c.Resultats.Centre] = c.Origine
		for _, j := range c.Resultats.Joueurs {
			participants[j.Serie]++
		}
	}
	for _, c := range e.centres {
		r := c.Resultats
		lignes := make([]LigneNationale, 0, len(r.Joueurs))
		for _, j := range r.Joueurs {
			l := LigneNationale{Centre: r.Centre, Licence: j.Licence, Nom: j.Nom, Serie: j.Serie, Club: j.Club, Score: j.Score}
			if !r.PartieAnnulee {
				for _, coup := range r.CoupsAnnules {
					l.Score += e.moyenne(r.Centre, coup, j.Serie) - j.Points[coup-1]
					l.Moyennes = append(l.Moyennes, coup)
				}
			}
			lignes = append(lignes, l)
		}
		if !r.PartieAnnulee {
			n.Classement = append(n.Classement, lignes...)
			continue
		}
		isole := CentreIsole{Centre: r.Centre, Classement: classer(lignes)}
		parSerie := map[string]int{}
		for _, j := range r.Joueurs {
			parSerie[j.Serie]++
		}
		for _, s := range cles(parSerie) {
			isole.Proportions = append(isole.Proportions, Proportion{Serie: s, Joueurs: parSerie[s], Participants: participants[s]})
		}
		n.HorsClasses = append(n.HorsClasses, isole)
	}
	n.Classement = classer(n.Classement)
	return n
}

// moyenne is §2.17.2's average on coup of the players of the other
// centres that played it, of série serie (A and B together).
func (e *Epreuve) moyenne(centre string, coup int, serie string) int {
	var memeSerie, tous []int
	for _, c := range e.centres {
		r := c.Resultats
		if r.Centre == centre || r.PartieAnnulee || slices.Contains(r.CoupsAnnules, coup) {
			continue
		}
		for _, j := range r.Joueurs {
			tous = append(tous, j.Points[coup-1])
			if groupeSerie(j.Serie) == groupeSerie(serie) {
				memeSerie = append(memeSerie, j.Points[coup-1])
			}
		}
	}
	if len(memeSerie) == 0 {
		memeSerie = tous
	}
	if len(memeSerie) == 0 {
		return 0
	}
	somme := 0
	for _, p := range memeSerie {
		somme += p
	}
	return int(math.Round(float64(somme) / float64(len(memeSerie))))
}

// groupeSerie is a série with its A and B halves together (§2.17.2):
// "3A" and "3B" are série 3.
func groupeSerie(s string) string {
	if len(s) > 1 && (strings.HasSuffix(s, "A") || strings.HasSuffix(s, "B")) && s[len(s)-2] >= '0' && s[len(s)-2] <= '9' {
		return s[:len(s)-1]
	}
	return s
}

// classer orders lines by score, best first, ties sharing their rank
// (then by licence, for a stable print).
func classer[T any, P interface {
	*T
	cle() (int, string)
	placer(rang int)
}](lignes []T) []T {
	sort.SliceStable(lignes, func(i, j int) bool {
		si, li := P(&lignes[i]).cle()
		sj, lj := P(&lignes[j]).cle()
		if si != sj {
			return si > sj
		}
		return li < lj
	})
	rang, avant := 0, 0
	for i := range lignes {
		s, _ := P(&lignes[i]).cle()
		if i == 0 || s != avant {
			rang = i + 1
		}
		P(&lignes[i]).placer(rang)
		avant = s
	}
	return lignes
}

func (l *LigneNationale) cle() (int, string) { return l.Score, l.Licence }
func (l *LigneNationale) placer(rang int)    { l.Rang = rang }

func cles(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
