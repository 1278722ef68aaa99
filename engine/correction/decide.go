package correction

import (
	"slices"

	"arbitre/engine/lexicon"
	"arbitre/engine/tile"
)

// Correct is the one-shot form of Corrector.Decide: it prepares the coup and
// corrects one bulletin.
func Correct(lex *lexicon.Lexicon, ctx Context, b *Bulletin) (Decision, error) {
	if err := b.Validate(); err != nil {
		return Decision{}, err
	}
	cp, err := NewCoup(lex, ctx)
	if err != nil {
		return Decision{}, err
	}
	return NewCorrector(lex).Decide(cp, b), nil
}

// Decide corrects a validated bulletin in its coup, following the treatment
// order of §5.4. The decision is pure: it depends on the coup and the
// bulletin only.
func (x *Corrector) Decide(cp *Coup, b *Bulletin) Decision {
	var o outcome
	var zeros []Reason
	// §5.7: the bulletin-level nullités.
	for _, f := range []struct {
		set bool
		r   Reason
	}{{b.Missing, Missing}, {b.Blank, Blank}, {b.Several, SeveralBulletins}, {b.Late, Late},
		{b.Exchanged, Exchanged}, {b.Illegible, Illegible}} {
		if f.set {
			zeros = append(zeros, f.r)
		}
	}
	// §5.4: crossed-out solutions are inexistent.
	var live []*Solution
	for i := range b.Solutions {
		if !b.Solutions[i].Crossed {
			live = append(live, &b.Solutions[i])
		}
	}
	if len(zeros) == 0 && len(live) == 0 {
		zeros = append(zeros, Blank)
	}
	switch {
	case len(zeros) > 0:
		// An illegible bulletin is a question of graphie: the commission
		// d'arbitrage judges those (2014 §C, guide §5.8).
		o = outcome{sanction: Zero, reasons: zeros, commission: b.Illegible}
	case len(live) == 1:
		o = x.solution(cp, live[0])
	default:
		// §5.4.2.b: several independent solutions not crossed out: the
		// minimum is applied, the nullité included (§5.7).
		for i, s := range live {
			so := x.solution(cp, s)
			if i == 0 || worse(&so, &o) {
				o = so
			}
		}
		o.add(SeveralSolutions)
	}
	if b.HardToRead && o.sanction.severity() <= Warning.severity() {
		// §5.5, §5.8: one avertissement, which neither a penalty nor a
		// zéro cumulates with.
		o.sanction = Warning
		o.add(HardToRead)
	}
	return x.finish(cp, b, o)
}

// finish turns a solution outcome into the bulletin's Decision.
func (x *Corrector) finish(cp *Coup, b *Bulletin, o outcome) Decision {
	d := Decision{
		Paid:        o.paid,
		Sanction:    o.sanction,
		Commission:  o.commission,
		Place:       o.place,
		NotAdmitted: o.notAdmitted,
		AverageCap:  o.averageCap,
		Engine:      EngineVersion,
	}
	d.Reasons = normalise(o.reasons)
	if d.Sanction != Average {
		paid := d.Paid
		d.ScoreWrittenBack = &paid
	}
	d.Billet = billetNeeded(cp, &d)
	// §5.5, §5.8: the disciplinary avertissement cumulates with anything.
	d.AddDiscipline(b.Discipline)
	return d
}

// billetNeeded applies §5.9: every sanction is notified, but a warning for a
// score error on the top and a zéro above the top need no billet.
func billetNeeded(cp *Coup, d *Decision) bool {
	switch d.Sanction {
	case None:
		return false
	case Warning:
		return !(len(d.Reasons) == 1 && d.Reasons[0] == ScoreWrong && d.Paid == cp.top)
	case Zero:
		for _, r := range d.Reasons {
			if r == AboveTop {
				return false
			}
		}
	}
	return true
}

// solution corrects one written solution.
func (x *Corrector) solution(cp *Coup, s *Solution) outcome {
	w, err := parseWritten(s.Word)
	if err != nil {
		return outcome{sanction: Zero, reasons: []Reason{Illegible}, commission: true}
	}
	if len(w.letters) < 2 {
		// A word has two letters or more (§1.1): a single letter is no
		// mot joué, the bulletin has no acceptable solution (§5.7).
		return outcome{sanction: Zero, reasons: []Reason{NotAWord}}
	}
	if cp.number == 1 {
		return x.firstCoup(cp, s, w)
	}
	return x.judgeParasites(cp, s, w, x.located(cp, s, w))
}

