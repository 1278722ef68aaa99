package federation

import (
	"slices"
	"sort"
)

// ScorePartie is a player's score in one game at one site of a twinning.
type ScorePartie struct {
	Site    string `json:"site"`
	Partie  string `json:"partie"`
	Licence string `json:"licence"`
	Nom     string `json:"nom"`
	Serie   string `json:"serie"`
	Score   int    `json:"score"`
}

// LigneJumelee is a player's line of a twinned ranking.
type LigneJumelee struct {
	Site    string `json:"site"`
	Licence string `json:"licence"`
	Nom     string `json:"nom"`
	Serie   string `json:"serie"`
	Score   int    `json:"score"`
	Rang    int    `json:"rang"`
	// Injecte marks a satellite player placed individually in the
	// principal's ranking (§2.18.1.C): he takes no place from anyone.
	Injecte bool `json:"injecte,omitempty"`
}

// Caracteristiques are what the points of a ranking depend on: its
// players, in all and per série (§2.18.1.C, §2.18.2.C).
type Caracteristiques struct {
	Joueurs  int            `json:"joueurs"`
	ParSerie map[string]int `json:"parSerie"`
}

// ClassementJumele is the twinning's ranking.
type ClassementJumele struct {
	Formule          Formule          `json:"formule"`
	Classement       []LigneJumelee   `json:"classement"`
	Caracteristiques Caracteristiques `json:"caracteristiques"`
	// Isoles are the sites ranked on their own: in formula 2, the sites
	// detached from the twinning (§2.18.2.C).
	Isoles map[string][]LigneJumelee `json:"isoles,omitempty"`
}

// Classement ranks the twinning's scores. Formula 1 (§2.18.1.C): the
// principal's ranking holds its own players only, its characteristics
// count them alone, and each satellite player is placed individually
// against it on the cumul of the games his centre played normally (the
// principal's players counted on the same games). Formula 2 (§2.18.2.C):
// one ranking of every site still twinned, its characteristics counted over
// all of them; a detached site is ranked on its own.
func (j *Jumelage) Classement(scores []ScorePartie) ClassementJumele {
	out := ClassementJumele{Formule: j.formule}
	if j.formule == FormuleSatellites {
		principal := cumuler(scores, func(s ScorePartie) bool { return s.Site == j.principal })
		out.Classement = classer(principal)
		out.Caracteristiques = caracteristiques(principal)
		for _, site := range j.sites {
			joues := func(partie string) bool { return !j.annulees[[2]string{site, partie}] }
			base := cumuler(scores, func(s ScorePartie) bool { return s.Site == j.principal && joues(s.Partie) })
			for _, l := range cumuler(scores, func(s ScorePartie) bool { return s.Site == site && joues(s.Partie) }) {
				l.Rang, l.Injecte = 1, true
				for _, p := range base {
					if p.Score > l.Score {
						l.Rang++
					}
				}
				out.Classement = append(out.Classement, l)
			}
		}
		sort.SliceStable(out.Classement, func(a, b int) bool { return out.Classement[a].Rang < out.Classement[b].Rang })
		return out
	}
	sites := append([]string{j.principal}, j.sites...)
	unique := cumuler(scores, func(s ScorePartie) bool { return slices.Contains(sites, s.Site) && !j.detaches[s.Site] })
	out.Classement = classer(unique)
	out.Caracteristiques = caracteristiques(unique)
	for _, site := range sites {
		if j.detaches[site] {
			if out.Isoles == nil {
				out.Isoles = map[string][]LigneJumelee{}
			}
			out.Isoles[site] = classer(cumuler(scores, func(s ScorePartie) bool { return s.Site == site }))
		}
	}
	return out
}

// cumuler adds up, per player, the scores garder keeps, in the order the
// players first appear.
func cumuler(scores []ScorePartie, garder func(ScorePartie) bool) []LigneJumelee {
	var out []LigneJumelee
	index := map[string]int{}
	for _, s := range scores {
		if !garder(s) {
			continue
		}
		i, ok := index[s.Licence]
		if !ok {
			i = len(out)
			index[s.Licence] = i
			out = append(out, LigneJumelee{Site: s.Site, Licence: s.Licence, Nom: s.Nom, Serie: s.Serie})
		}
		out[i].Score += s.Score
	}
	return out
}

func (l *LigneJumelee) cle() (int, string) { return l.Score, l.Licence }
func (l *LigneJumelee) placer(rang int)    { l.Rang = rang }

func caracteristiques(lignes []LigneJumelee) Caracteristiques {
	c := Caracteristiques{Joueurs: len(lignes), ParSerie: map[string]int{}}
	for _, l := range lignes {
		c.ParSerie[l.Serie]++
	}
	return c
}
