package correction

import (
	"arbitre/engine/board"
	"arbitre/engine/tile"
)

// parasiteWord is a word that parasite letters form on a bulletin (§5.2.3).
type parasiteWord struct {
	word     string
	admitted bool     // the word is in the lexicon (§5.1)
	placed   int      // letters of the tirage it puts down
	playable bool     // it and every word it forms in raccord are admitted
	invalid  []string // the words it forms that are not admitted
}

// parasiteWords finds the mots joués that the parasite letters of s form
// when the solution is judged at fit f (§5.2.1, §5.2.3).
//
// A parasite letter is a written raccord letter that is not a raccord letter
// of the word at f (§5.2.1): it disagrees with the grid, lies on an empty
// square or is not chained to the letters put down (§4.3.2). Laid on the grid
// where the bulletin puts it at f, a parasite letter on an empty square is a
// letter the player puts down: the written letters around it in one line (other
// parasites, raccord letters standing for grid letters, letters of the word)
// are then a word written on the bulletin. It is a mot joué in the sense of
// §5.2.1 when it is written whole (no grid letter of the line left out),
// every letter it shows on an occupied square is the grid's letter, and it can
// be put down there from the tirage. Parasite letters that form nothing, or a
// string that cannot be put down where it is written, are only neglected and
// break a raccord chain (§5.2.3).
func (x *Corrector) parasiteWords(cp *Coup, s *Solution, f *fit) []parasiteWord {
	var written [board.Squares]tile.Letter
	var parasite [board.Squares]bool
	for i := f.k; i < f.k+f.n; i++ {
		r, c := f.square(i)
		written[board.Index(r, c)] = f.full[i]
	}
	r0, c0 := f.origin()
	anyParasite := false
	for _, g := range s.Raccord {
		r, c := r0+g.DR, c0+g.DC
		if r < 0 || r >= board.Size || c < 0 || c >= board.Size {
			continue
		}
		sq := board.Index(r, c)
		l, _ := raccordLetter(g.Letter)
		written[sq] = l
		t := cp.board.At(r, c)
		if t == tile.Empty {
			parasite[sq], anyParasite = true, true
		}
	}
	if !anyParasite {
		return nil
	}
	shown := func(r, c int) bool {
		return r >= 0 && r < board.Size && c >= 0 && c < board.Size &&
			(written[board.Index(r, c)] != 0 || cp.board.At(r, c) != tile.Empty)
	}
	var done [2][board.Squares]bool
	var out []parasiteWord
	for sq := range parasite {
		if !parasite[sq] {
			continue
		}
		for d, vertical := range []bool{false, true} {
			dr, dc := 0, 1
			if vertical {
				dr, dc = 1, 0
			}
			r, c := sq/board.Size, sq%board.Size
			for shown(r-dr, c-dc) {
				r, c = r-dr, c-dc
			}
			if done[d][board.Index(r, c)] {
				continue
			}
			done[d][board.Index(r, c)] = true
			var letters []tile.Letter
			whole := true
			for rr, cc := r, c; shown(rr, cc); rr, cc = rr+dr, cc+dc {
				l, t := written[board.Index(rr, cc)], cp.board.At(rr, cc)
				if l == 0 || (t != tile.Empty && t.Letter() != l) {
					whole = false
				}
				letters = append(letters, l)
			}
			if !whole || len(letters) < 2 || len(letters) > board.Size {
				continue
			}
			pf, ok := x.fitAt(cp, letters, r, c, vertical)
			if !ok || !pf.whole() || !pf.lettersOK {
				continue
			}
			pw := parasiteWord{word: lettersString(letters), admitted: cp.lex.ContainsTiles(letterTiles(letters)),
				placed: popcount(pf.placed), playable: pf.playable()}
			if len(pf.asg) > 0 {
				pw.invalid = pf.asg[0].invalid
			}
			out = append(out, pw)
		}
	}
	return out
}

// judgeParasites applies §5.2.3 to a solution paid at a place located on
// the grid: "la présence de lettres parasites formant un mot joué non valide
// implique un zéro".
//
// A mot joué is, by its definition (§5.2.1), formed from grid letters and
// letters of the tirage where the bulletin puts it, so it can be neither an
// erreur de lettre (billet box 23: a letter absent from the tirage) nor an
// erreur de grille (box 26: the word cannot be placed). What makes it non
// valide is §5.1: it is not in the ODS. The billet therefore shows box 19,
// "mot(s) non admis" (WORD_NOT_ADMITTED), with the word written in it (§5.9).
// An admitted parasite word that puts down two letters or more and forms a
// non-admitted word in raccord is a mot joué matching no acceptable solution:
// zéro as well (§5.4.1.b), box 19 with the words formed.
//
// Any other parasite word (admitted, and playable or putting down a single
// letter) is a second word on the bulletin that the rules neither sanction
// nor pay: whether the player meant to play on two boards is for the
// commission d'arbitrage to judge (§6.3; 2014 §B.2 in fine and §C; guide §5.7.1
// leaves a parasite graphism to the arbiter's appreciation), so the bulletin
// is sent to it and the decision is otherwise unchanged.
func (x *Corrector) judgeParasites(cp *Coup, s *Solution, w written, o outcome) outcome {
	if len(s.Raccord) == 0 || o.place == "" || o.sanction == Zero || o.sanction == Average {
		return o
	}
	ref, err := board.ParseRef(o.place)
	if err != nil || ref.Vertical != s.vertical() {
		return o
	}
	f, ok := x.paidFit(cp, w, ref)
	if !ok {
		return o
	}
	zero := outcome{sanction: Zero, reasons: []Reason{WordNotAdmitted}}
	for _, pw := range x.parasiteWords(cp, s, &f) {
		switch {
		case !pw.admitted:
			zero.notAdmitted = append(zero.notAdmitted, pw.word)
		case pw.placed >= 2 && !pw.playable:
			zero.notAdmitted = append(zero.notAdmitted, pw.invalid...)
		default:
			o.commission = true
		}
	}
	if len(zero.notAdmitted) == 0 {
		return o
	}
	zero = x.zeroAbove(cp, s, zero)
	x.average(cp, &zero, &f)
	return zero
}

// paidFit finds the fit of the written word whose full word starts at ref,
// the written letters anywhere within it (a prolongation, §5.2.2).
func (x *Corrector) paidFit(cp *Coup, w written, ref board.Ref) (fit, bool) {
	for k := 0; k+len(w.letters) <= board.Size; k++ {
		r, c := ref.Row, ref.Col+k
		if ref.Vertical {
			r, c = ref.Row+k, ref.Col
		}
		if f, ok := x.fitAt(cp, w.letters, r, c, ref.Vertical); ok && f.ref == ref && f.lettersOK {
			return f, true
		}
	}
	return fit{}, false
}
