package archive

import (
	"slices"
	"strconv"
)

// PartieDuplicate is one game of an imported duplicate file: its lines in
// columns, one value per line (Ordres: the line's place in the document;
// Lignes: its line of the file). What a player's lines repeat (name, club,
// série, cumul, rank) is in Joueurs, in the event of the first game the
// file gives him: twenty years of the federation's tournaments are some
// fifteen million lines, too many for an event each, or their names
// written three times.
type PartieDuplicate struct {
	Partie   string            `json:"partie"`
	Numero   int               `json:"numero"`
	Top      int               `json:"top"`
	Ordres   []int             `json:"o"`
	Lignes   []int             `json:"l"`
	Licences []string          `json:"lic"`
	Scores   []int             `json:"sc"`
	Rangs    []int             `json:"rg"`
	Joueurs  *JoueursDuplicate `json:"j,omitempty"`
}

// JoueursDuplicate are the columns a duplicate player's lines repeat, one
// value per player.
type JoueursDuplicate struct {
	Licences      []string  `json:"lic"`
	Noms          []string  `json:"nom"`
	Clubs         []string  `json:"club"`
	Series        []string  `json:"serie"`
	Cumuls        []int     `json:"cu"`
	TopCumuls     []int     `json:"tc"`
	Pourcentages  []float64 `json:"pc"`
	RangsGeneraux []int     `json:"rgg"`
}

// MatchClassique is one match of an imported classique file, its two
// lines in columns as PartieDuplicate's, or the one line of a player
// exempt from a round (no match, no opponent). A match, not a round: the
// archive pages a tournament's games by their event's position.
type MatchClassique struct {
	Ronde            int               `json:"ronde"`
	Match            string            `json:"match,omitempty"`
	Ordres           []int             `json:"o"`
	Lignes           []int             `json:"l"`
	Licences         []string          `json:"lic"`
	Adversaires      []string          `json:"adv"`
	Scores           []int             `json:"sc"`
	ScoresAdversaire []int             `json:"sa"`
	PointsDeMatch    []int             `json:"pm"`
	Joueurs          *JoueursClassique `json:"j,omitempty"`
}

// Colonne is the players' licences, none when j is nil.
func (j *JoueursDuplicate) Colonne() []string {
	if j == nil {
		return nil
	}
	return j.Licences
}

// JoueursClassique are the columns a classique player's lines repeat.
type JoueursClassique struct {
	Licences   []string `json:"lic"`
	Noms       []string `json:"nom"`
	Clubs      []string `json:"club"`
	CotesAvant []int    `json:"ca"`
	CotesApres []int    `json:"cp"`
}

// grouper returns the lines' indexes by the key cle gives, the groups in
// the order of their first line.
func grouper[L any, K comparable](lignes []L, cle func(L) K) [][]int {
	var groupes [][]int
	place := map[K]int{}
	for i, l := range lignes {
		k := cle(l)
		g, ok := place[k]
		if !ok {
			g = len(groupes)
			place[k] = g
			groupes = append(groupes, nil)
		}
		groupes[g] = append(groupes[g], i)
	}
	return groupes
}

// partiesDuplicates puts a duplicate file's lines (numeros: their lines of
// the file) into one event per game.
func partiesDuplicates(lignes []LigneDuplicate, numeros []int) []any {
	vus := map[string]bool{}
	var out []any
	for _, g := range grouper(lignes, func(l LigneDuplicate) string { return l.Partie }) {
		p := PartieDuplicate{Partie: lignes[g[0]].Partie, Numero: lignes[g[0]].Numero, Top: lignes[g[0]].Top,
			Ordres: make([]int, 0, len(g)), Lignes: make([]int, 0, len(g)), Licences: make([]string, 0, len(g)),
			Scores: make([]int, 0, len(g)), Rangs: make([]int, 0, len(g))}
		for _, i := range g {
			l := lignes[i]
			p.Ordres, p.Lignes = append(p.Ordres, i), append(p.Lignes, numeros[i])
			p.Licences, p.Scores, p.Rangs = append(p.Licences, l.Licence), append(p.Scores, l.Score), append(p.Rangs, l.Rang)
			if vus[l.Licence] {
				continue
			}
			vus[l.Licence] = true
			if p.Joueurs == nil {
				p.Joueurs = &JoueursDuplicate{}
			}
			j := p.Joueurs
			j.Licences, j.Noms, j.Clubs, j.Series = append(j.Licences, l.Licence), append(j.Noms, l.Nom), append(j.Clubs, l.Club), append(j.Series, l.Serie)
			j.Cumuls, j.TopCumuls = append(j.Cumuls, l.Cumul), append(j.TopCumuls, l.TopCumul)
			j.Pourcentages, j.RangsGeneraux = append(j.Pourcentages, l.Pourcentage), append(j.RangsGeneraux, l.RangGeneral)
		}
		out = append(out, p)
	}
	return out
}