// located pays a solution from the second coup by its localisation (§5.3).
func (x *Corrector) located(cp *Coup, s *Solution, w written) outcome {
	vertical := s.vertical()
	fs := x.fits(cp, w.letters, vertical)
	rac := x.raccordLoc(cp, s, w, fs)
	var lc loc
	switch {
	case s.Ref == nil:
		lc = rac
	case rac.prolongation && rac.status >= locWarn && (rac.status == locOK || !rac.wholeOnly()):
		// §5.3 in fine, exception, and guide §5.4.2: a prolongation located
		// by enough raccord letters, or not written whole, ignores the
		// alphanumeric reference.
		lc = rac
	case len(s.Raccord) == 0:
		lc = x.refLoc(cp, s, w, fs)
		lc.truncated = rac.truncated
	default:
		ref := x.refLoc(cp, s, w, fs)
		ref.truncated = rac.truncated
		lc = combineModes(ref, rac)
		if lc.status == locWrong {
			// §5.3 in fine: both modes incorrect, the less severe sanction.
			a, b := x.settle(cp, s, w, fs, ref), x.settle(cp, s, w, fs, rac)
			if milder(&b, &a) {
				return b
			}
			return a
		}
	}
	return x.settle(cp, s, w, fs, lc)
}

// settle pays a solution once located: §5.3.1/§5.3.2 at a correct place,
// §5.3.3 for an existing score elsewhere, the better of the two (§5.4.2.b),
// else the zéro of §5.4.1 with its motive.
func (x *Corrector) settle(cp *Coup, s *Solution, w written, fs []fit, lc loc) outcome {
	var cands []outcome
	if lc.status >= locWarn && len(lc.places) > 0 {
		o := scoreAt(lc.places, w, s.Score)
		if lc.pickMax {
			// §5.4.2.b: one mot joué, several acceptable solutions: the one
			// paying the player most.
			for i := range lc.places {
				if p := scoreAt(lc.places[i:i+1], w, s.Score); p.paid > o.paid {
					o = p
				}
			}
		}
		if lc.status == locWarn {
			o.sanction = Warning
		}
		o.add(lc.reasons...)
		o.commission = o.commission || lc.commission
		if lc.fallacious {
			// §5.4.2.b: raccord letters matching several places, one of
			// which forms a fallacious raccord: zéro, to the commission.
			return x.zeroAbove(cp, s, outcome{sanction: Zero, reasons: []Reason{FallaciousRaccord}, commission: true})
		}
		cands = append(cands, o)
	}
	// §5.3.3 is retained only when it pays more than the correct place does
	// (§5.4.2.b); its fallacious-raccord zéro applies then.
	if s.Score != nil && (len(cands) == 0 || cands[0].paid < *s.Score-5) {
		if o, ok := x.existingScore(cp, s, w, fs, lc); ok {
			if o.sanction == Zero {
				return x.zeroAbove(cp, s, o)
			}
			cands = append(cands, o)
		}
	}
	if len(cands) == 0 {
		return x.diagnose(cp, s, w, fs, lc)
	}
	best := cands[0]
	for _, c := range cands[1:] {
		if c.paid > best.paid || (c.paid == best.paid && milder(&c, &best)) {
			best = c
		}
	}
	return best
}

// scoreAt applies §5.3.1 and §5.3.2 (and §5.4.2.b for several places):
// the claimed score when it is exact or existing at the place, else the
// exact score for the circling written, else the minimum over the possible
// circlings, with an avertissement.
func scoreAt(places []fit, w written, claimed *int) outcome {
	type hit struct {
		f     *fit
		a     *assignment
		exact bool
	}
	var byClaim, exactHit *hit
	minimum := -1
	var minPlace *fit
	for i := range places {
		f := &places[i]
		circles := (uint16(w.circled) << f.k) & f.placed
		for j := range f.asg {
			a := &f.asg[j]
			if !a.playable {
				continue
			}
			exact := a.jokers == circles
			if claimed != nil && a.score == *claimed && (byClaim == nil || (exact && !byClaim.exact)) {
				byClaim = &hit{f, a, exact}
			}
			if exact && (exactHit == nil || a.score < exactHit.a.score) {
				exactHit = &hit{f, a, true}
			}
			if minimum < 0 || a.score < minimum {
				minimum, minPlace = a.score, f
			}
		}
	}
	scoreReason := ScoreMissing
	if claimed != nil {
		scoreReason = ScoreWrong
	}
	switch {
	case byClaim != nil && byClaim.exact:
		return outcome{paid: byClaim.a.score, sanction: None, place: byClaim.f.ref.String()}
	case byClaim != nil:
		// Existing for another circling (§5.3 coup joker, §5.5 circling).
		return outcome{paid: byClaim.a.score, sanction: Warning, place: byClaim.f.ref.String(), reasons: []Reason{JokerCircling}}
	case exactHit != nil && len(places) == 1:
		return outcome{paid: exactHit.a.score, sanction: Warning, place: exactHit.f.ref.String(), reasons: []Reason{scoreReason}}
	case len(places) > 1:
		// §5.4.2.b: the score matches no place: the minimum of what §5.3.2
		// pays at each place.
		var o outcome
		for i := range places {
			if p := scoreAt(places[i:i+1], w, claimed); i == 0 || worse(&p, &o) {
				o = p
			}
		}
		return o
	}
	o := outcome{paid: minimum, sanction: Warning, place: minPlace.ref.String(), reasons: []Reason{scoreReason}}
	if exactHit == nil {
		o.add(JokerCircling)
	}
	return o
}

