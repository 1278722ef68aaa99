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

// unique refuses line i when its key was already seen; quoi names the
// key in the refusal, made only then (a file is thousands of lines).
func unique[K comparable](p premiere[K], cle K, i int, numeros []int, champ string, quoi func() string) error {
	if j, ok := p[cle]; ok {
		return refus(numeros[i], champ, "%s figure déjà ligne %d", quoi(), numeros[j])
	}
	p[cle] = i
	return nil
}

// repete is a column a player's lines repeat: egal compares two lines'
// values as they are, valeur gives one for a refusal.
type repete[L any] struct {
	champ  string
	egal   func(a, b *L) bool
	valeur func(*L) any
}

// colonneRepetee is the column champ whose value v gives.
func colonneRepetee[L any, V comparable](champ string, v func(*L) V) repete[L] {
	return repete[L]{champ: champ, egal: func(a, b *L) bool { return v(a) == v(b) }, valeur: func(l *L) any { return v(l) }}
}

// accordJoueur refuses line i when a column the player's lines repeat
// differs from his first line, naming the column.
func accordJoueur[L any](p premiere[string], licence string, i int, lignes []L, numeros []int, colonnes []repete[L]) error {
	j, ok := p[licence]
	if !ok {
		p[licence] = i
		return nil
	}
	for _, c := range colonnes {
		if !c.egal(&lignes[i], &lignes[j]) {
			return refus(numeros[i], c.champ, "%s « %v » diffère de la ligne %d (« %v »)", c.champ, c.valeur(&lignes[i]), numeros[j], c.valeur(&lignes[j]))
		}
	}
	return nil
}

var repetesDuplicate = []repete[LigneDuplicate]{
	colonneRepetee("nom", func(l *LigneDuplicate) string { return l.Nom }),
	colonneRepetee("club", func(l *LigneDuplicate) string { return l.Club }),
	colonneRepetee("serie", func(l *LigneDuplicate) string { return l.Serie }),
	colonneRepetee("cumul", func(l *LigneDuplicate) int { return l.Cumul }),
	colonneRepetee("top_cumul", func(l *LigneDuplicate) int { return l.TopCumul }),
	colonneRepetee("pourcentage", func(l *LigneDuplicate) float64 { return l.Pourcentage }),
	colonneRepetee("rang_general", func(l *LigneDuplicate) int { return l.RangGeneral }),
}

var repetesClassique = []repete[LigneClassique]{
	colonneRepetee("nom", func(l *LigneClassique) string { return l.Nom }),
	colonneRepetee("club", func(l *LigneClassique) string { return l.Club }),
	colonneRepetee("cote_avant", func(l *LigneClassique) int { return l.CoteAvant }),
	colonneRepetee("cote_apres", func(l *LigneClassique) int { return l.CoteApres }),
}

func verifierDuplicate(lignes []LigneDuplicate, numeros []int) error {
	parties, numerosParties, joueurs, jeux := premiere[string]{}, premiere[int]{}, premiere[string]{}, premiere[[2]string]{}
	for i, l := range lignes {
		if err := unique(jeux, [2]string{l.Partie, l.Licence}, i, numeros, "licence",
			func() string { return "le résultat du joueur " + l.Licence + " dans la partie " + l.Partie }); err != nil {
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
	type rondeDe struct {
		licence string
		ronde   int
	}
	// lignesDuMatch are a match's lines met so far: n of them, at k.
	type lignesDuMatch struct {
		k [2]int
		n int
	}
	rondes, joueurs, matchs := premiere[rondeDe]{}, premiere[string]{}, map[string]lignesDuMatch{}
	for i, l := range lignes {
		if l.Adversaire == l.Licence {
			return refus(numeros[i], "adversaire", "le joueur %s ne joue pas contre lui-même", l.Licence)
		}
		if (l.Match == "") != (l.Adversaire == "") {
			return refus(numeros[i], "match", "un match a un adversaire, un exempt n'a ni match ni adversaire")
		}
		if err := unique(rondes, rondeDe{l.Licence, l.Ronde}, i, numeros, "ronde",
			func() string { return fmt.Sprintf("la ronde %d du joueur %s", l.Ronde, l.Licence) }); err != nil {
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
		if m.n == 2 {
			return refus(numeros[i], "match", "le match %s a déjà ses deux lignes (%d et %d)", l.Match, numeros[m.k[0]], numeros[m.k[1]])
		}
		if m.n == 1 {
			a := lignes[m.k[0]]
			miroir := LigneClassique{Ronde: a.Ronde, Match: a.Match, Licence: a.Adversaire, Adversaire: a.Licence,
				Score: a.ScoreAdversaire, ScoreAdversaire: a.Score}
			vu := LigneClassique{Ronde: l.Ronde, Match: l.Match, Licence: l.Licence, Adversaire: l.Adversaire,
				Score: l.Score, ScoreAdversaire: l.ScoreAdversaire}
			if vu != miroir {
				return refus(numeros[i], "match", "le match %s ne reprend pas la ligne %d en miroir (ronde, joueurs, scores)", l.Match, numeros[m.k[0]])
			}
		}
		m.k[m.n] = i
		m.n++
		matchs[l.Match] = m
	}
	for i, l := range lignes {
		if l.Match != "" && matchs[l.Match].n != 2 {
			return refus(numeros[i], "match", "le match %s n'a qu'une ligne : celle de l'adversaire %s manque", l.Match, l.Adversaire)
		}
	}
	return nil
}
