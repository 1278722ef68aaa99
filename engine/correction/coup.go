package correction

import (
	"arbitre/engine/board"
	"arbitre/engine/lexicon"
	"arbitre/engine/movegen"
	"arbitre/engine/play"
	"arbitre/engine/tile"
)

// Context is the game context a bulletin is corrected in.
type Context struct {
	// Board is the grid before the coup, 15 rows as in engine solve.
	Board []string `json:"board"`
	// Tirage is the coup's rack, "?" for a joker.
	Tirage string `json:"tirage"`
	// Coup is the coup number, from 1.
	Coup int `json:"coup"`
	// FirstWordLength is the length of the word played at the first coup
	// (the second-coup exception of §4.3.2 and §5.5).
	FirstWordLength int `json:"first_word_length"`
	// Top is the top's score; computed with the move generator when nil.
	Top *int `json:"top,omitempty"`
	// Unnotified are the non-admitted words of earlier zéros whose motive
	// the player has not been told yet (the averages of §5.9).
	Unnotified []string `json:"unnotified,omitempty"`
	// Variant is the formula (normal, 7sur8, 7et8, 789; §3.8.2), default normal.
	Variant string `json:"variant,omitempty"`
}

// Coup is a prepared correction context: the parsed grid and tirage and the
// top. It is read-only once built, so bulletins of the same coup can be
// corrected concurrently; the scratch space lives in a Corrector.
type Coup struct {
	lex        *lexicon.Lexicon
	opts       movegen.Options
	board      board.Board
	rack       tile.Rack
	number     int
	firstLen   int
	top        int
	unnotified map[string]bool
}

// NewCoup validates the context and computes the top when it is not given.
func NewCoup(lex *lexicon.Lexicon, ctx Context) (*Coup, error) {
	b, err := board.Parse(ctx.Board)
	if err != nil {
		return nil, errorf(ErrBoard, "board", "%v", err)
	}
	rack, err := tile.ParseRack(ctx.Tirage)
	if err != nil {
		return nil, errorf(ErrTirage, "tirage", "%v", err)
	}
	opts := movegen.Options{Variant: movegen.Standard}
	if ctx.Variant != "" {
		found := false
		for _, v := range movegen.Variants {
			if v.Name == ctx.Variant {
				opts.Variant, found = v, true
			}
		}
		if !found {
			return nil, errorf(ErrVariant, "variant", "%q: want normal, 7sur8, 7et8 or 789", ctx.Variant)
		}
	}
	switch n := rack.Size(); {
	case n == 0 || n > opts.Variant.RackSize:
		return nil, errorf(ErrTirage, "tirage", "%q: %d tiles, want 1 to %d", ctx.Tirage, n, opts.Variant.RackSize)
	case rack[tile.NoLetter] > 2:
		return nil, errorf(ErrTirage, "tirage", "%q: more than two jokers", ctx.Tirage)
	}
	switch {
	case ctx.Coup < 1 || ctx.Coup > 99:
		return nil, errorf(ErrCoup, "coup", "%d: want 1 to 99", ctx.Coup)
	case ctx.Coup == 1 && !b.IsEmpty():
		return nil, errorf(ErrCoup, "coup", "coup 1 on a grid that is not empty")
	case ctx.Coup > 1 && b.IsEmpty():
		return nil, errorf(ErrCoup, "coup", "coup %d on an empty grid", ctx.Coup)
	case ctx.Coup > 1 && (ctx.FirstWordLength < 2 || ctx.FirstWordLength > board.Size):
		return nil, errorf(ErrCoup, "first_word_length", "%d: want 2 to 15 from the second coup", ctx.FirstWordLength)
	}
	c := &Coup{lex: lex, opts: opts, board: b, rack: rack, number: ctx.Coup, firstLen: ctx.FirstWordLength}
	if ctx.Top != nil {
		if *ctx.Top < 0 {
			return nil, errorf(ErrTop, "top", "%d: negative", *ctx.Top)
		}
		c.top = *ctx.Top
	} else {
		moves, _ := movegen.New(lex, opts).Generate(&b, rack, movegen.TopPruned)
		if len(moves) > 0 {
			c.top = int(moves[0].Score)
		}
	}
	if len(ctx.Unnotified) > 0 {
		c.unnotified = map[string]bool{}
		for _, w := range ctx.Unnotified {
			c.unnotified[normaliseWord(w)] = true
		}
	}
	return c, nil
}

