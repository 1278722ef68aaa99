package federation

import (
	"arbitre/domain/erreur"
	"slices"
	"strings"
)

// CoupFeuille is one coup of a duplicate game as played: its tirage (the
// letters on the stand, sorted) and, once retained, its top.
type CoupFeuille struct {
	Coup   int
	Tirage string
	Retenu bool
	Ref    string
	Mot    string
	Top    int
}

// Feuille is a duplicate game as played, coup by coup, as its bundle's
// events tell it: what the principal checks a twinned site's game against
// (guide §2.18.1.A: the games are drawn at the principal and played as
// they are at every site).
type Feuille struct {
	Coups []CoupFeuille
	// SeuilSolo is the number of players from whom a solo earns its 10
	// points (§3.5).
	SeuilSolo int
}

// BonusSolo is what a solo earns from SeuilSolo players on (§3.5).
const BonusSolo = 10

// TrierTirage writes a tirage's letters in one order, whatever order they
// were typed or drawn in.
func TrierTirage(lettres string) string {
	l := strings.Split(lettres, "")
	slices.Sort(l)
	return strings.Join(l, "")
}

// coup is the coup numbered n of the sheet.
func (f Feuille) coup(n int) (CoupFeuille, bool) {
	i := slices.IndexFunc(f.Coups, func(c CoupFeuille) bool { return c.Coup == n })
	if i < 0 {
		return CoupFeuille{}, false
	}
	return f.Coups[i], true
}

// Controle is what the principal knows when a twinned site's results come
// (guide §2.18.1.C, §2.18.2.C): its own game's sheet, the site's game as
// its bundle plays it, the licences of the principal's own players, and the
// other sites' results given along with it (a ranking's bundles).
type Controle struct {
	Principal Feuille
	Site      Feuille
	Licences  []string
	Autres    []ResultatsCentre
}

// PaquetSite is a centre's results of one game as its bundle gives them,
// with the game as the bundle plays it.
type PaquetSite struct {
	Resultats ResultatsCentre
	Feuille   Feuille
}

// ScoresDesSites are the players' scores of the centres' bundles, bundle
// by bundle: what the twinned rankings rank (guide §2.18.1.C, §2.18.2.C).
// One site's game given twice would count twice: it is refused
// (INVALID_RESULTS).
func ScoresDesSites(paquets []PaquetSite) ([]ScorePartie, error) {
	var scores []ScorePartie
	vus := map[[2]string]bool{}
	for _, p := range paquets {
		cle := [2]string{p.Resultats.Centre, p.Resultats.Partie}
		if vus[cle] {
			return nil, erreur.Refus(CodeResultatsInvalides, "le paquet du site %s pour la partie %s est donné deux fois", cle[0], cle[1])
		}
		vus[cle] = true
		for _, j := range p.Resultats.Joueurs {
			scores = append(scores, ScorePartie{Site: p.Resultats.Centre, Partie: p.Resultats.Partie,
				Licence: j.Licence, Nom: j.Nom, Serie: j.Serie, Score: j.Score})
		}
	}
	return scores, nil
}

// VerifierSite refuses a site's results that the principal's game does not
// allow: a coup the principal has not drawn, or whose tirage or top
// differs from the principal's (another game than the twinned one); a
// player's points on a coup above that coup's top, or a score above the
// sum of the tops (and of the solos' bonuses the game can give); a licence
// already used in the twinning, by a player of the principal or of another
// site (its results received, or given along). It records nothing.
func (j *Jumelage) VerifierSite(r ResultatsCentre, c Controle) error {
	tops := map[int]int{}
	for _, s := range c.Site.Coups {
		p, ok := c.Principal.coup(s.Coup)
		switch {
		case !ok:
			return erreur.Refus(CodeResultatsInvalides, "le site %s a joué un coup %d que le principal n'a pas tiré dans la partie %s", r.Centre, s.Coup, r.Partie)
		case p.Tirage != s.Tirage:
			return erreur.Refus(CodeResultatsInvalides, "partie %s, coup %d : tirage %s au site %s, %s au principal ; seule la partie du principal est classée",
				r.Partie, s.Coup, s.Tirage, r.Centre, p.Tirage)
		case s.Retenu && (!p.Retenu || p.Ref != s.Ref || p.Mot != s.Mot || p.Top != s.Top):
			return erreur.Refus(CodeResultatsInvalides, "partie %s, coup %d : top %s %s (%d) au site %s, autre que celui du principal",
				r.Partie, s.Coup, s.Mot, s.Ref, s.Top, r.Centre)
		}
		if p.Retenu {
			tops[p.Coup] = p.Top
		}
	}
	somme := 0
	for _, t := range tops {
		somme += t
	}
	if len(r.Joueurs) >= c.Principal.SeuilSolo {
		somme += BonusSolo * len(tops)
	}
	deja := map[string]string{}
	for _, l := range c.Licences {
		deja[l] = "au principal " + j.principal
	}
	autres := slices.Clone(c.Autres)
	for _, recus := range j.resultats {
		autres = append(autres, recus.Resultats)
	}
	for _, autre := range autres {
		if autre.Centre != r.Centre {
			for _, p := range autre.Joueurs {
				deja[p.Licence] = "au site " + autre.Centre
			}
		}
	}
	for _, p := range r.Joueurs {
		if ou, ok := deja[p.Licence]; ok {
			return erreur.Refus(CodeResultatsInvalides, "la licence %s du site %s joue déjà dans le jumelage %s, %s", p.Licence, r.Centre, j.id, ou)
		}
		for i, points := range p.Points {
			if top := tops[i+1]; points > top {
				return erreur.Refus(CodeResultatsInvalides, "site %s, joueur %s, coup %d : %d points, au-dessus du top (%d)", r.Centre, p.Licence, i+1, points, top)
			}
		}
		if p.Score > somme {
			return erreur.Refus(CodeResultatsInvalides, "site %s, joueur %s : %d points, au-dessus du total des tops (%d)", r.Centre, p.Licence, p.Score, somme)
		}
	}
	return nil
}
