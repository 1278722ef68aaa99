package board

import (
	"fmt"
	"strconv"
)

// Ref is a word's reference in FISF notation (§1.1): the square of its first
// letter and its direction. "H4" is horizontal from row H column 4; "4H" is
// vertical from column 4 row H.
type Ref struct {
	Row, Col int // 0-based
	Vertical bool
}

// ParseRef reads "H4" (horizontal) or "4H" (vertical), case-insensitive.
func ParseRef(s string) (Ref, error) {
	if len(s) < 2 || len(s) > 3 {
		return Ref{}, fmt.Errorf("reference of %d characters: want a row letter A-O and a column 1-15, e.g. H4 or 4H", len(s))
	}
	first := s[0] | 0x20
	if first >= 'a' && first <= 'o' {
		r, c, err := parseSquare(s)
		return Ref{Row: r, Col: c}, err
	}
	last := s[len(s)-1] | 0x20
	if last < 'a' || last > 'o' {
		return Ref{}, fmt.Errorf("reference %q: no row letter A-O at either end", s)
	}
	col, err := strconv.Atoi(s[:len(s)-1])
	if err != nil || col < 1 || col > Size {
		return Ref{}, fmt.Errorf("reference %q: column must be 1-15", s)
	}
	return Ref{Row: int(last - 'a'), Col: col - 1, Vertical: true}, nil
}

// parseSquare reads a square name such as "H4".
func parseSquare(s string) (r, c int, err error) {
	row := s[0] | 0x20
	if row < 'a' || row > 'o' {
		return 0, 0, fmt.Errorf("square %q: row must be A-O", s)
	}
	col, err := strconv.Atoi(s[1:])
	if err != nil || col < 1 || col > Size {
		return 0, 0, fmt.Errorf("square %q: column must be 1-15", s)
	}
	return int(row - 'a'), col - 1, nil
}

// String renders the reference in FISF notation.
func (r Ref) String() string {
	if r.Vertical {
		return strconv.Itoa(r.Col+1) + string(rune('A'+r.Row))
	}
	return string(rune('A'+r.Row)) + strconv.Itoa(r.Col+1)
}

// Step returns the square index offset between consecutive letters of a word
// in this direction.
func (r Ref) Step() int {
	if r.Vertical {
		return Size
	}
	return 1
}

// Start is the square index of the first letter.
func (r Ref) Start() int { return r.Row*Size + r.Col }

// Transposed swaps the direction and the coordinates.
func (r Ref) Transposed() Ref { return Ref{Row: r.Col, Col: r.Row, Vertical: !r.Vertical} }
