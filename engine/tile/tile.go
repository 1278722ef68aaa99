// Package tile defines the French tile set of the FISF regulation (§1.1 of
// fisf-reglement-duplicate-2020.txt): letters as small integers, their values
// and counts, jokers, and racks as count arrays.
package tile

import "strings"

// Letter is A..Z encoded 1..26. Zero is "no letter": an empty square, or the
// joker's slot in a rack.
type Letter uint8

// Tile is what lies on a square: a Letter, with JokerBit set when the tile is
// a joker standing for that letter. Zero is an empty square.
type Tile uint8

const (
	// NoLetter marks an empty square and, in racks, the joker's slot.
	NoLetter Letter = 0
	// Alphabet is the number of letters A..Z.
	Alphabet = 26
	// JokerBit flags a tile as a joker standing for its letter.
	JokerBit Tile = 0x80
	// Empty is an empty square.
	Empty Tile = 0
)

// values and counts are §1.1's table, indexed by Letter; index 0 is the joker.
var (
	values = [Alphabet + 1]int{0,
		1, 3, 3, 2, 1, 4, 2, 4, 1, 8, 10, 1, 2, // A..M
		1, 1, 3, 8, 1, 1, 1, 1, 4, 10, 10, 10, 10} // N..Z
	counts = [Alphabet + 1]int{2,
		9, 2, 2, 3, 15, 2, 2, 2, 8, 1, 1, 5, 3, // A..M
		6, 6, 2, 1, 6, 6, 6, 6, 2, 1, 1, 1, 1} // N..Z
)

// TotalTiles is the size of the French set: 100 letters and 2 jokers (§1.1).
const TotalTiles = 102

// Value is the value of a letter (§1.1); the joker's slot (NoLetter) is worth 0.
func (l Letter) Value() int { return values[l] }

// Count is how many tiles of this letter the French set holds; NoLetter gives
// the number of jokers.
func (l Letter) Count() int { return counts[l] }

// Byte is the uppercase ASCII letter, or '?' for NoLetter.
func (l Letter) Byte() byte {
	if l == NoLetter {
		return '?'
	}
	return 'A' + byte(l) - 1
}

// IsVowel reports whether l is one of A E I O U (Y counts as either at the
// director's choice, §3.2, and is not reported here).
func (l Letter) IsVowel() bool {
	switch l {
	case 1, 5, 9, 15, 21:
		return true
	}
	return false
}

// LetterOf maps an ASCII letter of either case to its Letter.
func LetterOf(b byte) (Letter, bool) {
	switch {
	case b >= 'A' && b <= 'Z':
		return Letter(b - 'A' + 1), true
	case b >= 'a' && b <= 'z':
		return Letter(b - 'a' + 1), true
	}
	return NoLetter, false
}

// Letter is the letter the tile stands for.
func (t Tile) Letter() Letter { return Letter(t &^ JokerBit) }

// IsJoker reports whether the tile is a joker.
func (t Tile) IsJoker() bool { return t&JokerBit != 0 }

// Value is the tile's score value: a joker is worth 0 (§1.2).
func (t Tile) Value() int {
	if t.IsJoker() {
		return 0
	}
	return values[t.Letter()]
}

// Byte renders the tile as on a board row: '.' empty, 'A'..'Z' a letter,
// 'a'..'z' a joker.
func (t Tile) Byte() byte {
	switch {
	case t == Empty:
		return '.'
	case t.IsJoker():
		return 'a' + byte(t.Letter()) - 1
	}
	return 'A' + byte(t) - 1
}

// TileOf parses the board notation: '.' empty, 'A'..'Z' a letter, 'a'..'z' a joker.
func TileOf(b byte) (Tile, bool) {
	switch {
	case b == '.':
		return Empty, true
	case b >= 'A' && b <= 'Z':
		return Tile(b - 'A' + 1), true
	case b >= 'a' && b <= 'z':
		return Tile(b-'a'+1) | JokerBit, true
	}
	return Empty, false
}

// Rack holds the tiles of a tirage as counts per letter; index 0 counts jokers.
type Rack [Alphabet + 1]uint8

// Size is the number of tiles in the rack.
func (r *Rack) Size() int {
	n := 0
	for _, c := range r {
		n += int(c)
	}
	return n
}

// String renders the rack with letters in alphabetical order and jokers last,
// the order in which the reliquat is announced (§3.1).
func (r *Rack) String() string {
	var b strings.Builder
	for l := Letter(1); l <= Alphabet; l++ {
		for i := uint8(0); i < r[l]; i++ {
			b.WriteByte(l.Byte())
		}
	}
	for i := uint8(0); i < r[NoLetter]; i++ {
		b.WriteByte('?')
	}
	return b.String()
}
