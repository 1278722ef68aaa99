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
	// maxArcs is the largest compiled arc array accepted, half what the
	// 25-bit child field indexes (the bound files were always held to).
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
	// nodes is the form the generator walks (Arc): disk's arcs in the same
	// places, each carrying its child list's symbol set. Entry 0 leads to
	// the root's list.
	nodes []Arc
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

// newLexicon lays the compiled arcs out for walking: each arc in the same
// place, carrying its child list's symbol set (Arc).
func newLexicon(disk []uint32, words int, label string) *Lexicon {
	// symbols[s] is the symbol set of the list that starts at disk index s
	// (empty for an index that starts no list).
	symbols := make([]uint32, len(disk))
	start := 1
	for i := 1; i < len(disk); i++ {
		symbols[start] |= 1 << arcSymbol(disk[i])
		if arcLast(disk[i]) {
			start = i + 1
		}
	}
	l := &Lexicon{disk: disk, words: words, label: label}
	nodes := tableArcs(len(disk), l)
	for i, a := range disk {
		child := arcChild(a)
		nodes[i] = Arc(child)<<32 | Arc(symbols[child])
		if i > 0 && arcAccepts(a) {
			nodes[i] |= AcceptsArc
		}
	}
	l.nodes = nodes
	l.identite = Identite{Label: label, Mots: words, Somme: crc32.Checksum(corps(disk, label), castagnoli)}
	return l
}

// Arcs exposes the array the move generator walks (read only): Root, then
// the lists of arcs, each in symbol order. It may live outside the Go heap
// (tableArcs): keep the lexicon reachable while the array is used.
func (l *Lexicon) Arcs() []Arc { return l.nodes }

// Root is the arc that leads to the root's list: the walk starts there.
func (l *Lexicon) Root() Arc { return l.nodes[0] }

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

// arcSymbol is a compiled arc's symbol: Separator or a tile.Letter.
func arcSymbol(a uint32) uint8 { return uint8(a & symbolMask) }

// arcAccepts reports whether the path through a compiled arc is a complete
// entry.
func arcAccepts(a uint32) bool { return a&acceptsBit != 0 }

// arcLast reports whether a compiled arc ends its list.
func arcLast(a uint32) bool { return a&lastBit != 0 }

// arcChild is the index of a compiled arc's child list, 0 when it has none.
func arcChild(a uint32) uint32 { return a >> childShift }

// Arc is an arc of the form the generator walks: bits 0-26 the set of
// symbols its child's list offers (bit s for symbol s; empty when the path
// goes no further), bit 27 "accepts" (the path through the arc spells a
// complete entry), bits 32-63 the index of the child list's first arc. A
// list is its arcs in symbol order and nothing else: the arc that leads to
// it says which symbols it offers, so the walk knows whether a list holds a
// letter it may play without reading it, and reads only the arcs it
// follows (the arc of a symbol is at the list's index plus the number of
// smaller symbols in the set).
type Arc uint64

const (
	symbolsMask Arc = 1<<27 - 1
	// AcceptsArc is the bit of "accepts": a mask of symbols and
	// AcceptsArc asks an arc both at once.
	AcceptsArc Arc = 1 << 27
)

// Symbols is the set of symbols a's child list offers (bit s for symbol s).
func (a Arc) Symbols() uint32 { return uint32(a & symbolsMask) }

// Accepts reports whether the path through a is a complete entry.
func (a Arc) Accepts() bool { return a&AcceptsArc != 0 }

// At is the index in Arcs of the arc of symbol bit bit in a's child list;
// the bit must be in a.Symbols().
func (a Arc) At(bit uint32) uint32 {
	return uint32(a>>32) + uint32(bits.OnesCount32(a.Symbols()&(bit-1)))
}

// Find returns the arc labelled symbol in a's child list, and false when
// that list has none.
func (l *Lexicon) Find(a Arc, symbol uint8) (Arc, bool) {
	bit := uint32(1) << symbol
	if a.Symbols()&bit == 0 {
		return 0, false
	}
	return l.nodes[a.At(bit)], true
}

// ContainsTiles reports whether the tiles, as they lie on the board (a joker
// counts as the letter it stands for), spell a word of the lexicon: the
// GADDAG path of a word read wholly backwards has no separator.
func (l *Lexicon) ContainsTiles(word []tile.Tile) bool {
	if len(word) < 2 {
		return false
	}
	a := l.Root()
	for i := len(word) - 1; i >= 0; i-- {
		var ok bool
		if a, ok = l.Find(a, uint8(word[i].Letter())); !ok {
			return false
		}
	}
	return a.Accepts()
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
