package correction

import (
	"arbitre/engine/board"
	"arbitre/engine/tile"
)

// The localisation statuses, from worst to best.
const (
	locAbsent = iota
	locWrong
	locWarn // correct, with an avertissement
	locOK
)

// loc is what one localisation mode (or both) says about a solution.
type loc struct {
	status  int
	places  []fit    // the acceptable places designated
	reasons []Reason // the avertissement's motives (locWarn)
	wrong   []Reason // why the localisation is not correct (locWrong, locAbsent)
	// pickMax: the places are several acceptable solutions of one mot joué,
	// the best paid is retained (§5.4.2.b); otherwise the minimum applies.
	pickMax bool
	// fallacious: a place designated as well as the acceptable ones forms a
	// fallacious raccord (§5.4.2.b, guide §5.4.5).
	fallacious bool
	commission bool
	// prolongation: the place lengthens a word of the grid (§5.3 in fine).
	prolongation bool
	// truncated: a word lengthened by grid letters was rejected as mot
	// joué (§5.2.2), with this motive.
	truncated Reason
	// pointed: the square the player's localisation points to.
	pointed bool
	pr, pc  int
	pdir    bool // the direction the reference gives
	// pointedInvalid: the pointed place forms a word not admitted by
	// lengthening a word of the grid (guide §5.4.4–§5.4.5).
	pointedInvalid bool
}

// wholeOnly reports whether every designated place has the word written whole.
func (l *loc) wholeOnly() bool {
	for i := range l.places {
		if !l.places[i].whole() {
			return false
		}
	}
	return true
}

// nearer reports whether fit a is nearer the pointed square than b.
func (l *loc) nearer(a, b *fit) bool {
	if !l.pointed {
		return false
	}
	return l.distance(a) < l.distance(b)
}

func (l *loc) distance(f *fit) int {
	r, c := f.origin()
	dr, dc := abs(r-l.pr), abs(c-l.pc)
	return max(dr, dc)
}

// pointsNear: the localisation is offset by one row and/or column from f
// (guide §5.4.4, billet box 15).
func (l *loc) pointsNear(f *fit) bool {
	return l.pointed && l.distance(f) == 1
}

func abs(a int) int {
	if a < 0 {
		return -a
	}
	return a
}

// refLoc reads the alphanumeric reference (§4.3.1, §5.3): correct, inverted
// sense OR reference tolerated with an avertissement, both inverted or wrong
// not correct.
func (x *Corrector) refLoc(cp *Coup, s *Solution, w written, _ []fit) loc {
	ref, ok := parseRefAsWritten(*s.Ref)
	if !ok {
		return loc{status: locWrong, wrong: []Reason{ReferenceWrong}}
	}
	lc := loc{pointed: true, pr: ref.Row, pc: ref.Col, pdir: ref.Vertical}
	vertical := s.vertical()
	at := func(dir bool) (fit, bool) {
		f, ok := x.fitAt(cp, w.letters, ref.Row, ref.Col, dir)
		if ok && f.lettersOK && (!f.whole() || invalidLengthening(&f)) {
			lc.pointedInvalid = true
		}
		return f, ok && f.whole() && f.lettersOK && f.playable()
	}
	if ref.Vertical == vertical {
		if f, ok := at(vertical); ok {
			lc.status, lc.places = locOK, []fit{f}
			return lc
		}
		lc.status = locWrong
		if _, ok := at(!vertical); ok {
			// Sense and reference both inverted: not correct (§5.3).
			lc.wrong = []Reason{Inverted, ReferenceWrong}
		} else {
			lc.wrong = []Reason{ReferenceWrong}
		}
		return lc
	}
	// The reference's notation and the written sense disagree: one of them
	// is inverted (§5.3, §5.5); when the word plays both ways from the square,
	// the minimum applies on a score error (§5.5).
	for _, dir := range []bool{vertical, ref.Vertical} {
		if f, ok := at(dir); ok {
			lc.places = append(lc.places, f)
		}
	}
	if len(lc.places) == 0 {
		lc.status, lc.wrong = locWrong, []Reason{ReferenceWrong}
		return lc
	}
	lc.status, lc.reasons = locWarn, []Reason{Inverted}
	return lc
}

// invalidLengthening reports whether the fit, with its first assignment,
// lengthens a word of the grid (two letters or more) into a word not
// admitted; a single grid letter turned into a non-admitted two-letter word
// does not count (guide §5.4.4).
func invalidLengthening(f *fit) bool {
	if len(f.asg) == 0 {
		return false
	}
	for _, wd := range f.asg[0].invalid {
		if len(wd) >= 3 {
			return true
		}
	}
	return false
}

