// Package lexicon holds the word list the engine plays with, compiled into a
// GADDAG laid out as one flat array of 32-bit arcs: loading a compiled file is
// one read and one checksum, and the move generator walks the array directly.
package lexicon

import (
	"fmt"
	"hash/crc32"
	"math/bits"

	"arbitre/engine/tile"
)

// An arc packs: bits 0-4 the symbol (Separator or a Letter), bit 5 "accepts"
// (the path through this arc spells a complete entry), bit 6 "last arc of its
// list", bits 7-31 the index of the first arc of the child's list (0: none).
const (
	symbolMask = 0x1f
	acceptsBit = 1 << 5
	lastBit    = 1 << 6
	childShift = 7
	// maxArcs is the largest compiled arc array: the walking form adds one
	// mask word per list (at most one per arc), and its indexes must fit the
	// 25-bit child field.
	maxArcs = 1 << (32 - childShift - 1)
)

func makeArc(symbol byte, accepts, last bool, child uint32) uint32 {
	a := uint32(symbol) | child<<childShift
	if accepts {
		a |= acceptsBit
	}
	if last {
		a |= lastBit
	}
	return a
}

// Lexicon is a compiled word list.
type Lexicon struct {
	// disk is the compiled form, as written and read.
	disk []uint32
	// nodes is the form the generator walks: every list of arcs is preceded
	// by the set of its symbols (bit s for symbol s), so that one cache line
	// usually holds both the test "does this list offer a letter I may
	// play?" and the arc it leads to. Entry 0 points at the root's list;
	// child indexes point at a list's mask word.
	nodes []uint32
	words int
	label string
	// identite is computed once, when the lexicon is built or read.
	identite Identite
	// anciennes are the identities of the same list under former labels
	// (ConnuAussi): games recorded them and are judged with this list.
	anciennes []Identite
	// anag are the anagram sets, built when the generator first asks.
	anag anagrammes
}

// Identite names one compiled word list for good: its label, its word count
// and the CRC-32C of its compiled form (the checksum of the file's header).
// A game records it when it is created, and is judged with that list only.
type Identite struct {
	Label string `json:"label"`
	Mots  int    `json:"mots"`
	Somme uint32 `json:"somme"`
}

// String renders the identity for people: the label, the word count and the
// checksum in hexadecimal.
func (id Identite) String() string {
	return fmt.Sprintf("%s (%d mots, somme %08x)", id.Label, id.Mots, id.Somme)
}

// Etiquette is the list's label, as a refusal names it (erreur.Lexique).
func (id Identite) Etiquette() string { return id.Label }

// newLexicon lays the compiled arcs out for walking.
func newLexicon(disk []uint32, words int, label string) *Lexicon {
	// moved[s] is the index in nodes of the mask word of the list that
	// starts at disk index s (0 for an index that starts no list).
	moved := make([]uint32, len(disk))
	next := uint32(1)
	start := 1
	for i := 1; i < len(disk); i++ {
		if i == start {
			moved[start] = next
			next++
		}
		next++
		if ArcLast(disk[i]) {
			start = i + 1
		}
	}
	nodes := make([]uint32, next)
	relocate := func(a uint32) uint32 {
		child := ArcChild(a)
		if child != 0 {
			child = moved[child]
		}
		return a&(1<<childShift-1) | child<<childShift
	}
	nodes[0] = relocate(disk[0])
	start = 1
	for i := 1; i < len(disk); i++ {
		head := moved[start]
		nodes[head] |= 1 << ArcSymbol(disk[i])
		nodes[head+1+uint32(i-start)] = relocate(disk[i])
		if ArcLast(disk[i]) {
			start = i + 1
		}
	}
	id := Identite{Label: label, Mots: words, Somme: crc32.Checksum(corps(disk, label), castagnoli)}
	return &Lexicon{disk: disk, nodes: nodes, words: words, label: label, identite: id}
}

