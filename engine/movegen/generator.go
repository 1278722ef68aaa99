package movegen

import (
	"context"
	"math"
	"math/bits"

	"arbitre/engine/board"
	"arbitre/engine/lexicon"
	"arbitre/engine/tile"
)

// Mode selects what a generation records.
type Mode uint8

const (
	// CountOnly counts the legal placements.
	CountOnly Mode = iota
	// AllMoves keeps every legal placement.
	AllMoves
	// TopOnly keeps every placement of maximum score, and counts them all.
	TopOnly
	// TopPruned keeps every placement of maximum score, exactly as TopOnly,
	// without counting: anchors are walked most promising first and the
	// search stops once no anchor's upper bound can reach the best score
	// found (see shadow.go). The count it returns is 0.
	TopPruned
)

// allLetters is the cross-set of a square with no perpendicular neighbour.
const allLetters uint32 = ((1 << tile.Alphabet) - 1) << 1

// Static per-square premium factors, read on the hot path.
var letterMult, wordMult = func() (lm, wm [board.Squares]int32) {
	for i := range lm {
		lm[i] = int32(board.PremiumAt(i).LetterMultiplier())
		wm[i] = int32(board.PremiumAt(i).WordMultiplier())
	}
	return
}()

var letterValue = func() (v [tile.Alphabet + 1]int32) {
	for l := range v {
		v[l] = int32(tile.Letter(l).Value())
	}
	return
}()

// Options are the rules of the game being played.
type Options struct {
	Variant Variant
	// FirstMoveVertical allows a vertical first word (classique); in
	// duplicate the first word is horizontal (§3.4).
	FirstMoveVertical bool
}

// Generator finds the placements of a rack on a board. It keeps all its
// working memory between calls: once warm, generation allocates nothing.
// A Generator is not safe for concurrent use; give each goroutine its own.
type Generator struct {
	lex  *lexicon.Lexicon
	arcs []lexicon.Arc
	opts Options

	mode  Mode
	count int
	best  int32
	moves []Move
	// keys[i] is moves[i]'s place in the walk order of the full
	// generation (TopOnly, TopPruned; see jokers.go).
	keys []walkKey

	// sides[0] is the board as given, sides[1] its transpose (vertical
	// placements); s is the one being walked.
	sides      [2]side
	s          *side
	transposed board.Board
	shadow     shadowState

	// per anchor
	row       int
	anchorCol int
	// rightFree: the square right of the anchor is empty (or the edge),
	// so a word may end on the anchor. Bit c+1 of libres (ancres) is set
	// when column c of the row is empty (an anchor); bits 0 and 16 stand
	// for the edges, free: the walk asks its neighbours' state without
	// reading the board.
	rightFree      bool
	libres, ancres uint32
	rack           tile.Rack
	letters        uint32 // bit l set while the rack holds letter l (jokers aside)
	rackSize       int
	placed         [board.Size]tile.Tile
	// hand is the rack as given; blanks[:nBlanks] the letters jokers
	// stand for on the word being walked, where the rack lacks them
	// (every walk but AllMoves').
	hand    tile.Rack
	blanks  [board.Size]uint8
	nBlanks int
	// lettresJoker are the letters a joker may stand for on the walk:
	// every letter, but on an anchor of the pruned search where only a
	// placement of the whole rack can reach the best (see pruned): once
	// the best exceeds court, the bound of the anchor's placements that
	// leave a tile in hand, they are jokersEntiers, the letters of its
	// placements of the whole rack (court is MaxInt32 outside the pruned
	// search).
	lettresJoker  uint32
	court         int32
	jokersEntiers uint32
	// tablesEntieres are the anchor's tables of pairs (anchorBound); once
	// the jokers are limited (limite), with two jokers and pairesActives,
	// the second joker stands only for partenaires[x] after the first
	// stood for x.
	tablesEntieres uint32
	limite         bool
	pairesActives  bool
	partenaires    [tile.Alphabet + 1]uint32
	// entiers are the anchor's spans of whole-rack placements
	// (shadowState.entiers), premiereEntiere the first column where one
	// starts, once limite.
	entiers         *[board.Size]uint16
	premiereEntiere int
}

// side is the board seen with the main direction horizontal, and what the
// walk reads on it.
type side struct {
	grid       *board.Board
	vertical   bool
	crossSet   [board.Squares]uint32
	crossScore [board.Squares]int32
	hasCross   [board.Squares]bool
	anchor     [board.Squares]bool
	// seen is the grid the cross-sets were last computed on (when known):
	// a column of grid equal to seen's keeps its cross-sets, which depend
	// on nothing else. A robot's next call finds most columns unchanged.
	seen  board.Board
	known bool
}

