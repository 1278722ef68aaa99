// Package standings computes the duplicate standings — per game and
// cumulated over the tournament — as a pure fold over the events of the
// tournament and game streams: score, top, négatif, percentage of the top,
// rank with ties, solos (§3.5), warnings and penalties (§5.9), averages
// (guide §2.10), the director's disciplinary decisions (§5.5, §5.7, §6.1),
// by série. The same events always give the same figures,
// whether folded live or rebuilt from the archive.
package standings

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"

	"arbitre/domain/duplicate"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/streamname"
	"arbitre/domain/tournoi"
	"arbitre/engine/correction"
)

// Ligne is one player's line.
type Ligne struct {
	Licence        string  `json:"licence"`
	Nom            string  `json:"nom"`
	Serie          string  `json:"serie"`
	Club           string  `json:"club"`
	Score          int     `json:"score"`
	Top            int     `json:"top"`
	Negatif        int     `json:"negatif"`
	Pourcentage    float64 `json:"pourcentage"`
	Rang           int     `json:"rang"`
	Solos          int     `json:"solos"`
	Avertissements int     `json:"avertissements"`
	Penalites      int     `json:"penalites"`
	EnAttente      int     `json:"enAttente"`
	// Exclu marks a player excluded for cheating or proven fraud (§6.1):
	// in the game of the exclusion and in the games it annuls, and in the
	// cumul; he is ranked after everyone.
	Exclu bool `json:"exclu"`
	// Temps is, in a topping (§3.8.4), the player's total time in seconds,
	// the 20 s of each top given included: the lower ranks first.
	Temps int `json:"temps"`
	// Provisoire: the director has not closed the results of the game (of
	// every game of the tournament, in the cumul) yet; bulletins may still
	// be typed and corrected (introduction, guide §3.2).
	Provisoire bool `json:"provisoire"`
	// departage holds, per départage game of the tournament in order, the
	// player's rank in it (0 when he did not play it): it orders players
	// tied on the cumul (guide §2.14, 2020 §3.8.3).
	departage []int
}

type partie struct {
	id      string
	tournoi string
	numero  int
	config  duplicate.Config
	// arbitres are the arbiter of each table the game names (§5.9).
	arbitres  map[int]string
	premier   map[string]int
	ordre     []string
	tops      map[int]int
	decisions map[int]map[string]correction.Decision
	// temps are a topping's times per coup and player (§3.8.4).
	temps map[int]map[string]int
	// discipline is the aggregate's own fold of the sanctions.
	discipline duplicate.Discipline
	fin        *duplicate.PartieTerminee
	// clos: the director closed the results (duplicate.ResultatsClos).
	clos bool
}

// Classement is the fold.
type Classement struct {
	joueurs    map[string]tournoi.Joueur
	parties    map[string]*partie
	ordre      []string
	exclusions map[exclusion]tournoi.JoueurExclu
}

// exclusion keys a player's exclusion from a tournament (§6.1).
type exclusion struct{ tournoi, licence string }

// New returns an empty fold.
func New() *Classement {
	return &Classement{joueurs: map[string]tournoi.Joueur{}, parties: map[string]*partie{},
		exclusions: map[exclusion]tournoi.JoueurExclu{}}
}

