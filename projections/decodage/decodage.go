// Package decodage decodes the bulletins, the events that make 99.7 % of a
// duplicate tournament's log (a deposited bulletin and its correction per
// player and coup), without reflection: a rebuild decodes 1.06 million of
// them on the 1,000-player, 23-game store (issue 16, item 10). Each decoder
// reads the layout encoding/json writes for the payload (keys in field
// order, omitempty fields left out, strings without escapes) and gives up
// on anything else, which the registry then decodes the general way
// (eventstore.Accelerate); on what it reads, it gives encoding/json's value.
package decodage

import (
	"unicode/utf8"

	"arbitre/domain/duplicate"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/intern"
	"arbitre/engine/correction"
)

// Accelerer gives r's bulletin types their decoders.
func Accelerer(r *eventstore.Registry) error {
	if err := eventstore.Accelerate(r, duplicate.TypeBulletinDepose, Depose); err != nil {
		return err
	}
	return eventstore.Accelerate(r, duplicate.TypeBulletinCorrige, Corrige)
}

// Depose decodes a duplicate.BulletinDepose written by encoding/json.
func Depose(data []byte) (duplicate.BulletinDepose, bool) {
	l := lecteur{b: data, ok: true}
	var v duplicate.BulletinDepose
	l.lit(`{"coup":`)
	v.Coup = l.entier()
	l.lit(`,"licence":`)
	v.Licence = l.chaine()
	if l.peut(`,"table":`) {
		v.Table = l.entier()
	}
	if l.peut(`,"arbitre":`) {
		v.Arbitre = l.chaine()
	}
	l.lit(`,"bulletin":{"missing":`)
	b := &v.Bulletin
	b.Missing = l.booleen()
	l.lit(`,"blank":`)
	b.Blank = l.booleen()
	l.lit(`,"several":`)
	b.Several = l.booleen()
	l.lit(`,"late":`)
	b.Late = l.booleen()
	l.lit(`,"exchanged":`)
	b.Exchanged = l.booleen()
	l.lit(`,"illegible":`)
	b.Illegible = l.booleen()
	if l.peut(`,"hard_to_read":`) {
		b.HardToRead = l.booleen()
	}
	l.lit(`,"discipline":`)
	b.Discipline = l.entier()
	l.lit(`,"solutions":`)
	b.Solutions = liste(&l, solution)
	l.lit(`}}`)
	return v, l.fin()
}

func solution(l *lecteur) correction.Solution {
	var s correction.Solution
	l.lit(`{"word":`)
	s.Word = l.chaine()
	l.lit(`,"written":`)
	s.Written = correction.Sens(l.chaine())
	l.lit(`,"ref":`)
	if !l.peut(`null`) {
		ref := l.chaine()
		s.Ref = &ref
	}
	l.lit(`,"raccord":`)
	s.Raccord = liste(l, func(l *lecteur) correction.RaccordLetter {
		var r correction.RaccordLetter
		l.lit(`{"letter":`)
		r.Letter = l.chaine()
		l.lit(`,"dr":`)
		r.DR = l.entier()
		l.lit(`,"dc":`)
		r.DC = l.entier()
		l.lit(`}`)
		return r
	})
	l.lit(`,"score":`)
	s.Score = l.entierOuNull()
	l.lit(`,"crossed":`)
	s.Crossed = l.booleen()
	l.lit(`}`)
	return s
}

// Corrige decodes a duplicate.BulletinCorrige written by encoding/json.
func Corrige(data []byte) (duplicate.BulletinCorrige, bool) {
	l := lecteur{b: data, ok: true}
	var v duplicate.BulletinCorrige
	l.lit(`{"coup":`)
	v.Coup = l.entier()
	l.lit(`,"licence":`)
	v.Licence = l.chaine()
	if l.peut(`,"arbitre":`) {
		v.Arbitre = l.chaine()
	}
	if l.peut(`,"table":`) {
		v.Table = l.entier()
	}
	if l.peut(`,"moteur":`) {
		v.Moteur = decision(&l)
	}
	if l.peut(`,"arbitrage":`) {
		v.Arbitrage = decision(&l)
	}
	if l.peut(`,"motif":`) {
		v.Motif = l.chaine()
	}
	l.lit(`}`)
	return v, l.fin()
}