// New returns a generator over lex for the given rules.
func New(lex *lexicon.Lexicon, opts Options) *Generator {
	if opts.Variant.MaxPlaced == 0 {
		opts.Variant = Standard
	}
	return &Generator{lex: lex, arcs: lex.Arcs(), opts: opts, lettresJoker: allLetters, court: math.MaxInt32}
}

// Generate walks every legal placement of rack on b and records them as mode
// says. The returned slice is the generator's own buffer (nil for
// CountOnly), valid until the next call; the count is always filled.
func (g *Generator) Generate(b *board.Board, rack tile.Rack, mode Mode) (moves []Move, count int) {
	moves, count, _ = g.GenerateContext(context.Background(), b, rack, mode)
	return moves, count
}

// GenerateContext is Generate stopping once ctx ends: ctx is checked before
// each row of each pass (never on the walk itself, which stays free of
// allocations and calls), and its error is returned with what was found
// so far, which is then incomplete.
func (g *Generator) GenerateContext(ctx context.Context, b *board.Board, rack tile.Rack, mode Mode) (moves []Move, count int, err error) {
	g.mode, g.count, g.best, g.moves, g.keys = mode, 0, -1, g.moves[:0], g.keys[:0]
	// A pruned search stopped by its context leaves its last anchor's
	// limits behind.
	g.lettresJoker, g.court, g.limite, g.pairesActives = allLetters, math.MaxInt32, false, false
	g.rack, g.hand, g.letters, g.rackSize = rack, rack, 0, rack.Size()
	for l := 1; l <= tile.Alphabet; l++ {
		if rack[l] > 0 {
			g.letters |= 1 << l
		}
	}
	empty := b.IsEmpty()
	vertical := !empty || g.opts.FirstMoveVertical
	if mode == TopPruned {
		g.prepare(&g.sides[0], b, false, empty)
		if vertical {
			b.Transpose(&g.transposed)
			g.prepare(&g.sides[1], &g.transposed, true, empty)
		}
		return g.moves, 0, g.pruned(ctx, vertical)
	}
	err = g.pass(ctx, &g.sides[0], b, false, empty)
	if err == nil && vertical {
		b.Transpose(&g.transposed)
		err = g.pass(ctx, &g.sides[1], &g.transposed, true, empty)
	}
	if mode == CountOnly {
		return nil, g.count, err
	}
	g.inWalkOrder()
	return g.moves, g.count, err
}

// pass generates the horizontal placements of grid (the real board, or its
// transpose for vertical placements), row by row until ctx ends.
func (g *Generator) pass(ctx context.Context, s *side, grid *board.Board, vertical, empty bool) error {
	g.prepare(s, grid, vertical, empty)
	root := g.lex.Root()
	for r := 0; r < board.Size; r++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		g.row = r
		for c := 0; c < board.Size; c++ {
			if !s.anchor[r*board.Size+c] {
				continue
			}
			g.ancrer(c)
			g.gen(c, c, root, 0, 1, 0, 0)
		}
	}
	return nil
}

// ancrer makes column c of the current row and side the anchor walked.
func (g *Generator) ancrer(c int) {
	g.anchorCol = c
	g.libres, g.ancres = 1|1<<(board.Size+1), 0
	for k := range board.Size {
		sq := g.row*board.Size + k
		if g.s.grid.Square(sq) == tile.Empty {
			g.libres |= 1 << (k + 1)
		}
		if g.s.anchor[sq] {
			g.ancres |= 1 << (k + 1)
		}
	}
	g.rightFree = g.libres>>(c+2)&1 != 0
}

// prepare makes s the side being walked, on grid, and fills for every empty
// square the letters that form a valid perpendicular word there, that
// word's existing-tile score, and whether the square is an anchor (next to
// a tile; on the empty board H8 only, §3.4).
func (g *Generator) prepare(s *side, grid *board.Board, vertical, empty bool) {
	const n = board.Size
	g.s, s.grid, s.vertical = s, grid, vertical
	var kept [n]bool
	if s.known {
		for c := 0; c < n; c++ {
			kept[c] = grid.ColumnEqual(&s.seen, c)
		}
	}
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			i := r*n + c
			if grid.Square(i) != tile.Empty {
				s.anchor[i] = false
				s.crossSet[i], s.hasCross[i], s.crossScore[i] = 0, false, 0
				continue
			}
			up := r > 0 && grid.Square(i-n) != tile.Empty
			down := r < n-1 && grid.Square(i+n) != tile.Empty
			left := c > 0 && grid.Square(i-1) != tile.Empty
			right := c < n-1 && grid.Square(i+1) != tile.Empty
			s.anchor[i] = up || down || left || right
			switch {
			case kept[c]:
			case !up && !down:
				s.crossSet[i], s.hasCross[i], s.crossScore[i] = allLetters, false, 0
			default:
				s.hasCross[i] = true
				s.crossSet[i], s.crossScore[i] = g.crossCheck(grid, r, c)
			}
		}
	}
	s.seen, s.known = *grid, true
	if empty {
		s.anchor[board.Centre] = true
	}
}