// Top is the top's score for the coup.
func (c *Coup) Top() int { return c.top }

// Board is the grid before the coup.
func (c *Coup) Board() board.Board { return c.board }

// normaliseWord upper-cases a word for comparisons.
func normaliseWord(w string) string {
	b := []byte(w)
	for i := range b {
		if b[i] >= 'a' && b[i] <= 'z' {
			b[i] -= 'a' - 'A'
		}
	}
	return string(b)
}

// assignment is one way to put a word down at a fit: which of its squares
// hold a joker, its score and whether every word formed is admitted.
type assignment struct {
	jokers   uint16 // bit i: the i-th letter of the full word is a joker put down
	score    int
	playable bool
	invalid  []string // words formed that are not admitted
}

// fit is a square where the written word lies on the grid in one direction:
// every letter agrees with the grid, it connects, and the grid letters that
// touch its ends lengthen it into the full word.
type fit struct {
	ref       board.Ref // of the full word
	k, n, len int       // the written letters are full[k:k+n]; len is the full length
	full      [board.Size]tile.Letter
	placed    uint16 // bit i: the i-th letter of the full word is put down
	lettersOK bool   // the tirage (jokers included) holds the letters put down
	asg       []assignment
}

// whole reports whether the written word is the whole word on the grid.
func (f *fit) whole() bool { return f.k == 0 && f.n == f.len }

// playable reports whether one assignment is a valid solution.
func (f *fit) playable() bool {
	for i := range f.asg {
		if f.asg[i].playable {
			return true
		}
	}
	return false
}

// origin is the square of the first written letter.
func (f *fit) origin() (int, int) {
	if f.ref.Vertical {
		return f.ref.Row + f.k, f.ref.Col
	}
	return f.ref.Row, f.ref.Col + f.k
}

// square is the (row, col) of the i-th letter of the full word.
func (f *fit) square(i int) (int, int) {
	if f.ref.Vertical {
		return f.ref.Row + i, f.ref.Col
	}
	return f.ref.Row, f.ref.Col + i
}

// Corrector corrects bulletins of any coup with reusable scratch space; it is
// not safe for concurrent use (give each goroutine its own).
type Corrector struct {
	lex     *lexicon.Lexicon
	checker *play.Checker
	res     play.Result
	tiles   [board.Size]tile.Tile
}

// NewCorrector returns a corrector over lex.
func NewCorrector(lex *lexicon.Lexicon) *Corrector {
	// The checker allows the largest formula; fitAt enforces the coup's own
	// limit and assign its own bonus.
	return &Corrector{lex: lex, checker: play.NewChecker(lex, movegen.Options{Variant: movegen.SeptHuitNeuf})}
}

