package movegen

import (
	"cmp"
	"context"
	"math/bits"
	"slices"

	"arbitre/engine/board"
	"arbitre/engine/lexicon"
	"arbitre/engine/tile"
)

// The top without the whole walk ("shadow play", after the descriptions of
// wolges and MAGPIE, written anew for this generator): before the GADDAG is
// walked, every anchor of both directions gets an upper bound on the score of
// every placement the walk from that anchor can record. The bound looks at
// the squares only, not at the words: for each stretch of the row the walk
// could cover (leftwards up to the previous empty anchor, rightwards up to
// the rack's size, only over squares some tile of the rack may take), it
// adds the tiles already there, the perpendicular words' fixed part, the
// Scrabble bonus for that number of tiles (§1.2.3, §3.8.2) and the best the
// rack's values can do on those squares' letter and word premiums (§1.2.1).
// Anchors are then walked highest bound first, and the search ends once the
// next bound is below the best score found: a bound equal to it is still
// walked, so that every top of equal score is listed.

// anchorBound is one anchor of one side and its bound; court bounds the
// placements from it that leave a tile of the rack in hand, and jokers are
// the letters the rack's jokers may stand for in a placement of the whole
// rack from it.
type anchorBound struct {
	bound, court int32
	jokers       uint32
	// tables says where the pairs of letters two jokers stand for in those
	// placements are: bit 0 the rack alone, bit l the rack with the letter
	// l of the board (shadowState.paires); tablesInconnues when a span could
	// not say.
	tables uint32
	side   uint8
	sq     uint8
}

// tablesInconnues marks an anchor whose jokers' pairs are not known.
const tablesInconnues = 1 << (tile.Alphabet + 1)

// shadowState is the pruned search's working memory.
type shadowState struct {
	anchors [2 * board.Squares]anchorBound
	// values are the rack's tile values, highest first (a joker is 0).
	values   []int32
	maxN     int
	playable uint32
	// What the lexicon says of the whole rack, asked when a span first
	// needs it (see jokersDuChevalet): alone, and with one letter l of the
	// board (bit l of avecConnu).
	seulConnu bool
	seul      uint32
	avecConnu uint32
	avec      [tile.Alphabet + 1]uint32
	// For a rack of two jokers, the pairs of letters they stand for
	// together: bit y of paires[0][x] when the rack alone spells a word
	// with x and y, of paires[l][x] when it does with the letter l of the
	// board (filled with seul and avec).
	paires [tile.Alphabet + 1][tile.Alphabet + 1]uint32
	// entiers[d][sq] are the spans of the anchor sq of side d that a
	// placement of the whole rack may cover: bit to of entiers[d][sq][from]
	// for the span from..to (those whose letters spell a word).
	entiers [2][board.Squares][board.Size]uint16
}

// maxRack is the largest rack of the formulas of §3.8.2 (789).
const maxRack = 9

// span is a stretch of a row the walk may cover: the squares it puts tiles
// on and what the board already holds there.
type span struct {
	n      int
	fixed  int32 // the values of the tiles already in the main word
	nFixed int   // how many tiles are already in the main word
	// their letters, the first lexicon.MaxAnagramme of them
	fixedLetters [lexicon.MaxAnagramme]uint8
	wm           int32 // the word multiplier of the squares covered
	crossFixed   int32 // the perpendicular words' tiles, with their word premium
	// per covered square: its letter multiplier, that multiplier times its
	// word multiplier when a perpendicular word is formed there (else 0),
	// and the highest value of a rack letter that fits it.
	lm, lx, cap [maxRack]int32
}

// valueClasses groups the letters by value, highest first: the highest value
// a set of letters holds is found in a handful of tests.
var valueClasses = func() (c []struct {
	value int32
	mask  uint32
}) {
	for v := int32(10); v >= 1; v-- {
		var mask uint32
		for l := 1; l <= tile.Alphabet; l++ {
			if letterValue[l] == v {
				mask |= 1 << l
			}
		}
		if mask != 0 {
			c = append(c, struct {
				value int32
				mask  uint32
			}{v, mask})
		}
	}
	return c
}()