// crossCheck finds the letters L such that (tiles above) L (tiles below) is a
// word. The GADDAG path of such a word pivoting on its last letter is the
// word reversed: the tiles below from the bottom up, then L, then the tiles
// above from the nearest up.
func (g *Generator) crossCheck(grid *board.Board, r, c int) (set uint32, score int32) {
	const n = board.Size
	top, bottom := r, r
	for top > 0 && grid.At(top-1, c) != tile.Empty {
		top--
	}
	for bottom < n-1 && grid.At(bottom+1, c) != tile.Empty {
		bottom++
	}
	for k := top; k <= bottom; k++ {
		if k != r {
			score += int32(grid.At(k, c).Value())
		}
	}
	node := g.lex.Root()
	for k := bottom; k > r; k-- {
		var ok bool
		if node, ok = g.lex.Find(node, uint8(grid.At(k, c).Letter())); !ok {
			return 0, score
		}
	}
	for m := node.Symbols() &^ (1 << lexicon.Separator); m != 0; m &= m - 1 {
		bit := m & -m
		if g.acceptsUpwards(grid, g.arcs[node.At(bit)], r, top, c) {
			set |= bit
		}
	}
	return set, score
}

// acceptsUpwards follows the tiles from row r-1 up to row top after arc a and
// reports whether the path ends on a complete word.
func (g *Generator) acceptsUpwards(grid *board.Board, a lexicon.Arc, r, top, c int) bool {
	for k := r - 1; k >= top; k-- {
		var ok bool
		if a, ok = g.lex.Find(a, uint8(grid.At(k, c).Letter())); !ok {
			return false
		}
	}
	return a.Accepts()
}

// gen tries to extend the word at column col with the arcs of node's child
// list. start is the word's first column once the walk has turned right of
// the anchor. The list's symbols are known from node: a list offering no
// symbol the square takes is never read, and goOn does not even call gen
// for it.
func (g *Generator) gen(col, start int, node lexicon.Arc, main, mult, cross int32, n int) {
	s := g.s
	sq := g.row*board.Size + col
	avail := node.Symbols() & g.takes(sq, n)
	if avail == 0 {
		return
	}
	if t := s.grid.Square(sq); t != tile.Empty {
		g.goOn(col, start, g.arcs[node.At(avail)], main+int32(t.Value()), mult, cross, n)
		return
	}
	lm, wm := letterMult[sq], wordMult[sq]
	hasCross, cScore := s.hasCross[sq], s.crossScore[sq]
	split := g.mode == AllMoves
	for avail != 0 {
		sym := uint8(bits.TrailingZeros32(avail))
		bit := uint32(1) << sym
		avail &^= bit
		a := g.arcs[node.At(bit)]
		v := letterValue[sym] * lm
		c := cross
		if hasCross {
			c += (cScore + v) * wm
		}
		g.placed[col] = tile.Tile(sym)
		inHand := g.rack[sym] > 0
		if inHand {
			g.take(sym)
			g.goOn(col, start, a, main+v, mult*wm, c, n+1)
			g.putBack(sym)
		}
		if g.rack[0] > 0 {
			g.rack[0]--
			switch {
			case split:
				// Every placement: the letter as a joker too.
				c = cross
				if hasCross {
					c += cScore * wm
				}
				g.placed[col] |= tile.JokerBit
				g.goOn(col, start, a, main, mult*wm, c, n+1)
			case !inHand:
				// One walk per word: a joker stands for a letter the
				// rack lacks, scored as that letter; which tiles are
				// jokers is settled when the word is recorded (jokers.go).
				g.blanks[g.nBlanks] = sym
				g.nBlanks++
				g.goOn(col, start, a, main+v, mult*wm, c, n+1)
				g.nBlanks--
			}
			g.rack[0]++
		}
		g.placed[col] = tile.Empty
	}
}

