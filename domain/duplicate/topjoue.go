package duplicate

import (
	"strings"

	"arbitre/domain/erreur"
	"arbitre/engine/board"
	"arbitre/engine/tile"
)

// exigerTopJoue applies the option of guide §2.3, « la solution retenue
// [doit avoir] été jouée par au moins un des joueurs en lice »: the top is
// the best-scoring playable solution among the coup's bulletins, and
// RetenirTop refuses any other (TOP_NOT_PLAYED, NOT_MAX_SCORE). It reports
// false, leaving the engine's rules of §3.4 to apply, when the option is
// off or no bulletin holds a playable solution (ruling: the game must go
// on, and guide §2.15 falls back on the software's top likewise).
func (p *Partie) exigerTopJoue(coup int, ref board.Ref, mot []tile.Tile, score int) (bool, error) {
	if !p.config.TopJoue {
		return false, nil
	}
	meilleur, retenu := -1, false
	for _, b := range p.deposes[coup].tous() {
		for _, s := range b.Bulletin.Solutions {
			r, w, ok := solutionLue(s.Ref, s.Word)
			if s.Crossed || !ok {
				continue
			}
			res := p.moteur.Verifier(&p.grille, r, w, &p.lettres.rack)
			if !res.Playable() {
				continue
			}
			meilleur = max(meilleur, int(res.Score))
			retenu = retenu || (r == ref && tile.WordText(w) == tile.WordText(mot))
		}
	}
	switch {
	case meilleur < 0:
		return false, nil
	case !retenu:
		return true, erreur.Refus(CodeTopNotPlayed, "%s en %s n'a été joué par aucun joueur (guide §2.3)", tile.WordText(mot), ref.String())
	case score < meilleur:
		return true, erreur.Refus(CodeNotMaxScore, "%s en %s vaut %d points ; un joueur a joué un coup de %d points (guide §2.3)", tile.WordText(mot), ref.String(), score, meilleur)
	}
	return true, nil
}

// solutionLue reads a bulletin's solution as a top is written: the
// reference, and the word with the letter a joker stands for, circled on
// the bulletin (§4.2), in lower case.
func solutionLue(ref *string, mot string) (board.Ref, []tile.Tile, bool) {
	if ref == nil {
		return board.Ref{}, nil, false
	}
	r, err := board.ParseRef(*ref)
	if err != nil {
		return board.Ref{}, nil, false
	}
	var b strings.Builder
	for i := 0; i < len(mot); i++ {
		if mot[i] == '(' && i+2 < len(mot) && mot[i+2] == ')' {
			b.WriteString(strings.ToLower(mot[i+1 : i+2]))
			i += 2
			continue
		}
		b.WriteByte(mot[i])
	}
	w, err := lireMot(b.String())
	return r, w, err == nil
}
