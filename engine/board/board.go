// Package board is the FISF 15×15 board: squares in one flat array, the
// premium layout of §1.1 (fisf-reglement-duplicate-2020.txt), references in
// FISF notation ("H4" horizontal from row H column 4, "4H" vertical) and the
// 15-row text form used by `arbitre engine solve`.
package board

import (
	"fmt"
	"strings"

	"arbitre/engine/tile"
)

// Size is the number of rows and of columns.
const Size = 15

// Squares is the number of squares.
const Squares = Size * Size

// Centre is the index of the star, H8, which the first word must cover (§1.1).
const Centre = 7*Size + 7

// Board is the grid: Squares tiles, row-major, row A first.
type Board struct {
	sq [Squares]tile.Tile
}

// Index returns the square index of row r (0 = A) and column c (0 = column 1).
func Index(r, c int) int { return r*Size + c }

// At returns the tile on row r, column c (0-based).
func (b *Board) At(r, c int) tile.Tile { return b.sq[r*Size+c] }

// Set puts a tile on row r, column c (0-based).
func (b *Board) Set(r, c int, t tile.Tile) { b.sq[r*Size+c] = t }

// Square returns the tile at square index i.
func (b *Board) Square(i int) tile.Tile { return b.sq[i] }

// ColumnEqual reports whether column c (0-based) holds the same tiles on b
// and o.
func (b *Board) ColumnEqual(o *Board, c int) bool {
	for i := c; i < Squares; i += Size {
		if b.sq[i] != o.sq[i] {
			return false
		}
	}
	return true
}

// IsEmpty reports whether no tile is on the board.
func (b *Board) IsEmpty() bool {
	for _, t := range b.sq {
		if t != tile.Empty {
			return false
		}
	}
	return true
}

// TileCount is the number of tiles on the board.
func (b *Board) TileCount() int {
	n := 0
	for _, t := range b.sq {
		if t != tile.Empty {
			n++
		}
	}
	return n
}

// Transpose writes into dst the board mirrored about its main diagonal, so
// that vertical words of b are horizontal words of dst. The premium layout is
// symmetric about that diagonal, so premiums need no transposition.
func (b *Board) Transpose(dst *Board) {
	for r := 0; r < Size; r++ {
		for c := 0; c < Size; c++ {
			dst.sq[c*Size+r] = b.sq[r*Size+c]
		}
	}
}

// Parse reads the 15 rows A..O, 15 characters each: '.' empty, 'A'..'Z' a
// tile, 'a'..'z' a joker standing for that letter.
func Parse(rows []string) (Board, error) {
	var b Board
	if len(rows) != Size {
		return b, fmt.Errorf("grille de %d lignes, il en faut %d (A à O)", len(rows), Size)
	}
	for r, row := range rows {
		if len(row) != Size {
			return b, fmt.Errorf("grille : la ligne %c a %d caractères, il en faut %d", 'A'+r, len(row), Size)
		}
		for c := 0; c < Size; c++ {
			t, ok := tile.TileOf(row[c])
			if !ok {
				return b, fmt.Errorf("grille : ligne %c colonne %d : %q n'est ni '.', ni une lettre, ni une lettre de joker (minuscule)", 'A'+r, c+1, row[c])
			}
			b.sq[r*Size+c] = t
		}
	}
	return b, nil
}

// Rows renders the board in the form Parse reads.
func (b *Board) Rows() []string {
	rows := make([]string, Size)
	var line [Size]byte
	for r := 0; r < Size; r++ {
		for c := 0; c < Size; c++ {
			line[c] = b.sq[r*Size+c].Byte()
		}
		rows[r] = string(line[:])
	}
	return rows
}

// String draws the board with row letters and column numbers, for terminals.
func (b *Board) String() string {
	var s strings.Builder
	s.WriteString("   1 2 3 4 5 6 7 8 9 0 1 2 3 4 5\n")
	for r := 0; r < Size; r++ {
		s.WriteByte(byte('A' + r))
		s.WriteString("  ")
		for c := 0; c < Size; c++ {
			t := b.sq[r*Size+c]
			if t == tile.Empty {
				s.WriteByte(PremiumAt(r*Size + c).Symbol())
			} else {
				s.WriteByte(t.Byte())
			}
			if c < Size-1 {
				s.WriteByte(' ')
			}
		}
		s.WriteByte('\n')
	}
	return s.String()
}