// ListMask is the set of symbols offered by the list at index list (bit s
// for symbol s); 0 for no list.
func (l *Lexicon) ListMask(list uint32) uint32 {
	if list == 0 {
		return 0
	}
	return l.nodes[list]
}

// Arcs exposes the array the move generator walks (read only): at a list's
// index its symbol mask, then its arcs in symbol order.
func (l *Lexicon) Arcs() []uint32 { return l.nodes }

// Root is the index of the root's arc list.
func (l *Lexicon) Root() uint32 { return ArcChild(l.nodes[0]) }

// ArcCount is the number of arcs of the compiled form.
func (l *Lexicon) ArcCount() int { return len(l.disk) }

// Words is the number of words.
func (l *Lexicon) Words() int { return l.words }

// Identite is the lexicon's stable identity.
func (l *Lexicon) Identite() Identite { return l.identite }

// Label describes the list (edition, source, licence) as given at compile time.
func (l *Lexicon) Label() string { return l.label }

// ConnuAussi records that the same list went by label before, compiled
// under it: a game recorded that identity at its creation (its label is part
// of it, checksum included) and goes on being judged with this list. Call it
// before the lexicon is shared.
func (l *Lexicon) ConnuAussi(label string) *Lexicon {
	if label != l.label {
		l.anciennes = append(l.anciennes, Identite{Label: label, Mots: l.words, Somme: crc32.Checksum(corps(l.disk, label), castagnoli)})
	}
	return l
}

// Identites are the identities the lexicon answers to: its own first, then
// those of its former labels (ConnuAussi).
func (l *Lexicon) Identites() []Identite {
	return append([]Identite{l.identite}, l.anciennes...)
}

// ArcSymbol is the arc's symbol: Separator or a tile.Letter.
func ArcSymbol(a uint32) uint8 { return uint8(a & symbolMask) }

// ArcAccepts reports whether the path through the arc is a complete entry.
func ArcAccepts(a uint32) bool { return a&acceptsBit != 0 }

// ArcLast reports whether the arc ends its list.
func ArcLast(a uint32) bool { return a&lastBit != 0 }

// ArcChild is the index of the child's arc list, 0 when the child has none.
func ArcChild(a uint32) uint32 { return a >> childShift }

// Find returns the index of the arc labelled symbol in the list at list, or
// 0 when there is none (or list is 0). Lists are sorted by symbol and their
// mask holds exactly their symbols, so the arc's rank is the number of
// smaller symbols in the mask.
func (l *Lexicon) Find(list uint32, symbol uint8) uint32 {
	mask := l.ListMask(list)
	bit := uint32(1) << symbol
	if mask&bit == 0 {
		return 0
	}
	return ArcAt(list, mask, bit)
}

// ArcAt is the index of the arc of symbol bit bit in the list at list,
// whose mask is mask (the bit must be in the mask).
func ArcAt(list, mask, bit uint32) uint32 {
	return list + 1 + uint32(bits.OnesCount32(mask&(bit-1)))
}

// ContainsTiles reports whether the tiles, as they lie on the board (a joker
// counts as the letter it stands for), spell a word of the lexicon: the
// GADDAG path of a word read wholly backwards has no separator.
func (l *Lexicon) ContainsTiles(word []tile.Tile) bool {
	if len(word) < 2 {
		return false
	}
	list := l.Root()
	for i := len(word) - 1; i >= 0; i-- {
		arc := l.Find(list, uint8(word[i].Letter()))
		if arc == 0 {
			return false
		}
		if i == 0 {
			return ArcAccepts(l.nodes[arc])
		}
		list = ArcChild(l.nodes[arc])
	}
	return false
}

// ContainsString is ContainsTiles for an A–Z string (any case).
func (l *Lexicon) ContainsString(word string) bool {
	var buf [MaxWordLength]tile.Tile
	if len(word) > MaxWordLength {
		return false
	}
	for i := 0; i < len(word); i++ {
		letter, ok := tile.LetterOf(word[i])
		if !ok {
			return false
		}
		buf[i] = tile.Tile(letter)
	}
	return l.ContainsTiles(buf[:len(word)])
}