// pruned walks the anchors of the prepared sides (the vertical one too when
// vertical is set) highest bound first, while a bound can reach the best.
func (g *Generator) pruned(ctx context.Context, vertical bool) error {
	sh := &g.shadow
	sh.maxN = min(g.rackSize, g.opts.Variant.MaxPlaced)
	sh.playable = g.letters
	if g.rack[0] > 0 {
		sh.playable = allLetters
	}
	sh.values = sh.values[:0]
	for l, n := range g.rack {
		for range n {
			sh.values = append(sh.values, letterValue[l])
		}
	}
	slices.SortFunc(sh.values, func(a, b int32) int { return cmp.Compare(b, a) })
	sh.seulConnu, sh.avecConnu = false, 0
	anchors := sh.anchors[:0]
	sides := 1
	if vertical {
		sides = 2
	}
	for d := range sides {
		s := &g.sides[d]
		for sq := range board.Squares {
			if !s.anchor[sq] {
				continue
			}
			if a := g.anchorBound(s, sq/board.Size, sq%board.Size, &sh.entiers[d][sq]); a.bound >= 0 {
				a.side, a.sq = uint8(d), uint8(sq)
				anchors = append(anchors, a)
			}
		}
	}
	slices.SortFunc(anchors, func(a, b anchorBound) int { return cmp.Compare(b.bound, a.bound) })
	for _, a := range anchors {
		if a.bound < g.best {
			break
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		g.s, g.row = &g.sides[a.side], int(a.sq)/board.Size
		g.ancrer(int(a.sq) % board.Size)
		// When only a placement of the whole rack can reach the best, its
		// jokers stand for the letters that complete an anagram: from the
		// start when the best already exceeds court, else from the moment
		// the walk finds a better score (keepTops).
		g.lettresJoker, g.court, g.jokersEntiers, g.tablesEntieres = allLetters, a.court, a.jokers, a.tables
		g.entiers = &sh.entiers[a.side][a.sq]
		g.limite, g.pairesActives = false, false
		if a.court < g.best {
			g.limiterJokers()
		}
		g.marcher()
	}
	g.inWalkOrder()
	return nil
}

// anchorBound bounds the placements walked from the anchor at column ac of
// row r: the highest score one can make, -1 when no tile of the rack fits
// it; the highest of those that leave a tile in hand (court); the letters
// the jokers may stand for in those of the whole rack, and the spans those
// may cover (entiers).
//
// A span that takes the whole rack is first checked against the lexicon's
// anagrams: when the rack, with the span's tiles of the board, spells no
// word, no placement covers exactly that span, bingo bonus or not, and the
// span bounds nothing. Most racks spell no word, and the spans of seven
// tiles were the ones whose bonus kept the search going.
func (g *Generator) anchorBound(s *side, r, ac int, entiers *[board.Size]uint16) anchorBound {
	const last = board.Size - 1
	*entiers = [board.Size]uint16{}
	rowBase := r * board.Size
	grid := s.grid
	left := span{wm: 1}
	a := anchorBound{bound: -1, court: -1}
	if !g.cover(s, &left, rowBase+ac) {
		return a
	}
	for from := ac; ; from-- {
		if from == 0 || grid.Square(rowBase+from-1) == tile.Empty { // a word may start here
			right := left
			for to := ac; ; to++ {
				if to == last || grid.Square(rowBase+to+1) == tile.Empty { // and end here
					if right.n < g.rackSize {
						b := g.spanBound(&right)
						a.bound, a.court = max(a.bound, b), max(a.court, b)
					} else if j := g.jokersDuChevalet(&right); j != 0 {
						a.bound, a.jokers = max(a.bound, g.spanBound(&right)), a.jokers|j
						entiers[from] |= 1 << to
						switch right.nFixed {
						case 0:
							a.tables |= 1
						case 1:
							a.tables |= 1 << right.fixedLetters[0]
						default:
							a.tables |= tablesInconnues
						}
					}
				}
				if to == last || !g.cover(s, &right, rowBase+to+1) {
					break
				}
			}
		}
		// Leftwards as the walk goes: never onto an empty anchor.
		if from == 0 {
			break
		}
		if sq := rowBase + from - 1; grid.Square(sq) == tile.Empty && s.anchor[sq] || !g.cover(s, &left, sq) {
			break
		}
	}
	return a
}

// cover adds square sq to the span: a tile already there adds its value; an
// empty square takes one more tile of the rack, if one fits it.
func (g *Generator) cover(s *side, sp *span, sq int) bool {
	if t := s.grid.Square(sq); t != tile.Empty {
		sp.fixed += int32(t.Value())
		if sp.nFixed < len(sp.fixedLetters) {
			sp.fixedLetters[sp.nFixed] = uint8(t.Letter())
		}
		sp.nFixed++
		return true
	}
	sh := &g.shadow
	set := s.crossSet[sq] & sh.playable
	if sp.n == sh.maxN || set == 0 {
		return false
	}
	lm, wm := letterMult[sq], wordMult[sq]
	sp.lm[sp.n], sp.lx[sp.n], sp.cap[sp.n] = lm, 0, 0
	if s.hasCross[sq] {
		sp.lx[sp.n] = lm * wm
		sp.crossFixed += s.crossScore[sq] * wm
	}
	for _, c := range valueClasses {
		if set&g.letters&c.mask != 0 {
			sp.cap[sp.n] = c.value
			break
		}
	}
	sp.wm *= wm
	sp.n++
	return true
}

// spanBound bounds the score of a placement covering exactly the span. A
// tile of value v on covered square i scores v × (lm·W + lx): the best any
// choice of rack tiles can do is at most the rack's values, highest first,
// against those factors, highest first (rearrangement), and at most each
// square's factor times the highest value that fits it; both hold, so the
// smaller is kept.
func (g *Generator) spanBound(sp *span) int32 {
	var factors [maxRack]int32
	capped := int32(0)
	for i := 0; i < sp.n; i++ {
		f := sp.lm[i]*sp.wm + sp.lx[i]
		capped += f * sp.cap[i]
		j := i
		for ; j > 0 && factors[j-1] < f; j-- {
			factors[j] = factors[j-1]
		}
		factors[j] = f
	}
	sorted := int32(0)
	for i := 0; i < sp.n; i++ {
		sorted += factors[i] * g.shadow.values[i]
	}
	return sp.wm*sp.fixed + sp.crossFixed + min(sorted, capped) + int32(g.opts.Variant.Bonus[sp.n])
}

// jokersDuChevalet is, for a placement of the whole rack covering exactly
// the span, the letters its jokers may stand for: those with which the
// rack and the span's tiles of the board spell a word (the lexicon's
// anagram sets); every letter for a rack without joker that spells one; 0
// when no word can be spelt there. The rack alone, and the rack with one
// letter of the board, are asked once per generation, more tiles of the
// board at each span. A question the sets cannot answer (a word longer
// than they hold; two jokers with two letters of the board or more: 351
// lookups at each span) is answered every letter, which only keeps the
// span.
func (g *Generator) jokersDuChevalet(sp *span) uint32 {
	sh := &g.shadow
	switch {
	case sp.nFixed == 0:
		if !sh.seulConnu {
			sh.seulConnu, sh.seul = true, g.jokersAvec(nil, &sh.paires[0])
		}
		return sh.seul
	case sp.nFixed == 1:
		l := sp.fixedLetters[0]
		if bit := uint32(1) << l; sh.avecConnu&bit == 0 {
			sh.avecConnu |= bit
			sh.avec[l] = g.jokersAvec(sp.fixedLetters[:1], &sh.paires[l])
		}
		return sh.avec[l]
	case sp.nFixed <= len(sp.fixedLetters):
		return g.jokersAvec(sp.fixedLetters[:sp.nFixed], nil)
	}
	return allLetters
}

// jokersAvec is jokersDuChevalet for the whole rack with the letters fixe
// of the board; for a rack of two jokers, it fills paires (when given)
// with the pairs of letters they stand for together.
func (g *Generator) jokersAvec(fixe []uint8, paires *[tile.Alphabet + 1]uint32) uint32 {
	counts := [tile.Alphabet + 1]uint8(g.hand)
	jokers := int(counts[0])
	if jokers > 1 && len(fixe) > 1 {
		return allLetters
	}
	counts[0] = 0
	for _, l := range fixe {
		counts[l]++
	}
	a := g.lex.Anagrammes(g.rackSize + len(fixe))
	if paires != nil {
		remplir := uint32(0)
		if a == nil {
			remplir = allLetters
		}
		for x := range paires {
			paires[x] = remplir
		}
		if jokers != 2 {
			paires = nil
		}
	}
	return jokersPossibles(a, lexicon.Cle(&counts), jokers, 1, paires)
}

// jokersPossibles is the set of the letters that jokers jokers (each a
// letter from from on) stand for in the words of a spelt by the letters of
// key cle (lexicon.Cle) and them; every letter when there is no joker and
// the letters spell one; 0 when no word is spelt. A nil a (a length the
// sets do not hold) answers every letter. With two jokers, paires (when
// not nil) gets each pair found, both ways.
func jokersPossibles(a *lexicon.Anagrammes, cle uint64, jokers, from int, paires *[tile.Alphabet + 1]uint32) uint32 {
	if a == nil {
		return allLetters
	}
	if jokers == 0 {
		if a.ContientCle(cle) {
			return allLetters
		}
		return 0
	}
	var m uint32
	for l := from; l <= tile.Alphabet; l++ {
		if sub := jokersPossibles(a, cle+lexicon.CleLettre(uint8(l)), jokers-1, l, nil); sub != 0 {
			m |= 1 << l
			if jokers > 1 {
				m |= sub
			}
			if paires != nil {
				paires[l] |= sub
				for r := sub; r != 0; r &= r - 1 {
					paires[bits.TrailingZeros32(r)] |= 1 << l
				}
			}
		}
	}
	return m
}

// limiterJokers limits the walk to the anchor's placements of the whole
// rack, once only those can reach the best: it goes left no further than
// the first column where one starts, turns right only where one starts and
// goes right only while one of those ends further (marcher); the jokers stand
// only for the letters of those placements, and with two jokers, once one
// stands for x, the other for the letters paired with x.
func (g *Generator) limiterJokers() {
	if g.limite {
		return
	}
	g.limite, g.lettresJoker = true, g.jokersEntiers
	g.premiereEntiere = board.Size
	for from := board.Size - 1; from >= 0; from-- {
		if g.entiers[from] != 0 {
			g.premiereEntiere = from
		}
	}
	if g.hand[tile.NoLetter] != 2 || g.tablesEntieres&tablesInconnues != 0 {
		return
	}
	sh := &g.shadow
	for x := 1; x <= tile.Alphabet; x++ {
		var v uint32
		for t := g.tablesEntieres; t != 0; t &= t - 1 {
			v |= sh.paires[bits.TrailingZeros32(t)][x]
		}
		g.partenaires[x] = v
	}
	g.pairesActives = true
}
