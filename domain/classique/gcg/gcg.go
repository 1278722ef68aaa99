// Package gcg exports a classique match as a GCG file (the Poslfit game
// format read by Quackle, Macondo and most annotation tools) so players can
// study their games: UTF-8, the French letter distribution and the lexicon
// named in pragmas, jokers in lower case, letters already on the grid as
// '.', coordinates in GCG order (row number then column letter for a
// horizontal word, the other way round for a vertical one).
//
// French rules have penalties GCG has no event for (§4.1.3, §5.3, §8, §9):
// each is written as a time-penalty line ("(time) -5") preceded by a #note
// naming the real reason, so every cumulative score stays right for readers.
package gcg

import (
	"fmt"
	"strings"

	"arbitre/domain/classique/partie"
	"arbitre/engine/board"
)

// Export renders the match's journal as GCG text.
func Export(p *partie.Partie) (string, error) {
	c := p.Creation()
	var b strings.Builder
	b.WriteString("#character-encoding UTF-8\n")
	for j, id := range c.Joueurs {
		if strings.ContainsAny(id, " \t\n") {
			return "", fmt.Errorf("gcg: player id %q contains a space", id)
		}
		fmt.Fprintf(&b, "#player%d %s %s\n", j+1, id, id)
	}
	if c.Tournoi != "" {
		fmt.Fprintf(&b, "#title %s ronde %d table %d\n", c.Tournoi, c.Ronde, c.Table)
	}
	fmt.Fprintf(&b, "#id arbitre %s\n", c.Match)
	fmt.Fprintf(&b, "#lexicon %s\n", c.Lexique)
	b.WriteString("#tile-distribution french\n")
	b.WriteString("#game-type classic\n")
	b.WriteString("#note FISF classique rules (fisf-reglement-classique.txt); 102 tiles, French values.\n")
	for _, coup := range p.Journal() {
		nick := c.Joueurs[coup.Joueur]
		switch coup.Genre {
		case partie.CoupPlacement:
			pos, err := position(coup.Ref)
			if err != nil {
				return "", err
			}
			fmt.Fprintf(&b, ">%s: %s %s %s +%d %d\n", nick, coup.Chevalet, pos, coup.Pose, coup.Points, coup.Cumul)
		case partie.CoupPasse:
			fmt.Fprintf(&b, ">%s: %s - +0 %d\n", nick, coup.Chevalet, coup.Cumul)
		case partie.CoupEchange:
			fmt.Fprintf(&b, ">%s: %s -%s +0 %d\n", nick, coup.Chevalet, coup.Lettres, coup.Cumul)
		case partie.CoupRetrait:
			fmt.Fprintf(&b, ">%s: %s -- %d %d\n", nick, coup.Chevalet, coup.Points, coup.Cumul)
		case partie.CoupPenaliteContestation, partie.CoupPenalite:
			motif := "contestation à tort (§5.3)"
			if coup.Genre == partie.CoupPenalite {
				motif = "pénalité " + coup.Motif
			}
			fmt.Fprintf(&b, "#note %s: %s, %d points\n", nick, motif, coup.Points)
			fmt.Fprintf(&b, ">%s: %s (time) %d %d\n", nick, rackOrDash(coup.Chevalet), coup.Points, coup.Cumul)
		case partie.CoupFin:
			if coup.Points > 0 {
				fmt.Fprintf(&b, ">%s: (%s) +%d %d\n", nick, coup.Lettres, coup.Points, coup.Cumul)
			} else {
				fmt.Fprintf(&b, ">%s: %s (%s) %d %d\n", nick, coup.Propre, coup.Propre, coup.Points, coup.Cumul)
			}
		}
	}
	if fin, ok := p.Fin(); ok {
		fmt.Fprintf(&b, "#note fin: %s, scores %d-%d, points de match %d-%d\n", fin.Fin, fin.Scores[0], fin.Scores[1], fin.PointsDeMatch[0], fin.PointsDeMatch[1])
	}
	return b.String(), nil
}

// position converts a FISF reference ("H4" horizontal, "4H" vertical) to GCG.
func position(ref string) (string, error) {
	r, err := board.ParseRef(ref)
	if err != nil {
		return "", fmt.Errorf("gcg: %w", err)
	}
	row, col := fmt.Sprint(r.Row+1), string(rune('A'+r.Col))
	if r.Vertical {
		return col + row, nil
	}
	return row + col, nil
}

func rackOrDash(rack string) string {
	if rack == "" {
		return "-"
	}
	return rack
}