// Appliquer folds one decoded event of the given stream; events of other
// kinds are ignored.
func (c *Classement) Appliquer(stream string, e any) error {
	kind, id, err := streamname.ParseStream(stream)
	if err != nil {
		return err
	}
	switch e := e.(type) {
	case tournoi.JoueurInscrit:
		c.joueurs[e.Joueur.Licence] = e.Joueur
		return nil
	case tournoi.JoueurExclu:
		c.exclusions[exclusion{id, e.Licence}] = e
		return nil
	case duplicate.PartieCreee:
		p := &partie{id: id, tournoi: e.Tournoi, numero: e.Numero, config: e.Config, arbitres: map[int]string{}, premier: map[string]int{}, tops: map[int]int{},
			decisions: map[int]map[string]correction.Decision{}, temps: map[int]map[string]int{}}
		for _, a := range e.Arbitres {
			for _, t := range a.Tables {
				p.arbitres[t] = a.Arbitre
			}
		}
		for _, l := range e.Joueurs {
			p.premier[l] = 1
			p.ordre = append(p.ordre, l)
		}
		c.parties[id] = p
		c.ordre = append(c.ordre, id)
		return nil
	}
	if kind != streamname.KindPartie {
		return nil
	}
	p := c.parties[id]
	if p == nil {
		return fmt.Errorf("standings: événement de la partie %s avant sa création", id)
	}
	if coup, licence, d, ok := duplicate.DecisionImposee(e); ok {
		if p.decisions[coup] == nil {
			p.decisions[coup] = map[string]correction.Decision{}
		}
		p.decisions[coup][licence] = d
		return nil
	}
	switch e := e.(type) {
	case duplicate.TopRetenu:
		p.tops[e.Coup] = e.Score
	case duplicate.TopTrouve:
		if p.temps[e.Coup] == nil {
			p.temps[e.Coup] = map[string]int{}
		}
		p.temps[e.Coup][e.Licence] = e.Secondes
	case duplicate.SanctionDisciplinaire:
		p.discipline.Appliquer(e)
	case duplicate.CoupAnnule:
		delete(p.tops, e.Coup)
		delete(p.decisions, e.Coup)
		delete(p.temps, e.Coup)
		p.discipline.Appliquer(e)
	case duplicate.JoueurArrive:
		p.premier[e.Licence] = e.PremierCoup
		p.ordre = append(p.ordre, e.Licence)
	case duplicate.JoueurRetire:
		delete(p.premier, e.Licence)
		p.ordre = slices.DeleteFunc(p.ordre, func(l string) bool { return l == e.Licence })
	case duplicate.PartieTerminee:
		fin := e
		p.fin = &fin
	case duplicate.EliminationsAnnulees:
		if Rouverte(p.fin, e) {
			p.fin = nil
		}
	case duplicate.ResultatsClos:
		// §5.7: a bulletin confirmed missing is a zéro.
		for _, m := range e.Manquants {
			if p.decisions[m.Coup] == nil {
				p.decisions[m.Coup] = map[string]correction.Decision{}
			}
			p.decisions[m.Coup][m.Licence] = duplicate.DecisionManquant()
		}
		p.clos = true
	}
	return nil
}

// Rouverte reports that undoing the eliminations e reopens a game that
// ended as fin: the elimination left one player (duplicate.FinVainqueur)
// on that coup.
func Rouverte(fin *duplicate.PartieTerminee, e duplicate.EliminationsAnnulees) bool {
	return fin != nil && fin.Motif == duplicate.FinVainqueur && fin.DernierCoup == e.Coup
}

// AppliquerEvenement folds a recorded event after decoding it with the registry.
func AppliquerEvenement(c *Classement, r *eventstore.Registry, e eventstore.Event) error {
	payload, err := r.Decode(e)
	if err != nil {
		return err
	}
	return c.Appliquer(e.Stream, payload)
}

// Reconstruire folds the whole archive.
func Reconstruire(ctx context.Context, store eventstore.Reader, r *eventstore.Registry) (*Classement, error) {
	c := New()
	if _, err := eventstore.ForEachAfter(ctx, store, 0, func(e eventstore.Event) error {
		return AppliquerEvenement(c, r, e)
	}); err != nil {
		return nil, err
	}
	return c, nil
}

// coupsComptes lists the coups that count: every topped coup, up to the
// last valid one of an interrupted game; none if the game was annulled
// (§3.7, guide §2.13).
func (p *partie) coupsComptes() []int {
	var out []int
	for coup := range p.tops {
		if p.fin != nil && p.fin.Motif == duplicate.FinInterruption && (p.fin.Annulee || coup > p.fin.DernierCoup) {
			continue
		}
		out = append(out, coup)
	}
	sort.Ints(out)
	return out
}

// decision is what a player's coup counts: the decision in force with the
// director's disciplinary decisions applied (duplicate.Discipline.Decision,
// the aggregate's rule); false while nothing decides the score.
func (p *partie) decision(coup int, licence string) (correction.Decision, bool) {
	d, ok := p.decisions[coup][licence]
	return p.discipline.Decision(coup, licence, d, ok)
}