// fitAt lays the written letters from (r, c) in a direction, lengthens them
// with the grid letters touching both ends and checks the full word; ok is
// false when it does not lie on the grid there.
func (x *Corrector) fitAt(cp *Coup, w []tile.Letter, r, c int, vertical bool) (f fit, ok bool) {
	along, across := c, r
	if vertical {
		along, across = r, c
	}
	n := len(w)
	if along < 0 || across < 0 || across >= board.Size || along+n > board.Size {
		return fit{}, false
	}
	at := func(k int) tile.Tile {
		if vertical {
			return cp.board.At(k, across)
		}
		return cp.board.At(across, k)
	}
	start, end := along, along+n
	for start > 0 && at(start-1) != tile.Empty {
		start--
	}
	for end < board.Size && at(end) != tile.Empty {
		end++
	}
	f.k, f.n, f.len = along-start, n, end-start
	f.ref = board.Ref{Row: across, Col: start, Vertical: vertical}
	if vertical {
		f.ref = board.Ref{Row: start, Col: across, Vertical: true}
	}
	var need tile.Rack
	for i := 0; i < f.len; i++ {
		t := at(start + i)
		switch {
		case t != tile.Empty:
			if i >= f.k && i < f.k+n && t.Letter() != w[i-f.k] {
				return fit{}, false
			}
			f.full[i] = t.Letter()
		default:
			f.full[i] = w[i-f.k]
			f.placed |= 1 << i
			need[f.full[i]]++
		}
		x.tiles[i] = tile.Tile(f.full[i])
	}
	if f.placed == 0 {
		return fit{}, false
	}
	x.checker.Check(&cp.board, f.ref, x.tiles[:f.len], nil, &x.res)
	if x.res.Problem != play.OK {
		return fit{}, false
	}
	missing := 0
	for l := 1; l <= tile.Alphabet; l++ {
		if d := int(need[l]) - int(cp.rack[l]); d > 0 {
			missing += d
		}
	}
	jokers := int(cp.rack[tile.NoLetter])
	f.lettersOK = missing <= jokers && int(popcount(f.placed)) <= cp.opts.Variant.MaxPlaced
	if f.lettersOK {
		x.assign(cp, &f, need, jokers)
	}
	return f, true
}

// assign scores every way of putting the jokers of the tirage on the squares
// put down (§5.3: "les divers encerclements possibles").
func (x *Corrector) assign(cp *Coup, f *fit, need tile.Rack, jokers int) {
	var pos []int
	for i := 0; i < f.len; i++ {
		if f.placed&(1<<i) != 0 {
			pos = append(pos, i)
		}
	}
	try := func(mask uint16) {
		left := need
		for _, i := range pos {
			if mask&(1<<i) != 0 {
				left[f.full[i]]--
			}
		}
		for l := 1; l <= tile.Alphabet; l++ {
			if left[l] > cp.rack[l] {
				return
			}
		}
		for i := 0; i < f.len; i++ {
			x.tiles[i] = tile.Tile(f.full[i])
			if mask&(1<<i) != 0 {
				x.tiles[i] |= tile.JokerBit
			}
		}
		x.checker.Check(&cp.board, f.ref, x.tiles[:f.len], &cp.rack, &x.res)
		if x.res.Problem != play.OK {
			return
		}
		a := assignment{jokers: mask, score: int(x.res.Score) + cp.opts.Variant.Bonus[x.res.NPlaced] - movegen.SeptHuitNeuf.Bonus[x.res.NPlaced], playable: x.res.Playable()}
		for j := 0; j < x.res.NWords; j++ {
			if !x.res.Words[j].Valid {
				a.invalid = append(a.invalid, normaliseWord(x.res.Words[j].Text()))
			}
		}
		f.asg = append(f.asg, a)
	}
	try(0)
	for a := 0; a < len(pos) && jokers >= 1; a++ {
		try(1 << pos[a])
		for b := a + 1; b < len(pos) && jokers >= 2; b++ {
			try(1<<pos[a] | 1<<pos[b])
		}
	}
}

// fits lists every fit of the written letters in one direction.
func (x *Corrector) fits(cp *Coup, w []tile.Letter, vertical bool) []fit {
	var out []fit
	for r := 0; r < board.Size; r++ {
		for c := 0; c < board.Size; c++ {
			if f, ok := x.fitAt(cp, w, r, c, vertical); ok {
				out = append(out, f)
			}
		}
	}
	return out
}

func popcount(m uint16) int {
	n := 0
	for ; m != 0; m &= m - 1 {
		n++
	}
	return n
}
