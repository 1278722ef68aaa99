package board

// Premium is the colour of a square (§1.2.1): it multiplies the letter placed
// on it or the word it belongs to, only on the coup that covers it.
type Premium uint8

// The premium colours of §1.2.1.
const (
	Plain        Premium = iota
	DoubleLetter         // light blue
	TripleLetter         // dark blue
	DoubleWord           // pink, and the star H8
	TripleWord           // red
)

// LetterMultiplier is the factor applied to the value of the tile placed on the square.
func (p Premium) LetterMultiplier() int {
	switch p {
	case DoubleLetter:
		return 2
	case TripleLetter:
		return 3
	}
	return 1
}

// WordMultiplier is the factor applied to every word the placed tile belongs to.
func (p Premium) WordMultiplier() int {
	switch p {
	case DoubleWord:
		return 2
	case TripleWord:
		return 3
	}
	return 1
}

// Symbol is the character drawn for an empty square of this colour.
func (p Premium) Symbol() byte {
	return ".'\"-="[p]
}

// layout lists the premium squares of the FISF board (seeds/README.md,
// §1.1's "grille type"): 8 red, 17 pink (with the star), 12 dark blue, 24
// light blue.
var layout = map[Premium][]string{
	TripleWord: {"A1", "A8", "A15", "H1", "H15", "O1", "O8", "O15"},
	DoubleWord: {"B2", "C3", "D4", "E5", "K11", "L12", "M13", "N14", "B14", "C13", "D12", "E11",
		"K5", "L4", "M3", "N2", "H8"},
	TripleLetter: {"B6", "B10", "F2", "F6", "F10", "F14", "J2", "J6", "J10", "J14", "N6", "N10"},
	DoubleLetter: {"A4", "A12", "C7", "C9", "D1", "D8", "D15", "G3", "G7", "G9", "G13", "H4", "H12",
		"I3", "I7", "I9", "I13", "L1", "L8", "L15", "M7", "M9", "O4", "O12"},
}

// premiums is the layout as a dense array, read on the hot paths.
var premiums = func() (p [Squares]Premium) {
	for kind, squares := range layout {
		for _, name := range squares {
			r, c, err := parseSquare(name)
			if err != nil {
				panic(err)
			}
			p[r*Size+c] = kind
		}
	}
	return p
}()

// PremiumAt is the colour of square index i.
func PremiumAt(i int) Premium { return premiums[i] }