// brut is a player's points on a coup before any penalty (duplicate.Points,
// the aggregate's rule): zero for a coup played before a late arrival (§6.2)
// or without correction yet; for an average, the mean of the other players
// of the same arbiter not on an average, rounded to the nearest point,
// capped by the solution the player proposed (guide §2.10, §5.9); the
// annulled scores of an excluded player (§6.1), in annules, are not among
// them and count zero for him. In a topping (§3.8.4), a coup whose time is
// recorded scores its top, found or given.
func (p *partie) brut(coup int, licence string, arbitres map[string]string, annules map[string]bool) (score int, corrige bool) {
	if coup < p.premier[licence] || annules[licence] {
		return 0, true
	}
	if p.config.Mode == duplicate.ModeTopping {
		if _, ok := p.temps[coup][licence]; ok {
			return p.tops[coup], true
		}
		return 0, false
	}
	d, ok := p.decision(coup, licence)
	if !ok {
		return 0, false
	}
	s, _, moyenne := duplicate.Points(d)
	if !moyenne {
		return s, true
	}
	somme, n := 0, 0
	for _, l := range p.ordre {
		if l == licence || annules[l] || arbitres[l] != arbitres[licence] {
			continue
		}
		if o, ok := p.decision(coup, l); ok {
			if os, _, om := duplicate.Points(o); !om {
				somme += os
				n++
			}
		}
	}
	m := 0
	if n > 0 {
		m = int(math.Round(float64(somme) / float64(n)))
	}
	return min(m, d.AverageCap), true
}

// annule reports that the player's scores of game p are annulled (§6.1):
// he was excluded in it, or excluded later by a decision that annuls his
// earlier games of the competition.
func (c *Classement) annule(p *partie, licence string) bool {
	if p.discipline.Exclu(licence) {
		return true
	}
	x, ok := c.exclusions[exclusion{p.tournoi, licence}]
	if !ok || !x.AnnulerParties {
		return false
	}
	q := c.parties[x.Partie]
	return q == nil || p.numero <= q.numero
}

// Regard is who reads the standings: « le ou les solos sont annoncés par
// le juge-arbitre en fin de partie » (§3.5).
type Regard int

// The readers of the standings.
const (
	// Public sees no solo of a game still being played: no count, no bonus,
	// no score including one.
	Public Regard = iota
	// Directeur sees every solo as soon as it is scored.
	Directeur
)

// Partie returns the public standings of one game (PartiePour, Public).
func (c *Classement) Partie(id string) ([]Ligne, error) { return c.PartiePour(id, Public) }

// PartiePour returns the standings of one game as r sees them.
func (c *Classement) PartiePour(id string, r Regard) ([]Ligne, error) {
	p := c.parties[id]
	if p == nil {
		return nil, fmt.Errorf("standings: partie %s inconnue", id)
	}
	arbitres, annules := c.arbitresEtAnnules(p)
	lignes := make([]Ligne, len(p.ordre))
	index := map[string]int{}
	for i, l := range p.ordre {
		j := c.joueurs[l]
		lignes[i] = Ligne{Licence: l, Nom: j.Nom, Serie: j.Serie, Club: j.Club, Exclu: annules[l], Provisoire: !p.clos}
		index[l] = i
	}
	bonus := len(p.ordre) >= p.config.SeuilSolo
	decisions := make([][]correction.Decision, len(p.ordre))
	annonce := p.fin != nil || r == Directeur
	for _, coup := range p.coupsComptes() {
		meilleur, auteur, egal := -1, "", false
		for i, l := range p.ordre {
			s, ok := p.brut(coup, l, arbitres, annules)
			if !ok {
				lignes[i].EnAttente++
			}
			lignes[i].Score += s
			lignes[i].Top += p.tops[coup]
			lignes[i].Temps += p.temps[coup][l]
			switch {
			case s > meilleur:
				meilleur, auteur, egal = s, l, false
			case s == meilleur:
				egal = true
			}
			if coup >= p.premier[l] && !annules[l] {
				d, _ := p.decision(coup, l)
				// §5.6: the −5 is paid on the coup.
				_, penalite, _ := duplicate.Points(d)
				lignes[i].Penalites += penalite
				lignes[i].Score -= penalite
				decisions[i] = append(decisions[i], d)
			}
		}
		// §3.5: a score above every other player's, compared before the
		// 5-point penalty; one solo per coup over every centre of the game
		// (none in a topping, where every player ends with the top),
		// announced at the end of the game.
		if auteur != "" && !egal && meilleur > 0 && p.config.Mode != duplicate.ModeTopping && annonce {
			k := index[auteur]
			lignes[k].Solos++
			if bonus {
				lignes[k].Score += 10
			}
		}
	}
	for i := range lignes {
		l := &lignes[i]
		// §5.9: from the 4th warning (6th in blitz and original formulas),
		// disciplinary ones included, each one costs 5 points, taken at the
		// end of the game; on the coup in sudden death and the départage
		// (§3.8.3, §5.9).
		tally := correction.CountWarnings(decisions[i], p.config.Gratuits())
		l.Avertissements = tally.Warnings
		l.Penalites += tally.Total
		if p.fin != nil || p.config.Elimination() {
			l.Score -= tally.Total
		}
	}
	finir(lignes)
	return lignes, nil
}

