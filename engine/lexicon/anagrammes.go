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
	cles []uint64 // sorted, without repeats
}

// anagrammes holds a lexicon's sets, built together on first use.
type anagrammes struct {
	once sync.Once
	set  [MaxAnagramme + 1]*Anagrammes
}

// Anagrammes returns the multisets of the words of n letters (safe for
// concurrent use); nil when n is out of 2..MaxAnagramme. Every length's set
// is built at the first call, in one walk of the lexicon (ODS8: 60 ms on
// the CI machine, 1.4 MB).
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
	var suite func(list uint32, n int)
	suite = func(list uint32, n int) {
		mask := l.ListMask(list)
		for m := mask &^ 1; m != 0; m &= m - 1 {
			bit := m & -m
			arc := l.nodes[ArcAt(list, mask, bit)]
			sym := bits.TrailingZeros32(bit)
			counts[sym]++
			if ArcAccepts(arc) {
				cles[n+1] = append(cles[n+1], Cle(&counts))
			}
			if n+1 < MaxAnagramme {
				suite(ArcChild(arc), n+1)
			}
			counts[sym]--
		}
	}
	root := l.Root()
	mask := l.ListMask(root)
	for m := mask &^ 1; m != 0; m &= m - 1 {
		bit := m & -m
		sep := l.Find(ArcChild(l.nodes[ArcAt(root, mask, bit)]), Separator)
		if sep == 0 {
			continue
		}
		sym := bits.TrailingZeros32(bit)
		counts[sym]++
		suite(ArcChild(l.nodes[sep]), 1)
		counts[sym]--
	}
	for n := 2; n <= MaxAnagramme; n++ {
		slices.Sort(cles[n])
		l.anag.set[n] = &Anagrammes{cles: slices.Compact(cles[n])}
	}
}

// Cle is the key of a multiset of letters (counts[l] letters l, the
// joker's slot 0 ignored): its letters in alphabetical order, five bits
// each (twelve letters at most fit).
func Cle(counts *[tile.Alphabet + 1]uint8) uint64 {
	var k uint64
	for l := 1; l <= tile.Alphabet; l++ {
		for range counts[l] {
			k = k<<5 | uint64(l)
		}
	}
	return k
}

// Contient reports whether the letters of counts (slot 0 ignored) spell a
// word of the set's length in some order.
func (a *Anagrammes) Contient(counts *[tile.Alphabet + 1]uint8) bool {
	_, ok := slices.BinarySearch(a.cles, Cle(counts))
	return ok
}

// Taille is the number of distinct multisets (anagram classes).
func (a *Anagrammes) Taille() int { return len(a.cles) }
