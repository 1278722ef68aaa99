package movegen

import (
	"bytes"
	"math/bits"

	"arbitre/engine/board"
	"arbitre/engine/tile"
)

// One walk per word. Every mode but AllMoves walks each word once: at a
// square, a letter the rack holds is taken from the rack, and a joker is
// used only for a letter the rack lacks (blanks). Every placement of the
// word differs from that one only by which of its new tiles are jokers (§1.1:
// a joker stands for any letter and scores 0, §1.2.1), so record counts them
// all at once (ways) and, when the word as walked (every tile scored as its
// letter) can reach the best score, lists those of the best score
// (keepTops). AllMoves branches on each letter, joker or not, and keeps
// every placement as it is walked.

// binom[n][k] is the number of ways to choose k of n tiles.
var binom = func() (c [board.Size + 1][board.Size + 1]int) {
	for n := range c {
		c[n][0] = 1
		for k := 1; k <= n; k++ {
			c[n][k] = c[n-1][k-1] + c[n-1][k]
		}
	}
	return
}()

// upTo[n][j] is the number of ways to choose at most j of n tiles.
var upTo = func() (u [board.Size + 1][board.Size + 1]int) {
	for n := range u {
		for j := range u[n] {
			for k := 0; k <= min(j, n); k++ {
				u[n][j] += binom[n][k]
			}
		}
	}
	return
}()

// ways counts the placements of the word being recorded, n tiles put down:
// the ways to choose which of them are jokers, at most the rack's jokers,
// such that the rack holds the rest. A letter the walk needed d jokers for
// (it put down the rack's r of it and d more) has at least d of its r+d
// tiles as jokers; any other tile may be one.
func (g *Generator) ways(n int) int {
	jokers := min(int(g.hand[tile.NoLetter]), n)
	switch {
	case g.nBlanks == 0:
		return upTo[n][jokers]
	case jokers == 1: // the joker is one of the tiles of the letter it stands for
		return int(g.hand[g.blanks[0]]) + 1
	case jokers == 2: // the set's two jokers: closed forms of the product below
		k := int(g.hand[g.blanks[0]]) + 1 // the tiles of the first letter
		switch {
		case g.nBlanks == 1: // one joker among them, the other anywhere or unused; or both among them
			return k*(n-k+1) + k*(k-1)/2
		case g.blanks[1] != g.blanks[0]: // one among each letter's tiles
			return k * (int(g.hand[g.blanks[1]]) + 1)
		}
		return (k + 1) * k / 2 // both among the k+1 tiles of the one letter
	}
	// poly[j]: the ways to choose j jokers among the letters seen so far.
	var poly [board.Size + 1]int
	poly[0] = 1
	rest := n
	var seen uint32
	for i := range g.nBlanks {
		l := g.blanks[i]
		if seen&(1<<l) != 0 {
			continue
		}
		seen |= 1 << l
		d := 0
		for _, b := range g.blanks[i:g.nBlanks] {
			if b == l {
				d++
			}
		}
		k := int(g.hand[l]) + d
		rest -= k
		convolve(&poly, k, d, jokers)
	}
	convolve(&poly, rest, 0, jokers)
	total := 0
	for _, w := range poly[:jokers+1] {
		total += w
	}
	return total
}

// convolve multiplies poly by the ways to choose j of k tiles, j from least
// up, keeping the terms up to degree max.
func convolve(poly *[board.Size + 1]int, k, least, max int) {
	var out [board.Size + 1]int
	for i := 0; i <= max; i++ {
		if poly[i] == 0 {
			continue
		}
		for j := least; j <= k && i+j <= max; j++ {
			out[i+j] += poly[i] * binom[k][j]
		}
	}
	*poly = out
}

