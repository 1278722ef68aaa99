package duplicate

import (
	"hash/maphash"
	"iter"
	"maps"
	"sync/atomic"
)

// The game's entries by player — its players, and coup by coup their
// bulletins, corrections, decisions... — are shared between the game the
// repository keeps and the copies it hands to commands (Partie.Copie):
// 2,000 players' entries copied for every bulletin were a seventh of a
// hall's server time (issue 34). A copy shares them, and whichever of the
// two writes first copies what it writes, no more: the list of the coup's
// lots, and the lot of the player's entries (1/nLots of them). Copie marks
// the entries it shares, which neither game writes from then on, and
// nothing else ever changes what the two hold: a command that fails after
// changing its copy leaves the kept game as it was, and the kept game
// brought up to date leaves the copies as they were.

// nLots is the number of lots a coup's entries are spread over: a write
// copies about 60 entries of a 2,000-player game.
const nLots = 32

// graine spreads licences over the lots; a process's lots are its own.
var graine = maphash.MakeSeed()

// parJoueur is one set of entries by licence (a coup's bulletins, the
// players), spread over lots. A nil parJoueur is empty.
type parJoueur[V any] struct {
	partage atomic.Bool // held by a game and a copy: written by neither
	id      uint64      // the lots it made are its own
	n       int
	prevus  int // players expected: a lot is made for its share of them
	lots    [nLots]*lot[V]
}

// lot is one lot of entries, written in place only by the parJoueur that
// made it (de), while that one is not shared.
type lot[V any] struct {
	de uint64
	m  map[string]V
}

// ids numbers the parJoueur made.
var ids atomic.Uint64

func nouveauParJoueur[V any](prevus int) *parJoueur[V] {
	return &parJoueur[V]{id: ids.Add(1), prevus: prevus}
}

func indice(licence string) int { return int(maphash.String(graine, licence) % nLots) }

// lire returns the entry of licence.
func (pj *parJoueur[V]) lire(licence string) (V, bool) {
	if pj != nil {
		if l := pj.lots[indice(licence)]; l != nil {
			v, ok := l.m[licence]
			return v, ok
		}
	}
	var zero V
	return zero, false
}

// a reports that licence has an entry.
func (pj *parJoueur[V]) a(licence string) bool {
	_, ok := pj.lire(licence)
	return ok
}

// len is the number of entries.
func (pj *parJoueur[V]) len() int {
	if pj == nil {
		return 0
	}
	return pj.n
}

// tous are the entries, in no particular order.
func (pj *parJoueur[V]) tous() iter.Seq2[string, V] {
	return func(yield func(string, V) bool) {
		if pj == nil {
			return
		}
		for _, l := range pj.lots {
			if l == nil {
				continue
			}
			for k, v := range l.m {
				if !yield(k, v) {
					return
				}
			}
		}
	}
}

// partager marks pj held by two games.
func (pj *parJoueur[V]) partager() {
	if pj != nil && !pj.partage.Load() {
		pj.partage.Store(true)
	}
}

// modifiable is pj when this game alone holds it, else a copy of the list
// of its lots, which it copies in turn before writing them; an empty one
// for nil.
func (pj *parJoueur[V]) modifiable(prevus int) *parJoueur[V] {
	switch {
	case pj == nil:
		return nouveauParJoueur[V](prevus)
	case !pj.partage.Load():
		return pj
	}
	c := nouveauParJoueur[V](pj.prevus)
	c.n, c.lots = pj.n, pj.lots
	return c
}

// lotModifiable is the lot of licence, copied first when shared; pj must
// be modifiable.
func (pj *parJoueur[V]) lotModifiable(licence string) *lot[V] {
	i := indice(licence)
	l := pj.lots[i]
	switch {
	case l == nil:
		l = &lot[V]{de: pj.id, m: make(map[string]V, pj.prevus/nLots+1)}
	case l.de != pj.id:
		l = &lot[V]{de: pj.id, m: maps.Clone(l.m)}
	default:
		return l
	}
	pj.lots[i] = l
	return l
}

// mettre sets the entry of licence; pj must be modifiable.
func (pj *parJoueur[V]) mettre(licence string, v V) {
	l := pj.lotModifiable(licence)
	if _, ok := l.m[licence]; !ok {
		pj.n++
	}
	l.m[licence] = v
}

// oter removes the entry of licence; pj must be modifiable.
func (pj *parJoueur[V]) oter(licence string) {
	if !pj.a(licence) {
		return
	}
	delete(pj.lotModifiable(licence).m, licence)
	pj.n--
}

// parCoup is entries by coup and licence. Each game holds its own map of
// coups (Copie copies it, a few dozen coups), whose coups' entries it
// shares.
type parCoup[V any] map[int]*parJoueur[V]

// lire returns the entry of licence at coup.
func (m parCoup[V]) lire(coup int, licence string) (V, bool) { return m[coup].lire(licence) }

// mettre sets the entry of licence at coup; a coup's entries are made for
// prevus players at first, so that a game's bulletins do not grow them step
// by step (a sixth of a rebuild's replay of the games went to that growth).
func (m parCoup[V]) mettre(coup int, licence string, v V, prevus int) {
	pj := m[coup].modifiable(prevus)
	m[coup] = pj
	pj.mettre(licence, v)
}

// oter removes the entry of licence at coup.
func (m parCoup[V]) oter(coup int, licence string) {
	if m[coup].a(licence) {
		pj := m[coup].modifiable(0)
		m[coup] = pj
		pj.oter(licence)
	}
}

// a reports that licence has an entry at coup.
func (m parCoup[V]) a(coup int, licence string) bool { return m[coup].a(licence) }

// aUnCoup reports that a coup holds an entry of licence.
func (m parCoup[V]) aUnCoup(licence string) bool {
	for _, pj := range m {
		if pj.a(licence) {
			return true
		}
	}
	return false
}

// copie is the map of coups for a copy of the game, sharing every coup's
// entries with m.
func (m parCoup[V]) copie() parCoup[V] {
	if m == nil {
		return nil
	}
	c := make(parCoup[V], len(m))
	for coup, pj := range m {
		pj.partager()
		c[coup] = pj
	}
	return c
}