// matchsClassiques puts a classique file's lines into one event per
// match, and one per exempt line.
func matchsClassiques(lignes []LigneClassique, numeros []int) []any {
	vus := map[string]bool{}
	var out []any
	cle := func(l LigneClassique) [3]string {
		if l.Match == "" {
			return [3]string{strconv.Itoa(l.Ronde), "", l.Licence}
		}
		return [3]string{strconv.Itoa(l.Ronde), l.Match}
	}
	for _, g := range grouper(lignes, cle) {
		m := MatchClassique{Ronde: lignes[g[0]].Ronde, Match: lignes[g[0]].Match,
			Ordres: make([]int, 0, len(g)), Lignes: make([]int, 0, len(g)), Licences: make([]string, 0, len(g)), Adversaires: make([]string, 0, len(g)),
			Scores: make([]int, 0, len(g)), ScoresAdversaire: make([]int, 0, len(g)), PointsDeMatch: make([]int, 0, len(g))}
		for _, i := range g {
			l := lignes[i]
			m.Ordres, m.Lignes, m.Licences, m.Adversaires = append(m.Ordres, i), append(m.Lignes, numeros[i]), append(m.Licences, l.Licence), append(m.Adversaires, l.Adversaire)
			m.Scores, m.ScoresAdversaire, m.PointsDeMatch = append(m.Scores, l.Score), append(m.ScoresAdversaire, l.ScoreAdversaire), append(m.PointsDeMatch, l.PointsDeMatch)
			if vus[l.Licence] {
				continue
			}
			vus[l.Licence] = true
			if m.Joueurs == nil {
				m.Joueurs = &JoueursClassique{}
			}
			j := m.Joueurs
			j.Licences, j.Noms, j.Clubs = append(j.Licences, l.Licence), append(j.Noms, l.Nom), append(j.Clubs, l.Club)
			j.CotesAvant, j.CotesApres = append(j.CotesAvant, l.CoteAvant), append(j.CotesApres, l.CoteApres)
		}
		out = append(out, m)
	}
	return out
}

// rangee is a line and its place in the document.
type rangee[L any] struct {
	ordre int
	ligne L
}

// dans returns the lines in the order of the document.
func dans[L any](r []rangee[L]) []L {
	slices.SortFunc(r, func(a, b rangee[L]) int { return a.ordre - b.ordre })
	out := make([]L, len(r))
	for i, x := range r {
		out[i] = x.ligne
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// Lignes returns the lines of an import's events after its ImportOuvert,
// in the order of the file: from the columns of PartieDuplicate and
// MatchClassique, or the events of one line the imports recorded before
// them.
func Lignes(events []any) ([]LigneDuplicate, []LigneClassique) {
	var dup []rangee[LigneDuplicate]
	var cla []rangee[LigneClassique]
	joueursDup := map[string]LigneDuplicate{}
	joueursCla := map[string]LigneClassique{}
	for n, e := range events {
		switch ev := e.(type) {
		case ResultatDuplicate:
			dup = append(dup, rangee[LigneDuplicate]{n, ev.LigneDuplicate})
		case ResultatClassique:
			cla = append(cla, rangee[LigneClassique]{n, ev.LigneClassique})
		case PartieDuplicate:
			j := ev.Joueurs
			for k, licence := range j.Colonne() {
				joueursDup[licence] = LigneDuplicate{Nom: j.Noms[k], Club: j.Clubs[k], Serie: j.Series[k], Cumul: j.Cumuls[k],
					TopCumul: j.TopCumuls[k], Pourcentage: j.Pourcentages[k], RangGeneral: j.RangsGeneraux[k]}
			}
			for k, licence := range ev.Licences {
				l := joueursDup[licence]
				l.Partie, l.Numero, l.Licence, l.Score, l.Top, l.Rang = ev.Partie, ev.Numero, licence, ev.Scores[k], ev.Top, ev.Rangs[k]
				dup = append(dup, rangee[LigneDuplicate]{ev.Ordres[k], l})
			}
		case MatchClassique:
			j := ev.Joueurs
			for k, licence := range j.Colonne() {
				joueursCla[licence] = LigneClassique{Nom: j.Noms[k], Club: j.Clubs[k], CoteAvant: j.CotesAvant[k], CoteApres: j.CotesApres[k]}
			}
			for k, licence := range ev.Licences {
				l := joueursCla[licence]
				l.Ronde, l.Match, l.Licence, l.Adversaire = ev.Ronde, ev.Match, licence, ev.Adversaires[k]
				l.Score, l.ScoreAdversaire, l.PointsDeMatch = ev.Scores[k], ev.ScoresAdversaire[k], ev.PointsDeMatch[k]
				cla = append(cla, rangee[LigneClassique]{ev.Ordres[k], l})
			}
		}
	}
	return dans(dup), dans(cla)
}

// EnColonnes is the line as the events of an import now record it.
func (r ResultatDuplicate) EnColonnes() PartieDuplicate {
	return partiesDuplicates([]LigneDuplicate{r.LigneDuplicate}, []int{r.Ligne})[0].(PartieDuplicate)
}

// EnColonnes is the line as the events of an import now record it: a
// match of one line.
func (r ResultatClassique) EnColonnes() MatchClassique {
	return matchsClassiques([]LigneClassique{r.LigneClassique}, []int{r.Ligne})[0].(MatchClassique)
}

// Colonne is the players' licences, none when j is nil.
func (j *JoueursClassique) Colonne() []string {
	if j == nil {
		return nil
	}
	return j.Licences
}