// raccordLoc reads the raccord letters (§4.3.2, §5.2): a place is designated
// by the letters of the grid that the bulletin shows, the word's own grid
// letters included, chained to the letters put down; three or more are
// correct, two earn an avertissement (except at the second coup after a
// two-letter first word), fewer do not localise.
func (x *Corrector) raccordLoc(cp *Coup, s *Solution, w written, fs []fit) loc {
	need := 3
	if cp.number == 2 && cp.firstLen == 2 {
		need = 2
	}
	var lc loc
	type cand struct {
		f     *fit
		count int
		warn  Reason
		all   bool // every written raccord letter agrees with the grid there
	}
	var cands, invalid []cand
	best := -1
	for i := range fs {
		f := &fs[i]
		if !f.lettersOK {
			continue
		}
		count, covered, agree := raccordCount(cp, f, s)
		warn, reject := prolongationRule(f, covered)
		if reject != "" {
			if f.playable() && lc.truncated == "" {
				lc.truncated = reject
			}
			continue
		}
		if !f.playable() {
			invalid = append(invalid, cand{f, count, warn, agree == len(s.Raccord)})
			continue
		}
		cands = append(cands, cand{f, count, warn, agree == len(s.Raccord)})
		best = max(best, count)
	}
	wrongReason := RaccordMissing
	if len(s.Raccord) > 0 {
		wrongReason = RaccordWrong
	}
	if best < 2 {
		lc.status, lc.wrong = locWrong, []Reason{wrongReason}
		if best < 0 || len(s.Raccord) == 0 {
			lc.status = locAbsent
		}
		x.pointRaccord(cp, s, w, &lc)
		return lc
	}
	lc.status = locOK
	if best < need {
		lc.status, lc.reasons = locWarn, []Reason{RaccordTwoLetters}
	}
	for _, c := range cands {
		if c.count != best {
			continue
		}
		lc.places = append(lc.places, *c.f)
		if c.warn != "" {
			lc.status = locWarn
			lc.reasons = append(lc.reasons, c.warn)
		}
		if c.f.prolongs() {
			lc.prolongation = true
		}
	}
	// The bulletin points only to the places where every written raccord
	// letter agrees with the grid: a grid letter of the word does not make
	// up for a written one that disagrees (§4.3.2, §5.3.3).
	for _, c := range invalid {
		if c.all && c.count >= best {
			lc.fallacious = true
		}
	}
	return lc
}

// pointRaccord finds where raccord letters written with no acceptable place
// point: the word's origin that matches the most of them.
func (x *Corrector) pointRaccord(cp *Coup, s *Solution, w written, lc *loc) {
	if len(s.Raccord) == 0 {
		return
	}
	best := 0
	for r := 0; r < board.Size; r++ {
		for c := 0; c < board.Size; c++ {
			n := 0
			for _, g := range s.Raccord {
				rr, cc := r+g.DR, c+g.DC
				if rr >= 0 && rr < board.Size && cc >= 0 && cc < board.Size {
					if t := cp.board.At(rr, cc); t != tile.Empty && t.Letter().Byte() == upper(g.Letter[0]) {
						n++
					}
				}
			}
			if n > best {
				best, lc.pointed, lc.pr, lc.pc, lc.pdir = n, true, r, c, s.vertical()
			}
		}
	}
	if lc.pointed {
		vertical := s.vertical()
		if f, ok := x.fitAt(cp, w.letters, lc.pr, lc.pc, vertical); ok && f.lettersOK && (!f.whole() || invalidLengthening(&f)) {
			lc.pointedInvalid = true
		}
	}
}

func upper(b byte) byte {
	if b >= 'a' && b <= 'z' {
		return b - ('a' - 'A')
	}
	return b
}

// prolongs reports whether the full word contains a word of the grid of two
// letters or more.
func (f *fit) prolongs() bool {
	run := 0
	for i := 0; i < f.len; i++ {
		if f.placed&(1<<i) != 0 {
			run = 0
			continue
		}
		if run++; run >= 2 {
			return true
		}
	}
	return false
}

// raccordCount counts the raccord letters of a fit (§4.3.2): the grid letters
// of the written word, and the raccord letters written that agree with the
// grid and touch a letter put down or another raccord letter; a letter that
// disagrees is parasite and breaks the chain (§5.2.3). covered marks the
// letters of the full word that the bulletin shows; agree counts the written
// raccord letters that agree with the grid, chained or not.
func raccordCount(cp *Coup, f *fit, s *Solution) (count int, covered uint16, agree int) {
	var on [board.Squares]uint8 // 1 put down, 2 raccord letter reached, 3 raccord letter not yet reached
	for i := 0; i < f.len; i++ {
		r, c := f.square(i)
		switch {
		case f.placed&(1<<i) != 0:
			on[board.Index(r, c)] = 1
		case i >= f.k && i < f.k+f.n:
			on[board.Index(r, c)] = 2
			covered |= 1 << i
			count++
		}
	}
	for i := f.k; i < f.k+f.n; i++ {
		covered |= 1 << i
	}
	r0, c0 := f.origin()
	for _, g := range s.Raccord {
		r, c := r0+g.DR, c0+g.DC
		if r < 0 || r >= board.Size || c < 0 || c >= board.Size {
			continue
		}
		t := cp.board.At(r, c)
		if t == tile.Empty || t.Letter().Byte() != upper(g.Letter[0]) {
			continue
		}
		agree++
		if sq := board.Index(r, c); on[sq] == 0 {
			on[sq] = 3
		}
	}
	// Chain the written raccord letters from the word outwards.
	for grew := true; grew; {
		grew = false
		for sq := range on {
			if on[sq] != 3 {
				continue
			}
			r, c := sq/board.Size, sq%board.Size
			if touches(&on, r-1, c) || touches(&on, r+1, c) || touches(&on, r, c-1) || touches(&on, r, c+1) {
				on[sq], grew = 2, true
				count++
				for i := 0; i < f.len; i++ {
					if rr, cc := f.square(i); rr == r && cc == c {
						covered |= 1 << i
					}
				}
			}
		}
	}
	return count, covered, agree
}

