package archive

import (
	"errors"
	"fmt"

	"arbitre/domain/classique/tournoiclassique"
	"arbitre/domain/erreur"
)

// verifier checks what lines say together: what a player's lines repeat
// agrees, a player plays a game once, and (classique) the two lines of a
// match mirror each other and every bye counts the tournament's bye: the
// document's Exempt, else the first bye line's values (the default ones
// without any bye), which Exempt then holds. numeros are the lines' numbers
// in the file, ligneExempt the line that gave Exempt (0: none).
func (d *Document) verifier(numeros []int, ligneExempt int) error {
	if d.Genre != GenreClassique {
		return verifierDuplicate(d.Duplicate, numeros)
	}
	if d.Exempt == nil {
		d.Exempt = exemptParDefaut()
		for i, l := range d.Classique {
			if l.Match == "" {
				d.Exempt, ligneExempt = &tournoiclassique.Exempt{PointsDeMatch: l.PointsDeMatch, Score: l.Score, ScoreAdverse: l.ScoreAdversaire}, numeros[i]
				break
			}
		}
	}
	if err := (tournoiclassique.Config{Exempt: *d.Exempt}).Valider(); err != nil {
		var e *erreur.Erreur
		if !errors.As(err, &e) {
			return err
		}
		return refus(ligneExempt, "exempt", "%s", e.Message)
	}
	return verifierClassique(d.Classique, numeros, *d.Exempt)
}

// premiere remembers, per key, the first line that named it.
type premiere[K comparable] map[K]int

// accord refuses line i when what it repeats differs from the first line
// with its key.
func accord[K comparable, V comparable](p premiere[K], cle K, i int, numeros []int, champ string, valeur func(int) V) error {
	j, ok := p[cle]
	if !ok {
		p[cle] = i
		return nil
	}
	if a, b := valeur(i), valeur(j); a != b {
		return refus(numeros[i], champ, "%s « %v » diffère de la ligne %d (« %v »)", champ, a, numeros[j], b)
	}
	return nil
}

// unique refuses line i when its key was already seen.
func unique[K comparable](p premiere[K], cle K, i int, numeros []int, champ, quoi string) error {
	if j, ok := p[cle]; ok {
		return refus(numeros[i], champ, "%s figure déjà ligne %d", quoi, numeros[j])
	}
	p[cle] = i
	return nil
}

// repete is a column a player's lines repeat.
type repete[L any] struct {
	champ  string
	valeur func(L) any
}

// accordJoueur refuses line i when a column the player's lines repeat
// differs from his first line, naming the column.
func accordJoueur[L any](p premiere[string], licence string, i int, lignes []L, numeros []int, colonnes []repete[L]) error {
	for _, c := range colonnes {
		if err := accord(p, licence, i, numeros, c.champ, func(k int) any { return c.valeur(lignes[k]) }); err != nil {
			return err
		}
	}
	return nil
}

var repetesDuplicate = []repete[LigneDuplicate]{
	{"nom", func(l LigneDuplicate) any { return l.Nom }}, {"club", func(l LigneDuplicate) any { return l.Club }},
	{"serie", func(l LigneDuplicate) any { return l.Serie }}, {"cumul", func(l LigneDuplicate) any { return l.Cumul }},
	{"top_cumul", func(l LigneDuplicate) any { return l.TopCumul }},
	{"pourcentage", func(l LigneDuplicate) any { return l.Pourcentage }},
	{"rang_general", func(l LigneDuplicate) any { return l.RangGeneral }},
}

var repetesClassique = []repete[LigneClassique]{
	{"nom", func(l LigneClassique) any { return l.Nom }}, {"club", func(l LigneClassique) any { return l.Club }},
	{"cote_avant", func(l LigneClassique) any { return l.CoteAvant }},
	{"cote_apres", func(l LigneClassique) any { return l.CoteApres }},
}

func verifierDuplicate(lignes []LigneDuplicate, numeros []int) error {
	parties, numerosParties, joueurs, jeux := premiere[string]{}, premiere[int]{}, premiere[string]{}, premiere[[2]string]{}
	for i, l := range lignes {
		if err := unique(jeux, [2]string{l.Partie, l.Licence}, i, numeros, "licence",
			"le résultat du joueur "+l.Licence+" dans la partie "+l.Partie); err != nil {
			return err
		}
		if err := accord(parties, l.Partie, i, numeros, "numero", func(k int) int { return lignes[k].Numero }); err != nil {
			return err
		}
		if err := accord(parties, l.Partie, i, numeros, "top", func(k int) int { return lignes[k].Top }); err != nil {
			return err
		}
		if err := accord(numerosParties, l.Numero, i, numeros, "partie", func(k int) string { return lignes[k].Partie }); err != nil {
			return err
		}
		if err := accordJoueur(joueurs, l.Licence, i, lignes, numeros, repetesDuplicate); err != nil {
			return err
		}
	}
	return nil
}

func verifierClassique(lignes []LigneClassique, numeros []int, exempt tournoiclassique.Exempt) error {
	rondes, joueurs, matchs := premiere[[2]any]{}, premiere[string]{}, map[string][]int{}
	for i, l := range lignes {
		if l.Adversaire == l.Licence {
			return refus(numeros[i], "adversaire", "le joueur %s ne joue pas contre lui-même", l.Licence)
		}
		if (l.Match == "") != (l.Adversaire == "") {
			return refus(numeros[i], "match", "un match a un adversaire, un exempt n'a ni match ni adversaire")
		}
		if err := unique(rondes, [2]any{l.Licence, l.Ronde}, i, numeros, "ronde",
			fmt.Sprintf("la ronde %d du joueur %s", l.Ronde, l.Licence)); err != nil {
			return err
		}
		if err := accordJoueur(joueurs, l.Licence, i, lignes, numeros, repetesClassique); err != nil {
			return err
		}
		if l.Match == "" {
			if exempte := Exempte(l.Ronde, l.Licence, l.Nom, l.Club, [2]int{l.CoteAvant, l.CoteApres}, exempt); l != exempte {
				return refus(numeros[i], "score", "un exempt compte %d–%d et %d points de match dans ce tournoi",
					exempte.Score, exempte.ScoreAdversaire, exempte.PointsDeMatch)
			}
			continue
		}
		m := matchs[l.Match]
		if len(m) == 2 {
			return refus(numeros[i], "match", "le match %s a déjà ses deux lignes (%d et %d)", l.Match, numeros[m[0]], numeros[m[1]])
		}
		if len(m) == 1 {
			a := lignes[m[0]]
			miroir := LigneClassique{Ronde: a.Ronde, Match: a.Match, Licence: a.Adversaire, Adversaire: a.Licence,
				Score: a.ScoreAdversaire, ScoreAdversaire: a.Score}
			vu := LigneClassique{Ronde: l.Ronde, Match: l.Match, Licence: l.Licence, Adversaire: l.Adversaire,
				Score: l.Score, ScoreAdversaire: l.ScoreAdversaire}
			if vu != miroir {
				return refus(numeros[i], "match", "le match %s ne reprend pas la ligne %d en miroir (ronde, joueurs, scores)", l.Match, numeros[m[0]])
			}
		}
		matchs[l.Match] = append(m, i)
	}
	for i, l := range lignes {
		if l.Match != "" && len(matchs[l.Match]) != 2 {
			return refus(numeros[i], "match", "le match %s n'a qu'une ligne : celle de l'adversaire %s manque", l.Match, l.Adversaire)
		}
	}
	return nil
}
