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
	bout      int
	pivot     int
	// bout: the last column of the run of tiles right of the anchor, which
	// every placement from it covers (the anchor itself when the square
	// right of it is empty, or in AllMoves, whose order is its walk's): the
	// walk spells that run first (marcher). pivot: the last column of the
	// walk's left part, the anchor's, or the one before it when the anchor
	// has a run of tiles on its left and none on its right (in every mode
	// but AllMoves): the walk then spells that run first, from its last
	// tile, turns, and starts on the anchor as the right part. rightFree: the square right of bout is
	// empty (or the edge), so a word may end there. Bit c+1 of libres (ancres) is set
	// when column c of the row is empty (an anchor); bits 0 and 16 stand
	// for the edges, free: the walk asks its neighbours' state without
	// reading the board.
	rightFree      bool
	libres, ancres uint32
	rack           tile.Rack
	letters        uint32 // bit l set while the rack holds letter l (jokers aside)
	rackSize       int
	placed         [16]tile.Tile // board.Size and one, for a bounds-free index
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

	// ligne is the row of the anchor walked, square by square (ancrer);
	// pile the walk's stack, a square a level (marcher).
	ligne [16]caseLigne // board.Size and one, for a bounds-free index
	pile  [board.Size + 1]etape
	// cases counts the squares the walk entered since the generation
	// began (its stack's levels, tiles and empty squares): the measure of
	// its work that does not depend on the machine.
	cases int
}

// caseLigne is what the walk reads of a square of the row: the bit of the
// tile's letter and its value, or, empty, its cross-set, the score of the
// perpendicular word's tiles and whether there is one, and its premiums.
type caseLigne struct {
	tuile, crossSet uint32
	valeur, cScore  int32
	lm, wm          int32
	hasCross        bool
	// fin: "accepts" when a word may end on the square, the separator
	// when the walk may turn right there; voisinTuile and voisinCross:
	// the tile or the cross-set of the square the walk goes on to from
	// there (none at the end of the row or before an empty anchor).
	fin                      lexicon.Arc
	voisinTuile, voisinCross uint32
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
	g.mode, g.count, g.best, g.moves, g.keys, g.cases = mode, 0, -1, g.moves[:0], g.keys[:0], 0
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
			g.marcher()
		}
	}
	return nil
}

