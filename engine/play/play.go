// Package play validates and scores one given move: "is this word playable at
// this place with this rack, what does it score, which words does it form,
// which are not in the lexicon". It is what the correction of a bulletin asks
// the engine (§5 of fisf-reglement-duplicate-2020.txt); scoring follows §1.2.
package play

import (
	"fmt"
	"unicode/utf8"

	"arbitre/engine/board"
	"arbitre/engine/lexicon"
	"arbitre/engine/movegen"
	"arbitre/engine/tile"
)

// Problem says why a placement cannot be played, whatever the lexicon says.
type Problem uint8

// The placement problems, in the order they are checked.
const (
	OK Problem = iota
	// TooShort: a word has two letters or more (§1.1).
	TooShort
	// OffBoard: the word runs past the edge of the grid.
	OffBoard
	// NotWhole: a tile touches the word's first or last letter along its
	// direction, so the word on the grid is longer than the one written.
	NotWhole
	// Mismatch: a letter differs from the tile already on that square.
	Mismatch
	// NothingPlaced: every square of the word is already covered.
	NothingPlaced
	// TooManyTiles: more tiles than the formula lets one coup put down (§3.8.2).
	TooManyTiles
	// NotInRack: the tiles put down are not all in the tirage.
	NotInRack
	// NotOnCentre: the first word must cover the star H8 (§1.1).
	NotOnCentre
	// FirstNotHorizontal: in duplicate the first word is horizontal (§3.4).
	FirstNotHorizontal
	// NotConnected: the word neither crosses nor touches a word on the grid (§1.1).
	NotConnected
)

var problemNames = [...]string{"OK", "TOO_SHORT", "OFF_BOARD", "NOT_WHOLE", "MISMATCH", "NOTHING_PLACED",
	"TOO_MANY_TILES", "NOT_IN_RACK", "NOT_ON_CENTRE", "FIRST_NOT_HORIZONTAL", "NOT_CONNECTED"}

// String is the problem's stable code.
func (p Problem) String() string { return problemNames[p] }

var problemMotifs = [...]string{"placement jouable", "un mot a au moins deux lettres (§1.1)", "le mot sort de la grille",
	"une lettre de la grille touche le début ou la fin du mot", "une lettre diffère de celle déjà posée sur sa case",
	"aucune lettre n'est posée", "trop de lettres posées pour un coup (§3.8.2)",
	"les lettres posées ne sont pas toutes disponibles", "le premier mot couvre l'étoile H8 (§1.1)",
	"le premier mot est horizontal (§3.4)", "le mot ne touche aucun mot de la grille (§1.1)"}

// Motif explains the problem in French, for messages to people.
func (p Problem) Motif() string { return problemMotifs[p] }

// Word is one word formed by the move.
type Word struct {
	Ref     board.Ref
	Len     uint8
	Letters [board.Size]tile.Tile
	Score   int32
	Valid   bool
}

// Text renders the word, jokers in lowercase.
func (w *Word) Text() string {
	buf := make([]byte, w.Len)
	for i := range buf {
		buf[i] = w.Letters[i].Byte()
	}
	return string(buf)
}

// Result is the verdict on one placement. Words[0] is the main word; the
// others are the perpendicular words formed by the tiles put down.
type Result struct {
	Problem   Problem
	Words     [board.Size + 1]Word
	NWords    int
	NPlaced   int
	UsesJoker bool
	// Score counts every word and the Scrabble bonus (§1.2), computed even
	// when some words are not in the lexicon.
	Score int32
}

// Playable reports whether the placement fits and every word it forms is in
// the lexicon.
func (r *Result) Playable() bool {
	if r.Problem != OK {
		return false
	}
	for i := 0; i < r.NWords; i++ {
		if !r.Words[i].Valid {
			return false
		}
	}
	return true
}

// Checker validates placements against one lexicon and formula.
type Checker struct {
	lex  *lexicon.Lexicon
	opts movegen.Options
}

// NewChecker returns a checker for the given lexicon and rules.
func NewChecker(lex *lexicon.Lexicon, opts movegen.Options) *Checker {
	if opts.Variant.MaxPlaced == 0 {
		opts.Variant = movegen.Standard
	}
	return &Checker{lex: lex, opts: opts}
}

// Check puts word (the whole word along ref's direction; tiles for empty
// squares are put down, a JokerBit marks a joker) on b at ref and fills res.
// rack may be nil to skip the tirage check. Check allocates nothing.
func (c *Checker) Check(b *board.Board, ref board.Ref, word []tile.Tile, rack *tile.Rack, res *Result) {
	*res = Result{}
	res.Problem = c.place(b, ref, word, rack, res)
	if res.Problem != OK {
		return
	}
	c.score(b, ref, word, res)
}