// existingScore applies §5.3.3: the claimed score exists for the word in the
// sense it is written but the localisation is absent, wrong or incompatible:
// claimed minus 5 points, or a zéro when the word can, for that score, form
// a fallacious raccord somewhere.
func (x *Corrector) existingScore(cp *Coup, s *Solution, w written, fs []fit, lc loc) (outcome, bool) {
	claimed := *s.Score
	var match *fit
	fallacious := false
	for i := range fs {
		f := &fs[i]
		if !f.lettersOK || !f.whole() {
			continue
		}
		circles := (uint16(w.circled) << f.k) & f.placed
		for j := range f.asg {
			a := &f.asg[j]
			if a.score != claimed {
				continue
			}
			switch {
			// The fallacious raccord is judged on the word as written, its
			// circling included.
			case a.playable && (match == nil || lc.nearer(f, match)):
				match = f
			case !a.playable && a.jokers == circles:
				fallacious = true
			}
		}
	}
	if match == nil {
		return outcome{}, false
	}
	if fallacious {
		return outcome{sanction: Zero, reasons: []Reason{FallaciousRaccord}, commission: true}, true
	}
	// §5.6: the −5 is withdrawn from the word's score, under 5 points too.
	o := outcome{paid: claimed - 5, sanction: Penalty, place: match.ref.String(), commission: lc.pointedInvalid}
	if lc.pointsNear(match) {
		o.add(Offset)
	} else {
		o.add(lc.wrong...)
	}
	return o, true
}

// letterTiles converts letters to plain tiles.
func letterTiles(ls []tile.Letter) []tile.Tile {
	out := make([]tile.Tile, len(ls))
	for i, l := range ls {
		out[i] = tile.Tile(l)
	}
	return out
}

// zeroAbove adds ABOVE_TOP to a zéro whose claimed score beats the top (§5.9).
func (x *Corrector) zeroAbove(cp *Coup, s *Solution, o outcome) outcome {
	if s.Score != nil && *s.Score > cp.top {
		o.add(AboveTop)
	}
	return o
}