// ancrer makes column ac of the current row and side the anchor walked, and
// copies the row for the walk (ligne).
func (g *Generator) ancrer(ac int) {
	const last = board.Size - 1
	g.anchorCol = ac
	g.libres, g.ancres = 1|1<<(board.Size+1), 0
	for k := range board.Size {
		sq := g.row*board.Size + k
		lc := &g.ligne[k]
		if t := g.s.grid.Square(sq); t == tile.Empty {
			g.libres |= 1 << (k + 1)
			*lc = caseLigne{crossSet: g.s.crossSet[sq], cScore: g.s.crossScore[sq], hasCross: g.s.hasCross[sq],
				lm: letterMult[sq], wm: wordMult[sq]}
		} else {
			*lc = caseLigne{tuile: 1 << t.Letter(), valeur: int32(t.Value())}
		}
		if g.s.anchor[sq] {
			g.ancres |= 1 << (k + 1)
		}
	}
	g.bout, g.pivot = ac, ac
	if g.mode != AllMoves {
		for g.bout < last && g.libres>>(g.bout+2)&1 == 0 {
			g.bout++
		}
		if g.bout == ac && g.libres>>ac&1 == 0 {
			g.pivot = ac - 1
		}
	}
	g.rightFree = g.libres>>(g.bout+2)&1 != 0
	// What a word through column k may do next, as continuer asks it
	// (utile): end there, turn right there, go on to which column.
	for k := range board.Size {
		lc := &g.ligne[k]
		voisin := -1
		if leftFree := g.libres>>k&1 != 0; k <= g.pivot {
			if leftFree && g.rightFree {
				lc.fin |= lexicon.AcceptsArc
			}
			if k > 0 && !(leftFree && g.ancres>>k&1 != 0) {
				voisin = k - 1
			}
			if leftFree && g.bout < last {
				lc.fin |= 1 << lexicon.Separator
			}
		} else {
			if g.libres>>(k+2)&1 != 0 {
				lc.fin |= lexicon.AcceptsArc
			}
			if k < last {
				voisin = k + 1
			}
		}
		if voisin >= 0 {
			lc.voisinTuile, lc.voisinCross = g.ligne[voisin].tuile, g.ligne[voisin].crossSet
		}
	}
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

// etape is one square of the walk: the list whose arcs are tried there, the
// symbols of it still to try, the word so far, and the choice being walked.
type etape struct {
	node lexicon.Arc // the arc whose child list is tried at col
	a    lexicon.Arc // the arc of the choice being walked
	// utile: what an arc of the list must carry for its symbol to lead
	// anywhere at col: "accepts" where a word may end, the separator where
	// the walk may turn, the symbols the next square may take with the
	// rack as it is when the square is entered.
	utile lexicon.Arc
	avail uint32 // symbols of node's list still to try at col
	// main, mult, cross: the word's letter sum, word multiplier and
	// perpendicular words before col; cm, cmult, ccross after the choice.
	main, mult, cross int32
	cm, cmult, ccross int32
	col, start, n, cn int
	sym               uint8
	choix, suite      uint8
}

// What an etape is walking (choix) and what it does once its child is done
// (suite).
const (
	choixAucun   uint8 = iota // none yet
	choixCase                 // the tile on the board
	choixMain                 // a letter from the rack
	choixJoker                // a joker shown as a joker (AllMoves)
	choixBlanc                // a joker standing for a letter the rack lacks
	suiteTourner              // the left part is done: turn right
	suiteChoix                // the next choice
)

// marcher walks every placement from the anchor (Gordon's GADDAG walk:
// leftwards from the anchor, turning right through the separator where the
// word may start; a run of tiles beside the anchor first, see bout and
// pivot), depth first, with an explicit stack of squares (pile)
// instead of recursion: no call per arc. A square is entered only where its
// list offers a symbol the square takes (the tile's letter, or the
// cross-set's letters in hand or for a joker): a list offering none is never
// read. Each letter is tried lowest first, from the hand before a joker.
func (g *Generator) marcher() {
	const last = board.Size - 1
	// Only g, f and d are live across the labels: everything else is read
	// again from g or f, so that no value is shuffled where paths meet.
	d := 0
	f := &g.pile[0]
	f.node, f.col, f.start, f.n, f.main, f.mult, f.cross = g.lex.Root(), g.anchorCol, g.anchorCol, 0, 0, 1, 0
	// The run of tiles right of the anchor first (bout): the GADDAG path
	// of a word through them may pivot on the run's last tile as well as
	// on the anchor, and spelling them first spares every left part that
	// no word continues with them.
	if _, ok := g.epeler(f, g.bout, g.anchorCol); !ok {
		return
	}
	// Or the run of tiles left of the anchor, from its last tile to its
	// first, and the turn (pivot): the anchor is then the right part's
	// first square, and no letter is put on it that no word follows the
	// run with.
	if g.pivot < g.anchorCol {
		c, ok := g.epeler(f, g.pivot, -1)
		if !ok || f.node.Symbols()&(1<<lexicon.Separator) == 0 {
			return
		}
		f.node, f.start = g.arcs[f.node.At(1<<lexicon.Separator)], c+1
	}
	f.avail = f.node.Symbols() & g.takes(g.anchorCol, 0)
	if f.avail == 0 {
		return
	}
entrer:
	g.cases++
	// What an arc must carry for its symbol to lead anywhere here (utile):
	// "accepts" where a word may end, the separator where the walk may
	// turn, the symbols the next square may take with the rack as it is
	// before the letter is put down (a superset of what it may take
	// after): continuer's questions, asked with fewer tiles down.
	if lc := &g.ligne[f.col&15]; g.rack[0] > 0 {
		f.utile = lc.fin | lexicon.Arc(lc.voisinTuile|lc.voisinCross)
	} else {
		f.utile = lc.fin | lexicon.Arc(lc.voisinTuile|lc.voisinCross&g.letters)
	}
	if g.limite {
		f.utile = g.utileLimite(f)
	}
	f.choix = choixAucun
	if t := g.ligne[f.col&15].tuile; t != 0 {
		f.choix, f.a = choixCase, g.arcs[f.node.At(t)]
		f.cm, f.cmult, f.ccross, f.cn = f.main+g.ligne[f.col&15].valeur, f.mult, f.cross, f.n
		goto continuer
	}
choisir:
	switch f.choix {
	case choixMain:
		g.putBack(f.sym)
		if g.mode == AllMoves && g.rack[0] > 0 {
			// Every placement: the letter as a joker too.
			g.rack[0]--
			f.choix = choixJoker
			g.placed[f.col&15] |= tile.JokerBit
			f.cm, f.ccross = f.main, f.cross
			if c := &g.ligne[f.col&15]; c.hasCross {
				f.ccross += c.cScore * c.wm
			}
			goto continuer
		}
	case choixJoker:
		g.rack[0]++
	case choixBlanc:
		g.rack[0]++
		g.nBlanks--
	case choixCase:
		goto depiler
	}
	for {
		if f.avail == 0 {
			goto depiler
		}
		sym := uint8(bits.TrailingZeros32(f.avail))
		bit := uint32(1) << sym
		f.avail &^= bit
		// A letter whose arc neither ends a word here nor offers a
		// symbol the next square may take leads nowhere, joker or not.
		if a := g.arcs[f.node.At(bit)]; a&f.utile != 0 {
			f.sym, f.a = sym, a
			break
		}
	}
	{
		sym := f.sym
		c := &g.ligne[f.col&15]
		v := letterValue[sym] * c.lm
		f.cm, f.cmult, f.ccross, f.cn = f.main+v, f.mult*c.wm, f.cross, f.n+1
		if c.hasCross {
			f.ccross += (c.cScore + v) * c.wm
		}
		g.placed[f.col&15] = tile.Tile(sym)
		switch {
		case g.rack[sym] > 0:
			f.choix = choixMain
			g.take(sym)
		case g.mode == AllMoves:
			// Only a joker: shown as one.
			g.rack[0]--
			f.choix = choixJoker
			g.placed[f.col&15] |= tile.JokerBit
			f.cm, f.ccross = f.main, f.cross
			if c.hasCross {
				f.ccross += c.cScore * c.wm
			}
		default:
			// One walk per word: a joker stands for a letter the rack
			// lacks, scored as that letter; which tiles are jokers is
			// settled when the word is recorded (jokers.go).
			g.rack[0]--
			f.choix = choixBlanc
			g.blanks[g.nBlanks] = sym
			g.nBlanks++
		}
	}
continuer:
	// The choice at col matched arc a: leftwards while at or left of the
	// pivot (turning right through the separator when the word may start
	// here), rightwards after. a&f.utile says whether a word ends here and
	// whether the next square may take any of a's symbols.
	if u, col := f.a&f.utile, f.col; col <= g.pivot {
		if u&lexicon.AcceptsArc != 0 {
			g.record(col, g.bout, f.cm, f.cmult, f.ccross, f.cn)
		}
		// Leftwards, but never onto an empty anchor (utile): a move
		// covering it is generated from that (leftmost) anchor; once
		// limited to the whole rack, never left of where such a
		// placement starts.
		if u&lexicon.Arc(allLetters) != 0 && (!g.limite || col > g.premiereEntiere) {
			if av := f.a.Symbols() & g.takes(col-1, f.cn); av != 0 {
				f.suite = suiteTourner
				d++
				n := &g.pile[d&15]
				n.node, n.avail, n.col, n.start = f.a, av, col-1, f.start
				n.main, n.mult, n.cross, n.n = f.cm, f.cmult, f.ccross, f.cn
				f = n
				goto entrer
			}
		}
	} else {
		if u&lexicon.AcceptsArc != 0 {
			g.record(f.start, col, f.cm, f.cmult, f.ccross, f.cn)
		}
		if u&lexicon.Arc(allLetters) != 0 && (!g.limite || g.entiers[f.start]>>((col+1)&15) != 0) {
			if av := f.a.Symbols() & g.takes(col+1, f.cn); av != 0 {
				f.suite = suiteChoix
				d++
				n := &g.pile[d&15]
				n.node, n.avail, n.col, n.start = f.a, av, col+1, f.start
				n.main, n.mult, n.cross, n.n = f.cm, f.cmult, f.ccross, f.cn
				f = n
				goto entrer
			}
		}
		goto choisir
	}
tourner:
	if col, droite := f.col, g.bout+1; f.a&f.utile&(1<<lexicon.Separator) != 0 && (!g.limite || g.entiers[col]>>(droite&15) != 0) {
		turn := g.arcs[f.a.At(1<<lexicon.Separator)]
		if av := turn.Symbols() & g.takes(droite, f.cn); av != 0 {
			f.suite = suiteChoix
			d++
			n := &g.pile[d&15]
			n.node, n.avail, n.col, n.start = turn, av, droite, col
			n.main, n.mult, n.cross, n.n = f.cm, f.cmult, f.ccross, f.cn
			f = n
			goto entrer
		}
	}
	goto choisir
depiler:
	if d == 0 {
		return
	}
	d--
	f = &g.pile[d&15]
	if f.suite == suiteTourner {
		goto tourner
	}
	goto choisir
}

// epeler follows f's arc through the tiles of the row from column c
// leftwards, down to column bas excluded or the first empty square, adding
// their values to f's letter sum (marcher's runs of tiles, spelled before
// the walk). It returns the column it stopped at, and false when no word
// goes on with those tiles.
func (g *Generator) epeler(f *etape, c, bas int) (int, bool) {
	for ; c > bas && g.ligne[c&15].tuile != 0; c-- {
		t := g.ligne[c&15].tuile
		if f.node.Symbols()&t == 0 {
			return c, false
		}
		f.node = g.arcs[f.node.At(t)]
		f.main += g.ligne[c&15].valeur
	}
	return c, true
}

// utileLimite is etape.utile once the walk is limited to the anchor's
// whole-rack placements: the next square and the turn only where such a
// placement may still go (continuer). Kept out of line: the walk limited is
// the pruned search's, the rarer.
//
//go:noinline
func (g *Generator) utileLimite(f *etape) lexicon.Arc {
	fin, voisin := f.utile&(lexicon.AcceptsArc|1<<lexicon.Separator), uint32(f.utile)&allLetters
	if col := f.col; col <= g.pivot {
		if col <= g.premiereEntiere {
			voisin = 0
		}
		if g.entiers[col]>>((g.bout+1)&15) == 0 {
			fin &^= 1 << lexicon.Separator
		}
	} else if g.entiers[f.start]>>((col+1)&15) == 0 {
		voisin = 0
	}
	return fin | lexicon.Arc(voisin)
}

// takes is the set of symbols the walk may take at column col of the row
// once n tiles are down: the letter of the tile there, or the letters of the
// cross-set that the rack holds or a joker may stand for.
func (g *Generator) takes(col, n int) uint32 {
	c := &g.ligne[col&15]
	if c.tuile != 0 {
		return c.tuile
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
	return c.crossSet & playable
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