// place checks geometry, tiles and connection, filling NPlaced and UsesJoker.
func (c *Checker) place(b *board.Board, ref board.Ref, word []tile.Tile, rack *tile.Rack, res *Result) Problem {
	n := len(word)
	if n < 2 {
		return TooShort
	}
	along, across := ref.Col, ref.Row
	if ref.Vertical {
		along, across = ref.Row, ref.Col
	}
	if along < 0 || across < 0 || across >= board.Size || along+n > board.Size {
		return OffBoard
	}
	at := func(k int) tile.Tile { // tile on the k-th square along the word's line
		if ref.Vertical {
			return b.At(k, across)
		}
		return b.At(across, k)
	}
	if (along > 0 && at(along-1) != tile.Empty) || (along+n < board.Size && at(along+n) != tile.Empty) {
		return NotWhole
	}
	var need tile.Rack
	touches, coversCentre := false, false
	step := ref.Step()
	for i, sq := 0, ref.Start(); i < n; i, sq = i+1, sq+step {
		if sq == board.Centre {
			coversCentre = true
		}
		if t := b.Square(sq); t != tile.Empty {
			if t.Letter() != word[i].Letter() {
				return Mismatch
			}
			touches = true
			continue
		}
		res.NPlaced++
		if word[i].IsJoker() {
			need[tile.NoLetter]++
			res.UsesJoker = true
		} else {
			need[word[i].Letter()]++
		}
		if hasPerpendicularNeighbour(b, sq, ref.Vertical) {
			touches = true
		}
	}
	switch {
	case res.NPlaced == 0:
		return NothingPlaced
	case res.NPlaced > c.opts.Variant.MaxPlaced:
		return TooManyTiles
	}
	if rack != nil {
		for l := range need {
			if need[l] > rack[l] {
				return NotInRack
			}
		}
	}
	if b.IsEmpty() {
		switch {
		case !coversCentre:
			return NotOnCentre
		case ref.Vertical && !c.opts.FirstMoveVertical:
			return FirstNotHorizontal
		}
		return OK
	}
	if !touches {
		return NotConnected
	}
	return OK
}

// hasPerpendicularNeighbour reports whether square sq has a tile next to it
// across the word's direction.
func hasPerpendicularNeighbour(b *board.Board, sq int, vertical bool) bool {
	r, c := sq/board.Size, sq%board.Size
	if vertical {
		return (c > 0 && b.At(r, c-1) != tile.Empty) || (c < board.Size-1 && b.At(r, c+1) != tile.Empty)
	}
	return (r > 0 && b.At(r-1, c) != tile.Empty) || (r < board.Size-1 && b.At(r+1, c) != tile.Empty)
}

// score forms the main word and every perpendicular word, scores each per
// §1.2.1–§1.2.2 and adds the bonus of §1.2.3 / §3.8.2.
func (c *Checker) score(b *board.Board, ref board.Ref, word []tile.Tile, res *Result) {
	main := &res.Words[0]
	main.Ref, main.Len = ref, uint8(len(word))
	var sum, mult int32 = 0, 1
	step := ref.Step()
	for i, sq := 0, ref.Start(); i < len(word); i, sq = i+1, sq+step {
		if t := b.Square(sq); t != tile.Empty {
			main.Letters[i] = t
			sum += int32(t.Value())
			continue
		}
		main.Letters[i] = word[i]
		p := board.PremiumAt(sq)
		sum += int32(word[i].Value() * p.LetterMultiplier())
		mult *= int32(p.WordMultiplier())
		if cross := &res.Words[res.NWords+1]; c.crossWord(b, sq, word[i], !ref.Vertical, cross) {
			res.NWords++
			res.Score += cross.Score
		}
	}
	main.Score = sum * mult
	main.Valid = c.lex.ContainsTiles(main.Letters[:main.Len])
	res.NWords++
	res.Score += main.Score + int32(c.opts.Variant.Bonus[res.NPlaced])
}

// crossWord builds the word that tile t put down on the empty square sq forms
// in the given direction; it reports false when that word has one letter.
func (c *Checker) crossWord(b *board.Board, sq int, t tile.Tile, vertical bool, w *Word) bool {
	r, col := sq/board.Size, sq%board.Size
	dr, dc := 0, 1
	if vertical {
		dr, dc = 1, 0
	}
	for r-dr >= 0 && col-dc >= 0 && b.At(r-dr, col-dc) != tile.Empty {
		r, col = r-dr, col-dc
	}
	w.Ref = board.Ref{Row: r, Col: col, Vertical: vertical}
	var sum int32
	for ; r < board.Size && col < board.Size; r, col = r+dr, col+dc {
		k := r*board.Size + col
		cur := b.Square(k)
		if k == sq {
			cur = t
		} else if cur == tile.Empty {
			break
		}
		w.Letters[w.Len] = cur
		w.Len++
		if k == sq {
			sum += int32(t.Value() * board.PremiumAt(sq).LetterMultiplier())
		} else {
			sum += int32(cur.Value())
		}
	}
	if w.Len < 2 {
		*w = Word{}
		return false
	}
	w.Score = sum * int32(board.PremiumAt(sq).WordMultiplier())
	w.Valid = c.lex.ContainsTiles(w.Letters[:w.Len])
	return true
}

// ParseWord reads a word to put on the grid as tile.ParseWord does (a joker
// in lower case, "FABAcEE", or between parentheses, "FABA(C)EE"; accents
// folded), refusing more letters than a row holds before reading them.
func ParseWord(s string) ([]tile.Tile, error) {
	if len(s) > maxTypedBytes {
		return nil, fmt.Errorf("mot de %d caractères : une ligne de la grille compte %d cases", utf8.RuneCountInString(s), board.Size)
	}
	w, err := tile.ParseWord(s)
	if err != nil {
		return nil, fmt.Errorf("mot %q : %w", s, err)
	}
	if len(w) > board.Size {
		return nil, fmt.Errorf("mot %q : %d lettres, une ligne de la grille compte %d cases", s, len(w), board.Size)
	}
	return w, nil
}

// maxTypedBytes bounds the text of a word before it is read: every letter
// of a full row circled and accented, "(É)" being five bytes.
const maxTypedBytes = 5 * board.Size