// takes is the set of symbols the walk may take at square sq once n tiles
// are down: the letter of the tile there, or the letters of the cross-set
// that the rack holds or a joker may stand for.
func (g *Generator) takes(sq, n int) uint32 {
	if t := g.s.grid.Square(sq); t != tile.Empty {
		return 1 << t.Letter()
	}
	if n == g.opts.Variant.MaxPlaced {
		return 0
	}
	playable := g.letters
	if g.rack[0] > 0 {
		if g.pairesActives && g.nBlanks == 1 {
			playable |= g.partenaires[g.blanks[0]]
		} else {
			playable |= g.lettresJoker
		}
	}
	return g.s.crossSet[sq] & playable
}

// take removes one letter from the rack, keeping the set of letters in hand.
func (g *Generator) take(l uint8) {
	g.rack[l]--
	if g.rack[l] == 0 {
		g.letters &^= 1 << l
	}
}

// putBack returns a letter to the rack.
func (g *Generator) putBack(l uint8) {
	g.rack[l]++
	g.letters |= 1 << l
}

// goOn continues after the letter at col was matched by arc a: leftwards
// while at or left of the anchor (turning right through the separator when
// the word may start here), rightwards after. gen is called only for a square
// where a's list offers a symbol it takes.
func (g *Generator) goOn(col, start int, a lexicon.Arc, main, mult, cross int32, n int) {
	const last = board.Size - 1
	rowBase := g.row * board.Size
	if col <= g.anchorCol {
		leftFree := g.libres>>col&1 != 0
		if a.Accepts() && leftFree && g.rightFree {
			g.record(col, g.anchorCol, main, mult, cross, n)
		}
		next := a.Symbols()
		// Leftwards, but never onto an empty anchor: a move covering it
		// is generated from that (leftmost) anchor; once limited to the
		// whole rack, never left of where such a placement starts.
		if col > 0 && !(leftFree && g.ancres>>col&1 != 0) && (!g.limite || col > g.premiereEntiere) &&
			next&g.takes(rowBase+col-1, n) != 0 {
			g.gen(col-1, start, a, main, mult, cross, n)
		}
		if leftFree && g.anchorCol < last && next&(1<<lexicon.Separator) != 0 &&
			(!g.limite || g.entiers[col]>>(g.anchorCol+1) != 0) {
			if turn := g.arcs[a.At(1<<lexicon.Separator)]; turn.Symbols()&g.takes(rowBase+g.anchorCol+1, n) != 0 {
				g.gen(g.anchorCol+1, col, turn, main, mult, cross, n)
			}
		}
		return
	}
	if a.Accepts() && g.libres>>(col+2)&1 != 0 {
		g.record(start, col, main, mult, cross, n)
	}
	if col < last && a.Symbols()&g.takes(rowBase+col+1, n) != 0 && (!g.limite || g.entiers[start]>>(col+1) != 0) {
		g.gen(col+1, start, a, main, mult, cross, n)
	}
}

// record scores the placement spanning columns from..to of the current row
// and keeps it as the mode says.
func (g *Generator) record(from, to int, main, mult, cross int32, n int) {
	if g.s.vertical && n == 1 {
		// A single tile forming a word across too was already counted
		// by the horizontal pass: a placement counts once.
		for c := from; c <= to; c++ {
			if sq := g.row*board.Size + c; g.placed[c] != tile.Empty && g.s.grid.Square(sq) == tile.Empty {
				if g.s.hasCross[sq] {
					return
				}
				break
			}
		}
	}
	score := main*mult + cross + int32(g.opts.Variant.Bonus[n])
	if g.mode == AllMoves {
		g.count++
		g.moves = append(g.moves, g.makeMove(from, to, score, n))
		return
	}
	if g.mode != TopPruned { // the pruned search does not count
		g.count += g.ways(n)
	}
	if g.mode != CountOnly && score >= g.best {
		g.keepTops(from, to, score, mult, n)
	}
}

func (g *Generator) makeMove(from, to int, score int32, n int) Move {
	m := Move{Len: uint8(to - from + 1), NPlaced: uint8(n), Score: score, Vertical: g.s.vertical,
		EmptiesRack: n == g.rackSize}
	if g.s.vertical {
		m.Row, m.Col = uint8(from), uint8(g.row)
	} else {
		m.Row, m.Col = uint8(g.row), uint8(from)
	}
	rowBase := g.row * board.Size
	for c := from; c <= to; c++ {
		if t := g.s.grid.Square(rowBase + c); t != tile.Empty {
			m.Word[c-from] = t
			continue
		}
		m.Word[c-from] = g.placed[c]
		m.Placed |= 1 << (c - from)
		if g.placed[c].IsJoker() {
			m.UsesJoker = true
		}
	}
	return m
}
