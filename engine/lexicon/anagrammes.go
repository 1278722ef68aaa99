package lexicon

import (
	"math/bits"
	"slices"
	"sync"

	"arbitre/engine/tile"
)

// MaxAnagramme is the longest word whose letters Anagrammes can answer for:
// every rack of §3.8.2 with one letter of the board, the standard rack with
// three. Longer words are rare and cost the most to enumerate.
const MaxAnagramme = 10

// Anagrammes are the letter multisets of the words of one length: whether
// some letters, in any order, spell a word. The move generator asks it
// whether a whole rack (with the letters of the board a word would take)
// spells any word at all before it walks the placements that would need one.
type Anagrammes struct {
	// table holds the keys (Cle) by open addressing, linear probing, at
	// most half full; 0 is a free slot, and zero says whether 0 is a key.
	table []uint64
	zero  bool
	shift uint // 64 - log2(len(table))
	n     int
}

// anagrammes holds a lexicon's sets, built together on first use.
type anagrammes struct {
	once sync.Once
	set  [MaxAnagramme + 1]*Anagrammes
}

// Anagrammes returns the multisets of the words of n letters (safe for
// concurrent use); nil when n is out of 2..MaxAnagramme. Every length's set
// is built at the first call, in one walk of the lexicon (ODS8: 177,119
// classes of 2 to 10 letters, 4.1 MB of tables).
func (l *Lexicon) Anagrammes(n int) *Anagrammes {
	if n < 2 || n > MaxAnagramme {
		return nil
	}
	l.anag.once.Do(l.construireAnagrammes)
	return l.anag.set[n]
}

// construireAnagrammes enumerates the words of up to MaxAnagramme letters
// along the paths w[0] ^ w[1:], which spell each word once, forwards.
func (l *Lexicon) construireAnagrammes() {
	var cles [MaxAnagramme + 1][]uint64
	var counts [tile.Alphabet + 1]uint8
	var suite func(node Arc, n int)
	suite = func(node Arc, n int) {
		for m := node.Symbols() &^ 1; m != 0; m &= m - 1 {
			bit := m & -m
			arc := l.nodes[node.At(bit)]
			sym := bits.TrailingZeros32(bit)
			counts[sym]++
			if arc.Accepts() {
				cles[n+1] = append(cles[n+1], Cle(&counts))
			}
			if n+1 < MaxAnagramme {
				suite(arc, n+1)
			}
			counts[sym]--
		}
	}
	root := l.Root()
	for m := root.Symbols() &^ 1; m != 0; m &= m - 1 {
		bit := m & -m
		sep, ok := l.Find(l.nodes[root.At(bit)], Separator)
		if !ok {
			continue
		}
		sym := bits.TrailingZeros32(bit)
		counts[sym]++
		suite(sep, 1)
		counts[sym]--
	}
	for n := 2; n <= MaxAnagramme; n++ {
		slices.Sort(cles[n])
		l.anag.set[n] = nouveauxAnagrammes(slices.Compact(cles[n]))
	}
}

// nouveauxAnagrammes puts the distinct keys cles in a table: a question is
// one or two probes in it (a binary search over the sorted keys took
// twenty, each a likely cache miss).
func nouveauxAnagrammes(cles []uint64) *Anagrammes {
	size := 4
	for size < 2*len(cles) {
		size *= 2
	}
	a := &Anagrammes{table: make([]uint64, size), shift: uint(64 - bits.TrailingZeros(uint(size))), n: len(cles)}
	for _, k := range cles {
		if k == 0 {
			a.zero = true
			continue
		}
		i := a.slot(k)
		for a.table[i] != 0 {
			i = (i + 1) & (size - 1)
		}
		a.table[i] = k
	}
	return a
}

// slot is where the probe for key k starts (Fibonacci hashing).
func (a *Anagrammes) slot(k uint64) int {
	return int((k * 0x9e3779b97f4a7c15) >> a.shift)
}

// empreintes are the letters' keys: 64-bit constants drawn once
// (splitmix64 from a fixed seed, the same at every run); the joker's slot
// 0 has none.
var empreintes = func() (e [tile.Alphabet + 1]uint64) {
	x := uint64(0x5eed_a4b1_7e00_0034)
	for l := 1; l <= tile.Alphabet; l++ {
		x += 0x9e3779b97f4a7c15
		z := x
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		e[l] = z ^ z>>31
	}
	return e
}()

// CleLettre is the key of letter l alone: the key of a multiset is the
// sum of its letters' keys, so a caller adds or removes one letter by
// adding or subtracting it.
func CleLettre(l uint8) uint64 { return empreintes[l] }

// Cle is the key of a multiset of letters (counts[l] letters l, the
// joker's slot 0 ignored): the sum, modulo 2^64, of its letters' keys.
// Two multisets may share a key (about one chance in 2^64 for a pair):
// the sets then answer yes for both, which only keeps a span the move
// generator could have skipped — it asks them to skip work, never to find
// a move.
func Cle(counts *[tile.Alphabet + 1]uint8) uint64 {
	var k uint64
	for l := 1; l <= tile.Alphabet; l++ {
		k += uint64(counts[l]) * empreintes[l]
	}
	return k
}

// Contient reports whether the letters of counts (slot 0 ignored) spell a
// word of the set's length in some order (see Cle for the rare yes that is
// not).
func (a *Anagrammes) Contient(counts *[tile.Alphabet + 1]uint8) bool {
	return a.ContientCle(Cle(counts))
}

// ContientCle is Contient for the key k of the letters.
func (a *Anagrammes) ContientCle(k uint64) bool {
	if k == 0 {
		return a.zero
	}
	last := len(a.table) - 1
	for i := a.slot(k); ; i = (i + 1) & last {
		switch a.table[i] {
		case k:
			return true
		case 0:
			return false
		}
	}
}

// Taille is the number of distinct multisets (anagram classes).
func (a *Anagrammes) Taille() int { return a.n }