// keepTops lists, among the placements of the word being recorded (columns
// from..to, n tiles put down, scoring full when no tile is a joker and mult
// its word multiplier), those that reach the best score. Making the tile of
// letter value v on a square of letter multiplier lm a joker costs v·lm
// times the word's multiplier, and times the square's word multiplier again
// when it forms a perpendicular word there (§1.2.1).
func (g *Generator) keepTops(from, to int, full, mult int32, n int) {
	var cols [board.Size]int
	var cost [board.Size]int32
	rowBase := g.row * board.Size
	k := 0
	for c := from; c <= to; c++ {
		sq := rowBase + c
		if g.s.grid.Square(sq) != tile.Empty {
			continue
		}
		f := mult
		if g.s.hasCross[sq] {
			f += wordMult[sq]
		}
		cols[k], cost[k] = c, letterValue[g.placed[c]]*letterMult[sq]*f
		k++
	}
	jokers := min(int(g.hand[tile.NoLetter]), n)
	for set := uint32(0); set < 1<<k; set++ {
		if bits.OnesCount32(set) > jokers || !g.coversBlanks(set, &cols) {
			continue
		}
		score := full
		for rest := set; rest != 0; rest &= rest - 1 {
			score -= cost[bits.TrailingZeros32(rest)]
		}
		if score < g.best {
			continue
		}
		if score > g.best {
			g.best, g.moves, g.keys = score, g.moves[:0], g.keys[:0]
			if score > g.court {
				g.limiterJokers()
			}
		}
		g.markJokers(set, &cols, tile.JokerBit)
		g.moves = append(g.moves, g.makeMove(from, to, score, n))
		g.keys = append(g.keys, g.walkKey(from, to))
		g.markJokers(set, &cols, 0)
	}
}

// coversBlanks reports whether the tiles of set (bit i: the tile at
// cols[i]) include a joker for every letter the rack lacks.
func (g *Generator) coversBlanks(set uint32, cols *[board.Size]int) bool {
	var need [tile.Alphabet + 1]int8
	for _, l := range g.blanks[:g.nBlanks] {
		need[l]++
	}
	for rest := set; rest != 0; rest &= rest - 1 {
		need[g.placed[cols[bits.TrailingZeros32(rest)]]]--
	}
	for _, l := range g.blanks[:g.nBlanks] {
		if need[l] > 0 {
			return false
		}
	}
	return true
}

// markJokers sets (bit = tile.JokerBit) or clears (0) the joker flag of the
// tiles of set.
func (g *Generator) markJokers(set uint32, cols *[board.Size]int, bit tile.Tile) {
	for rest := set; rest != 0; rest &= rest - 1 {
		c := cols[bits.TrailingZeros32(rest)]
		g.placed[c] = g.placed[c]&^tile.JokerBit | bit
	}
}

// walkKey is a top's place in the order the full generation (TopOnly, one
// branch per letter and per joker) records placements: by anchor (the
// horizontal side first, then row, then column), then by the walk's path —
// the squares from the anchor leftwards, then the turn, then rightwards; at
// each step, ending there first, then a letter (lowest first, the letter
// before its joker), then the turn right.
type walkKey [2 + board.Size + 2]byte

const (
	keyEnd  = 0
	keyTurn = 0xff
)

// walkKey is the key of the placement being recorded, columns from..to.
func (g *Generator) walkKey(from, to int) (k walkKey) {
	anchor := g.row*board.Size + g.anchorCol
	if g.s.vertical {
		anchor += board.Squares
	}
	k[0], k[1] = byte(anchor>>8), byte(anchor)
	i := 2
	rowBase := g.row * board.Size
	step := func(c int) {
		t := g.s.grid.Square(rowBase + c)
		if t == tile.Empty {
			t = g.placed[c]
		}
		k[i] = 1 + 2*byte(t.Letter())
		if t.IsJoker() {
			k[i]++
		}
		i++
	}
	for c := g.anchorCol; c >= from; c-- {
		step(c)
	}
	if to > g.anchorCol {
		k[i] = keyTurn
		i++
		for c := g.anchorCol + 1; c <= to; c++ {
			step(c)
		}
	}
	return k // then keyEnd
}

// inWalkOrder puts the tops in the order the full generation lists them
// (walkKey; a stable insertion sort: tops are few).
func (g *Generator) inWalkOrder() {
	for i := 1; i < len(g.keys); i++ {
		for j := i; j > 0 && bytes.Compare(g.keys[j-1][:], g.keys[j][:]) > 0; j-- {
			g.keys[j-1], g.keys[j] = g.keys[j], g.keys[j-1]
			g.moves[j-1], g.moves[j] = g.moves[j], g.moves[j-1]
		}
	}
}
