// Package gcg exports a classique match as a GCG file (the Poslfit game
// format read by Quackle, Macondo, Woogles and most annotation tools) so
// players can study their games: UTF-8, the French letter distribution and
// the lexicon's name in pragmas, the starting player as player 1, jokers in
// lower case, letters already on the grid as '.', coordinates in GCG order
// (row number then column letter for a horizontal word, the other way
// round for a vertical one).
//
// Every event line is standard GCG and its cumulative is what a GCG reader
// computes from the lines before it. The FISF rules GCG cannot express are
// #note lines beginning with « FISF » (docs/archive.md): the 5-point
// penalties (§4.1.3, §5.3, §8, §9), which no line takes off; §7 reliquat
// épuisé, written as the standard « (RACK) +2N » line; the endings GCG does
// not know (blocage, temps épuisé, sanctions); and last the official
// result. A withdrawn play's « -- » line follows the play itself, as GCG
// readers demand, even when the bag was empty and passes came between the
// play and its contestation (§5.2).
package gcg

import (
	"fmt"
	"strings"

	"arbitre/domain/classique/matchclassique"
	"arbitre/engine/board"
	"arbitre/engine/lexicon"
)

// Export renders the match's journal as GCG text.
func Export(p *matchclassique.Match) (string, error) {
	c := p.Creation()
	for _, id := range c.Joueurs {
		if strings.ContainsAny(id, " \t\n") {
			return "", fmt.Errorf("gcg: player id %q contains a space", id)
		}
	}
	w := &ecrivain{p: p, joueurs: c.Joueurs, ordre: [2]int{c.Premier, 1 - c.Premier}}
	b := &w.b
	b.WriteString("#character-encoding UTF-8\n")
	for i, j := range w.ordre {
		fmt.Fprintf(b, "#player%d %s %s\n", i+1, c.Joueurs[j], c.Joueurs[j])
	}
	if c.Tournoi != "" {
		fmt.Fprintf(b, "#title %s ronde %d table %d\n", c.Tournoi, c.Ronde, c.Table)
	}
	b.WriteString("#description Partie classique FISF (règlement classique, 102 lettres) : les règles sans équivalent GCG sont les notes « FISF »\n")
	fmt.Fprintf(b, "#id arbitre %s\n", c.Match)
	if nom := lexicon.Nom(c.Lexique); nom != "" {
		fmt.Fprintf(b, "#lexicon %s\n", nom)
	}
	b.WriteString("#tile-distribution french\n")
	b.WriteString("#game-type classic\n")
	for _, coup := range ordonner(p.Journal()) {
		if err := w.coup(coup); err != nil {
			return "", err
		}
	}
	if fin, ok := p.Fin(); ok {
		w.fin(fin)
	}
	return b.String(), nil
}

// Jouee reports whether the match has a coup to write: without one (a
// forfeit, an abandon before the first word) a GCG reader has no game to
// replay, and an export leaves the match out.
func Jouee(p *matchclassique.Match) bool {
	for _, c := range p.Journal() {
		switch c.Genre {
		case matchclassique.CoupPlacement, matchclassique.CoupPasse, matchclassique.CoupEchange:
			return true
		}
	}
	return false
}

// ordonner puts each withdrawn play right after the play it withdraws,
// with the penalty of the same contestation: GCG readers take a « -- »
// line back from the play just before it. With an empty bag passes may
// come between (§5.2); the turns stay the same, since the withdrawn play
// counts as its author's pass and the turn goes to the contester.
func ordonner(journal []matchclassique.Coup) []matchclassique.Coup {
	var out []matchclassique.Coup
	for i := 0; i < len(journal); i++ {
		c := journal[i]
		if c.Genre != matchclassique.CoupRetrait {
			out = append(out, c)
			continue
		}
		at := len(out)
		for k := len(out) - 1; k >= 0; k-- {
			if out[k].Genre == matchclassique.CoupPlacement && out[k].Joueur == c.Joueur {
				at = k + 1
				break
			}
		}
		lot := []matchclassique.Coup{c}
		if i+1 < len(journal) && journal[i+1].Genre == matchclassique.CoupPenaliteContestation {
			lot = append(lot, journal[i+1])
			i++
		}
		out = append(out[:at], append(lot, out[at:]...)...)
	}
	return out
}

// ecrivain writes the lines, keeping the cumulatives a GCG reader computes
// and the FISF penalties apart.
type ecrivain struct {
	b       strings.Builder
	p       *matchclassique.Match
	joueurs [2]string
	ordre   [2]int // the match's players in GCG order: the starting one first
	cumul   [2]int
	penal   [2]int
	// notes wait for the first event line: a note belongs to the event
	// before it.
	notes     []func()
	evenement bool
}

func (w *ecrivain) ligne(j, points int, format string, args ...any) {
	w.cumul[j] += points
	fmt.Fprintf(&w.b, ">%s: ", w.joueurs[j])
	fmt.Fprintf(&w.b, format, args...)
	fmt.Fprintf(&w.b, " %d\n", w.cumul[j])
	w.evenement = true
	for _, n := range w.notes {
		n()
	}
	w.notes = nil
}

func (w *ecrivain) note(format string, args ...any) {
	fmt.Fprintf(&w.b, "#note "+format+"\n", args...)
}