// diagnose gives the motive of a zéro for a solution with no acceptable
// reading (§5.4.1 a, c, d; §5.7), and the average of §5.9 when it applies.
func (x *Corrector) diagnose(cp *Coup, s *Solution, w written, fs []fit, lc loc) outcome {
	o := outcome{sanction: Zero}
	if lc.truncated != "" {
		// A word lengthened by grid letters but not a mot joué (§5.2.2,
		// §5.7 "n'est pas écrit en entier (dernière lettre comprise !)").
		o.add(lc.truncated)
		return x.zeroAbove(cp, s, o)
	}
	word := letterTiles(w.letters)
	admitted := cp.lex.ContainsTiles(word)
	if !admitted {
		o.add(WordNotAdmitted)
		o.notAdmitted = []string{lettersString(w.letters)}
	}
	all := append(append([]fit(nil), fs...), x.fits(cp, w.letters, !s.vertical())...)
	var anyWhole, anyLetters bool
	var invalidAt *fit
	for i := range all {
		f := &all[i]
		if !f.whole() {
			continue
		}
		anyWhole = true
		if f.lettersOK {
			anyLetters = true
			if !f.playable() && (invalidAt == nil || lc.nearer(f, invalidAt)) {
				invalidAt = f
			}
		}
	}
	playableSomewhere, scoreFait := false, false
	for i := range all {
		if all[i].whole() && all[i].lettersOK && all[i].playable() {
			playableSomewhere = true
			for _, a := range all[i].asg {
				scoreFait = scoreFait || (a.playable && s.Score != nil && a.score == *s.Score)
			}
		}
	}
	var pointed *fit
	if lc.pointed {
		for _, dir := range []bool{s.vertical(), lc.pdir} {
			if f, ok := x.fitAt(cp, w.letters, lc.pr, lc.pc, dir); ok && f.whole() && pointed == nil {
				pointed = &f
			}
		}
	}
	switch {
	case !admitted:
	case pointed != nil && pointed.lettersOK && !pointed.playable():
		// §5.7: forms in raccord, where the player put it, a word not admitted.
		o.add(WordNotAdmitted)
		o.notAdmitted = append(o.notAdmitted, pointed.asg[0].invalid...)
		invalidAt = pointed
	case playableSomewhere:
		// §5.4.1.a: acceptable somewhere, but neither located nor scored.
		// With the sense and the reference both inverted (box (27)), a
		// score the word makes where it plays is not a wrong score (6):
		// the location is.
		switch {
		case s.Score == nil:
			o.add(ScoreMissing)
		case !scoreFait || !slices.Contains(lc.wrong, Inverted):
			o.add(ScoreWrong)
		}
		o.add(lc.wrong...)
	case !anyWhole || (lc.pointed && pointed == nil):
		// §5.4.1.c: erreur de grille, the word cannot lie on the grid
		// (where the player put it).
		o.add(GridError)
	case !anyLetters || (pointed != nil && !pointed.lettersOK):
		// §5.4.1.d: erreur de lettre.
		o.add(LetterError)
	case invalidAt != nil && len(invalidAt.asg) > 0:
		// §5.7: forms in raccord a word not admitted wherever it lies.
		o.add(WordNotAdmitted)
		o.notAdmitted = append(o.notAdmitted, invalidAt.asg[0].invalid...)
	}
	o = x.zeroAbove(cp, s, o)
	x.average(cp, &o, invalidAt)
	return o
}

// average applies §5.9: a non-admitted word played or formed again before
// the player was told of the first zéro earns the average, capped at the
// solution proposed, unless another error brings the nullité.
func (x *Corrector) average(cp *Coup, o *outcome, at *fit) {
	if len(o.notAdmitted) == 0 || cp.unnotified == nil {
		return
	}
	for _, r := range o.reasons {
		if r != WordNotAdmitted && r != AboveTop {
			return
		}
	}
	for _, w := range o.notAdmitted {
		if !cp.unnotified[w] {
			return
		}
	}
	if at == nil || len(at.asg) == 0 {
		// The word lies nowhere on the grid: an erreur de grille keeps
		// the nullité.
		return
	}
	// "Le joueur ne peut en aucun cas marquer plus de points que sa
	// solution proposée": the solution's value, not the score written.
	o.sanction = Average
	o.averageCap = at.asg[0].score
}

// lettersString renders letters as capitals.
func lettersString(ls []tile.Letter) string {
	b := make([]byte, len(ls))
	for i, l := range ls {
		b[i] = l.Byte()
	}
	return string(b)
}

// firstCoup applies §5.4.2.a: the maximum score for the word played,
// whatever the reference and the circling; an avertissement when the score
// is absent or differs from that maximum, or when the circling does not
// match it. (The guide §5.3 spares a possible score the warning and pays the
// circling's best; the 2020 regulation, which wins, does not.)
func (x *Corrector) firstCoup(cp *Coup, s *Solution, w written) outcome {
	fs := x.fits(cp, w.letters, false)
	best, circleOK := -1, false
	var place *fit
	for i := range fs {
		f := &fs[i]
		for j := range f.asg {
			a := &f.asg[j]
			if !a.playable {
				continue
			}
			exact := a.jokers == uint16(w.circled)&f.placed
			if a.score > best || (a.score == best && exact && !circleOK) {
				best, circleOK, place = a.score, exact, f
			}
		}
	}
	if place == nil {
		return x.diagnose(cp, s, w, fs, loc{})
	}
	o := outcome{paid: best, sanction: None, place: place.ref.String()}
	switch {
	case s.Score == nil:
		o.add(ScoreMissing)
	case *s.Score != best:
		o.add(ScoreWrong)
	}
	if !circleOK {
		o.add(JokerCircling)
	}
	if len(o.reasons) > 0 {
		o.sanction = Warning
	}
	return o
}