func decision(l *lecteur) *correction.Decision {
	var d correction.Decision
	l.lit(`{"paid":`)
	d.Paid = l.entier()
	l.lit(`,"sanction":`)
	d.Sanction = correction.Sanction(l.chaine())
	l.lit(`,"reasons":`)
	d.Reasons = liste(l, func(l *lecteur) correction.Reason { return correction.Reason(l.chaine()) })
	l.lit(`,"commission":`)
	d.Commission = l.booleen()
	l.lit(`,"place":`)
	d.Place = l.chaine()
	l.lit(`,"score_written_back":`)
	d.ScoreWrittenBack = l.entierOuNull()
	if l.peut(`,"not_admitted":`) {
		d.NotAdmitted = liste(l, (*lecteur).chaine)
	}
	if l.peut(`,"average_cap":`) {
		d.AverageCap = l.entier()
	}
	if l.peut(`,"discipline_warnings":`) {
		d.DisciplineWarnings = l.entier()
	}
	l.lit(`,"billet":`)
	d.Billet = l.booleen()
	l.lit(`,"engine":`)
	d.Engine = l.chaine()
	l.lit(`}`)
	return &d
}

// lecteur reads JSON bytes in a layout known in advance; ok turns false at
// the first byte that departs from it, and every read after that gives a
// zero value.
type lecteur struct {
	b  []byte
	i  int
	ok bool
}

// peut reads s when the bytes go on with it.
func (l *lecteur) peut(s string) bool {
	if !l.ok || len(l.b)-l.i < len(s) || string(l.b[l.i:l.i+len(s)]) != s {
		return false
	}
	l.i += len(s)
	return true
}

// lit reads s.
func (l *lecteur) lit(s string) {
	if !l.peut(s) {
		l.ok = false
	}
}

// fin tells whether every byte was read in the layout.
func (l *lecteur) fin() bool { return l.ok && l.i == len(l.b) }

// entier reads an integer as encoding/json writes an int: an optional
// minus sign and at most 18 digits, no leading zero.
func (l *lecteur) entier() int {
	if !l.ok {
		return 0
	}
	negatif := l.peut(`-`)
	debut := l.i
	n := 0
	for l.i < len(l.b) && l.b[l.i] >= '0' && l.b[l.i] <= '9' && l.i-debut < 18 {
		n = n*10 + int(l.b[l.i]-'0')
		l.i++
	}
	chiffres := l.i - debut
	if chiffres == 0 || (chiffres > 1 && l.b[debut] == '0') || (l.i < len(l.b) && (l.b[l.i] >= '0' && l.b[l.i] <= '9' || l.b[l.i] == '.' || l.b[l.i] == 'e' || l.b[l.i] == 'E')) {
		l.ok = false
		return 0
	}
	if negatif {
		return -n
	}
	return n
}

// entierOuNull reads null (nil) or an integer.
func (l *lecteur) entierOuNull() *int {
	if l.peut(`null`) {
		return nil
	}
	n := l.entier()
	return &n
}

// booleen reads true or false.
func (l *lecteur) booleen() bool {
	if l.peut(`true`) {
		return true
	}
	l.lit(`false`)
	return false
}

// chaine reads a string of valid UTF-8 without escapes or control
// characters (encoding/json escapes those it writes, and a string with
// escapes is left to it).
func (l *lecteur) chaine() string {
	if !l.peut(`"`) {
		l.ok = false
		return ""
	}
	debut := l.i
	for l.i < len(l.b) {
		switch c := l.b[l.i]; {
		case c == '"':
			s := l.b[debut:l.i]
			l.i++
			if !utf8.Valid(s) {
				l.ok = false
				return ""
			}
			return intern.Intern(s)
		case c == '\\' || c < 0x20:
			l.ok = false
			return ""
		}
		l.i++
	}
	l.ok = false
	return ""
}

// liste reads null (a nil slice) or an array of elements read by element
// (an empty array is an empty slice, as encoding/json gives).
func liste[T any](l *lecteur, element func(*lecteur) T) []T {
	if l.peut(`null`) {
		return nil
	}
	l.lit(`[`)
	out := []T{}
	if l.peut(`]`) {
		return out
	}
	for l.ok {
		out = append(out, element(l))
		if !l.peut(`,`) {
			break
		}
	}
	l.lit(`]`)
	return out
}