// motifs are the penalties' articles and reasons.
var motifs = map[matchclassique.Motif]string{
	matchclassique.MotifLettresEnTrop:  "§9 : %s -%d, lettres tirées en trop",
	matchclassique.MotifTirageAnticipe: "§9 : %s -%d, lettres tirées avant l'adversaire",
	matchclassique.MotifJokerErrone:    "§4.1.3 : %s -%d, joker annoncé qui n'en est pas un",
	matchclassique.MotifArbitre:        "§8 : %s -%d, pénalité de l'arbitre",
}

func (w *ecrivain) coup(c matchclassique.Coup) error {
	j := c.Joueur
	switch c.Genre {
	case matchclassique.CoupPlacement:
		pos, err := position(c.Ref)
		if err != nil {
			return err
		}
		w.ligne(j, c.Points, "%s %s %s +%d", c.Chevalet, pos, c.Pose, c.Points)
	case matchclassique.CoupPasse:
		w.ligne(j, 0, "%s - +0", c.Chevalet)
	case matchclassique.CoupEchange:
		w.ligne(j, 0, "%s -%s +0", c.Chevalet, c.Lettres)
	case matchclassique.CoupRetrait:
		w.ligne(j, c.Points, "%s -- %d", c.Chevalet, c.Points)
	case matchclassique.CoupPenaliteContestation:
		w.penaliser(j, -c.Points, "§5.3 : %s -%d, contestation à tort")
	case matchclassique.CoupPenalite:
		w.penaliser(j, -c.Points, motifs[matchclassique.Motif(c.Motif)])
	}
	return nil
}

// penaliser notes a FISF penalty: no GCG line takes it off, the note gives
// the official score it leaves.
// Before the first event line it waits for it, and gives the score left
// after that line.
func (w *ecrivain) penaliser(j, points int, motif string) {
	w.penal[j] += points
	n := func() {
		w.note("FISF %s (score officiel %d)", fmt.Sprintf(motif, w.joueurs[j], points), w.cumul[j]-w.penal[j])
	}
	if !w.evenement {
		w.notes = append(w.notes, n)
		return
	}
	n()
}

// fins are the endings as the result note names them.
var fins = map[matchclassique.Fin]string{
	matchclassique.FinReliquatEpuise:     "reliquat épuisé (§7)",
	matchclassique.FinBlocage:            "blocage (§7)",
	matchclassique.FinTempsEpuise:        "temps épuisé (§7)",
	matchclassique.FinSixPasses:          "six « je passe » (§4.2)",
	matchclassique.FinAbandon:            "abandon accepté, table d'abandon (§9)",
	matchclassique.FinAbandonUnilateral:  "abandon sans accord, table d'abandon (§9)",
	matchclassique.FinDefaiteArbitrale:   "défaite sur décision de l'arbitre, table d'abandon (§8, §9)",
	matchclassique.FinDefaiteHuitLettres: "défaite pour huit lettres ou plus, écart de 100 points (§9)",
	matchclassique.FinForfait:            "forfait (§9)",
}

// fin writes the end of the game: the standard end lines where GCG has
// them, the FISF rule in a note where it differs, then the official result.
func (w *ecrivain) fin(fin matchclassique.MatchTermine) {
	switch fin.Fin {
	case matchclassique.FinReliquatEpuise:
		f := fin.Joueur
		reste := w.p.Chevalet(1 - f)
		v := matchclassique.ValeurChevalet(reste)
		if reste.Size() > 0 {
			w.ligne(f, 2*v, "(%s) +%d", reste.String(), 2*v)
		}
		w.note("FISF §7 reliquat épuisé : la valeur des lettres de %s (%d) est ajoutée une fois à %s et retirée à %s ; la ligne GCG la compte deux fois à %s",
			w.joueurs[1-f], v, w.joueurs[f], w.joueurs[1-f], w.joueurs[f])
	case matchclassique.FinBlocage, matchclassique.FinTempsEpuise, matchclassique.FinSixPasses:
		for _, j := range w.ordre {
			if reste := w.p.Chevalet(j); reste.Size() > 0 {
				v := matchclassique.ValeurChevalet(reste)
				w.ligne(j, -v, "%s (%s) -%d", reste.String(), reste.String(), v)
			}
		}
		switch fin.Fin {
		case matchclassique.FinBlocage:
			w.note("FISF §7 blocage : moins de 7 lettres dans le sac et les deux joueurs ont passé depuis le dernier mot, la partie s'arrête ; chacun déduit ses lettres")
		case matchclassique.FinTempsEpuise:
			w.note("FISF §7 temps épuisé : les deux joueurs ont épuisé leur temps, la partie s'arrête ; chacun déduit ses lettres")
		}
	}
	scores, _, pm, _ := w.p.Resultat()
	if scores != fin.Scores {
		w.note("FISF §9 désaccord sur les totaux : scores décidés par l'arbitre")
	}
	a, b := w.ordre[0], w.ordre[1]
	w.note("FISF résultat officiel : %s %d, %s %d ; points de match %d-%d ; fin %s",
		w.joueurs[a], scores[a], w.joueurs[b], scores[b], pm[a], pm[b], fins[fin.Fin])
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