func touches(on *[board.Squares]uint8, r, c int) bool {
	if r < 0 || r >= board.Size || c < 0 || c >= board.Size {
		return false
	}
	v := on[board.Index(r, c)]
	return v == 1 || v == 2
}

// prolongationRule applies §4.2, §4.3.2, §5.2.2 and §5.5 to a word not
// written whole: it is a mot joué only when it lengthens one word of the
// grid and the bulletin shows at least two of that word's letters, one
// touching each lengthening; then a word of 3 to 6 letters earns an
// avertissement, and one of 7 or more too unless 6 letters, 3 touching each
// lengthening, are shown. reject is the zéro's motive.
func prolongationRule(f *fit, covered uint16) (warn, reject Reason) {
	full := uint16(1)<<f.len - 1
	if covered&full == full {
		return "", ""
	}
	// The omitted letters must form part of one run of grid letters.
	a, b := -1, -1
	for i := 0; i < f.len; i++ {
		if covered&(1<<i) == 0 {
			if a < 0 {
				a = i
			}
			b = i
		}
	}
	for a > 0 && f.placed&(1<<(a-1)) == 0 {
		a--
	}
	for b < f.len-1 && f.placed&(1<<(b+1)) == 0 {
		b++
	}
	for i := a; i <= b; i++ {
		if f.placed&(1<<i) != 0 {
			return "", WordNotWhole
		}
	}
	run := b - a + 1
	if run == 1 {
		if b == f.len-1 {
			return "", FinalLetterOmitted
		}
		return "", WordNotWhole
	}
	shown := popcount(covered >> a & (1<<run - 1))
	front, back := a > 0, b < f.len-1
	if shown < 2 || (front && covered&(1<<a) == 0) || (back && covered&(1<<b) == 0) {
		return "", WordNotWhole
	}
	if run < 7 {
		return WordNotWhole, ""
	}
	three := func(from, step int) bool {
		for i := 0; i < 3; i++ {
			if covered&(1<<(from+i*step)) == 0 {
				return false
			}
		}
		return true
	}
	if shown < 6 || (front && !three(a, 1)) || (back && !three(b, -1)) {
		return RaccordTwoLetters, ""
	}
	return "", ""
}

// combineModes applies §5.3 in fine to a bulletin using both modes: both
// correct at the same place is correct; at different places, two acceptable
// solutions of one mot joué (the best is paid, to the commission for a
// possible intent to play on two boards); one incorrect earns an
// avertissement, unless the incorrect one lengthens a word of the grid into
// a non-admitted word (guide §5.4.5: zéro).
func combineModes(ref, rac loc) loc {
	switch {
	case ref.status >= locWarn && rac.status >= locWarn:
		if samePlaces(ref.places, rac.places) {
			out := rac
			out.status = min(ref.status, rac.status)
			out.reasons = append(append([]Reason(nil), ref.reasons...), rac.reasons...)
			return out
		}
		out := rac
		out.places = append(append([]fit(nil), ref.places...), rac.places...)
		out.status, out.pickMax, out.commission = locWarn, true, true
		out.reasons = append(append(append([]Reason(nil), ref.reasons...), rac.reasons...), TwoReferencesOneWrong)
		return out
	case ref.status >= locWarn:
		out := ref
		out.status = locWarn
		out.reasons = append(append([]Reason(nil), ref.reasons...), TwoReferencesOneWrong)
		if rac.pointedInvalid {
			out.fallacious = true
		}
		return out
	case rac.status >= locWarn:
		out := rac
		out.status = locWarn
		out.reasons = append(append([]Reason(nil), rac.reasons...), TwoReferencesOneWrong)
		if ref.pointedInvalid {
			out.fallacious = true
		}
		return out
	}
	out := ref
	out.status = locWrong
	out.wrong = append(append([]Reason(nil), ref.wrong...), rac.wrong...)
	return out
}

func samePlaces(a, b []fit) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].ref != b[i].ref {
			return false
		}
	}
	return true
}