// Cumul returns the public tournament standings (CumulPour, Public).
func (c *Classement) Cumul() ([]Ligne, error) { return c.CumulPour(Public) }

// CumulPour returns the tournament standings as r sees them: the score and
// top of every normal game added. A barrage or sudden-death game adds nothing: it ranks
// the players it separates among those tied on the cumul (guide §2.14, 2020
// §3.8.3). A topping, a competition of its own ranked by time (§3.8.4), is
// left out.
func (c *Classement) CumulPour(r Regard) ([]Ligne, error) {
	total := map[string]*Ligne{}
	var ordre []string
	departages, provisoire := 0, false
	for _, id := range c.ordre {
		if c.parties[id].config.Mode == duplicate.ModeTopping {
			continue
		}
		lignes, err := c.PartiePour(id, r)
		if err != nil {
			return nil, err
		}
		if c.parties[id].config.Elimination() {
			departages++
		}
		for _, l := range lignes {
			t := total[l.Licence]
			if t == nil {
				t = &Ligne{Licence: l.Licence, Nom: l.Nom, Serie: l.Serie, Club: l.Club}
				total[l.Licence] = t
				ordre = append(ordre, l.Licence)
			}
			_, exclu := c.exclusions[exclusion{c.parties[id].tournoi, l.Licence}]
			t.Exclu = t.Exclu || exclu || l.Exclu
			provisoire = provisoire || l.Provisoire
			if c.parties[id].config.Elimination() {
				t.departage = append(t.departage, make([]int, departages-len(t.departage))...)
				t.departage[departages-1] = l.Rang
				continue
			}
			t.Score += l.Score
			t.Top += l.Top
			t.Solos += l.Solos
			t.Avertissements += l.Avertissements
			t.Penalites += l.Penalites
			t.EnAttente += l.EnAttente
		}
	}
	out := make([]Ligne, len(ordre))
	for i, l := range ordre {
		out[i] = *total[l]
		out[i].Provisoire = provisoire
	}
	finir(out)
	return out, nil
}

// ParSerie keeps the lines of one série and ranks them among themselves.
func ParSerie(lignes []Ligne, serie string) []Ligne {
	var out []Ligne
	for _, l := range lignes {
		if l.Serie == serie {
			out = append(out, l)
		}
	}
	finir(out)
	return out
}

// finir computes négatif, percentage and rank with ties (equal scores
// share the rank unless a départage game separates them, the next rank
// skips), sorted by rank then licence.
func finir(lignes []Ligne) {
	for i := range lignes {
		l := &lignes[i]
		l.Negatif = l.Score - l.Top
		if l.Top > 0 {
			l.Pourcentage = math.Round(10000*float64(l.Score)/float64(l.Top)) / 100
		}
	}
	sort.SliceStable(lignes, func(i, j int) bool {
		if c := departager(lignes[i], lignes[j]); c != 0 {
			return c < 0
		}
		return lignes[i].Licence < lignes[j].Licence
	})
	for i := range lignes {
		if i > 0 && departager(lignes[i], lignes[i-1]) == 0 {
			lignes[i].Rang = lignes[i-1].Rang
		} else {
			lignes[i].Rang = i + 1
		}
	}
}

// departager orders two lines: an excluded player after everyone (§6.1),
// then the higher score first, then the shorter topping time (§3.8.4); on
// equal scores and times, the better rank in the
// first départage game both played (guide §2.14); 0 when nothing separates
// them.
func departager(a, b Ligne) int {
	if a.Exclu != b.Exclu {
		if a.Exclu {
			return 1
		}
		return -1
	}
	if a.Score != b.Score {
		return b.Score - a.Score
	}
	if a.Temps != b.Temps {
		return a.Temps - b.Temps
	}
	for k := range min(len(a.departage), len(b.departage)) {
		if a.departage[k] > 0 && b.departage[k] > 0 && a.departage[k] != b.departage[k] {
			return a.departage[k] - b.departage[k]
		}
	}
	return 0
}
