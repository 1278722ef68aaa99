package movegen

import (
	"arbitre/engine/board"
	"arbitre/engine/tile"
)

// Move is one placement: the whole main word (tiles already on the board
// included) at a reference, which of its squares are newly covered, and the
// score. It holds no pointers, so slices of moves are reused without garbage.
type Move struct {
	Row, Col uint8 // first square of the main word, 0-based
	Vertical bool
	Len      uint8
	Word     [board.Size]tile.Tile
	// Placed has bit i set when Word[i] is put down by this move.
	Placed    uint16
	NPlaced   uint8
	UsesJoker bool
	// EmptiesRack is set when the move puts down every tile of the rack.
	EmptiesRack bool
	Score       int32
}

// Ref is the FISF reference of the main word.
func (m *Move) Ref() board.Ref {
	return board.Ref{Row: int(m.Row), Col: int(m.Col), Vertical: m.Vertical}
}

// WordString renders the main word with jokers in lowercase.
func (m *Move) WordString() string {
	buf := make([]byte, m.Len)
	for i := range buf {
		buf[i] = m.Word[i].Byte()
	}
	return string(buf)
}

// IsPlaced reports whether the i-th letter of the word is put down by the move.
func (m *Move) IsPlaced(i int) bool { return m.Placed&(1<<i) != 0 }

// Square is the board index of the i-th letter of the word.
func (m *Move) Square(i int) int {
	if m.Vertical {
		return (int(m.Row)+i)*board.Size + int(m.Col)
	}
	return int(m.Row)*board.Size + int(m.Col) + i
}

// EndsGame reports whether the move ends the game: it empties the rack and
// the bag is empty (§3.7).
func (m *Move) EndsGame(bagEmpty bool) bool { return bagEmpty && m.EmptiesRack }
