// Package solve implements the batch contract of `arbitre engine solve`: one
// JSON position per input line, one JSON answer per output line, in order.
package solve

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"

	"arbitre/engine/board"
	"arbitre/engine/jsonl"
	"arbitre/engine/lexicon"
	"arbitre/engine/movegen"
	"arbitre/engine/tile"
)

// Position is one input line: `{"id":…,"board":[15 rows],"rack":"…"}`.
// The id is any JSON value and is given back as is; board and rack are
// required (a field of another name is an error line that names it).
type Position struct {
	ID    json.RawMessage `json:"id"`
	Board []string        `json:"board"`
	Rack  *string         `json:"rack"`
}

// positionFields lists Position's fields for the error lines.
const positionFields = "id, board (15 lignes de 15 caractères) et rack"

// Placement is a move as the contract prints it.
type Placement struct {
	Word  string `json:"word"`
	Ref   string `json:"ref"`
	Score int    `json:"score"`
}

// Result is one output line for a valid position.
type Result struct {
	ID       json.RawMessage `json:"id"`
	TopScore int             `json:"top_score"`
	Moves    int             `json:"moves"`
	Tops     []Placement     `json:"tops"`
	All      []Placement     `json:"all,omitempty"`
}

// TopResult is the output line of `--top-only`: a Result without the move
// count.
type TopResult struct {
	ID       json.RawMessage `json:"id"`
	TopScore int             `json:"top_score"`
	Tops     []Placement     `json:"tops"`
}

// Solver answers positions with one generator (not safe for concurrent use).
type Solver struct {
	gen     *movegen.Generator
	variant movegen.Variant
	all     bool
	topOnly bool
}

// NewSolver returns a solver; with all set, every placement is listed.
func NewSolver(lex *lexicon.Lexicon, opts movegen.Options, all bool) *Solver {
	return &Solver{gen: movegen.New(lex, opts), variant: variantOf(opts), all: all}
}

// NewTopSolver returns the solver of `--top-only`: the top score and every
// top, found by the pruned search (movegen.TopPruned), without the count.
func NewTopSolver(lex *lexicon.Lexicon, opts movegen.Options) *Solver {
	return &Solver{gen: movegen.New(lex, opts), variant: variantOf(opts), topOnly: true}
}

// variantOf is the formula the generator plays (the normal one when unset).
func variantOf(opts movegen.Options) movegen.Variant {
	if opts.Variant.MaxPlaced == 0 {
		return movegen.Standard
	}
	return opts.Variant
}

// Run reads positions from r and writes one answer per line to w
// (jsonl.Run: a blank line is skipped). A bad line gets a jsonl.Failure and
// the run goes on; only I/O errors stop it.
func (s *Solver) Run(r io.Reader, w io.Writer) (jsonl.Tally, error) { return jsonl.Run(r, w, s.Line) }

// RunAll is Run with the positions shared out among the solvers, one
// goroutine each; the output is Run's, line for line.
func RunAll(r io.Reader, w io.Writer, solvers []*Solver) (jsonl.Tally, error) {
	answers := make([]func(line []byte) any, len(solvers))
	for i, s := range solvers {
		answers[i] = s.Line
	}
	return jsonl.RunWorkers(r, w, answers)
}

// Line answers one input line: a Result or a jsonl.Failure.
func (s *Solver) Line(line []byte) any {
	var p Position
	if err := jsonl.Decode(line, &p, positionFields); err != nil {
		return jsonl.Failure{ID: idOrNull(p.ID), Error: err.Error()}
	}
	res, err := s.Solve(p)
	switch {
	case err != nil:
		return jsonl.Failure{ID: idOrNull(p.ID), Error: err.Error()}
	case s.topOnly:
		return TopResult{ID: res.ID, TopScore: res.TopScore, Tops: res.Tops}
	}
	return res
}

// idOrNull is a line's id, null when it has none.
func idOrNull(id json.RawMessage) json.RawMessage {
	if id == nil {
		return json.RawMessage("null")
	}
	return id
}

// Solve answers one position (Moves is 0 for a top-only solver). A missing
// board or rack, an empty rack or one longer than the formula's tirage is
// an error that names the field.
func (s *Solver) Solve(p Position) (Result, error) {
	p.ID = idOrNull(p.ID)
	switch {
	case p.Board == nil:
		return Result{}, fmt.Errorf("champ « board » manquant : les champs sont %s", positionFields)
	case p.Rack == nil:
		return Result{}, fmt.Errorf("champ « rack » manquant : les champs sont %s", positionFields)
	}
	b, err := board.Parse(p.Board)
	if err != nil {
		return Result{}, fmt.Errorf("champ « board » : %w", err)
	}
	rack, err := tile.ParseRack(*p.Rack)
	if err != nil {
		return Result{}, fmt.Errorf("champ « rack » %q : %w", *p.Rack, err)
	}
	switch n := rack.Size(); {
	case n == 0:
		return Result{}, fmt.Errorf("champ « rack » vide : le tirage a de 1 à %d lettres", s.variant.RackSize)
	case n > s.variant.RackSize:
		return Result{}, fmt.Errorf("champ « rack » %q : %d lettres, la formule « %s » en tire au plus %d (§3.8.2)",
			*p.Rack, n, s.variant.Name, s.variant.RackSize)
	}
	if err := checkTileCounts(&b, &rack); err != nil {
		return Result{}, err
	}
	best := 0
	switch {
	case s.all:
		best = math.MaxInt
	case s.topOnly:
		best = TopsOnly
	}
	an, _ := analyse(context.Background(), s.gen, &b, rack, best) // never ends: no error
	res := Result{ID: p.ID, TopScore: an.TopScore, Moves: an.Moves, Tops: placements(an.Tops)}
	if s.all {
		res.All = placements(an.Best)
	}
	return res, nil
}

// placements renders moves as the contract prints them (never null).
func placements(ms []movegen.Move) []Placement {
	out := make([]Placement, len(ms))
	for i := range ms {
		out[i] = Placement{Word: ms[i].WordString(), Ref: ms[i].Ref().String(), Score: int(ms[i].Score)}
	}
	return out
}

// sortMoves orders by score (highest first), then horizontal before
// vertical, then by row and column of the reference, then by word.
func sortMoves(ms []movegen.Move) {
	sort.Slice(ms, func(i, j int) bool {
		a, b := &ms[i], &ms[j]
		switch {
		case a.Score != b.Score:
			return a.Score > b.Score
		case a.Vertical != b.Vertical:
			return !a.Vertical
		case a.Row != b.Row:
			return a.Row < b.Row
		case a.Col != b.Col:
			return a.Col < b.Col
		}
		return wordLess(a, b)
	})
}

// wordLess orders two words tile by tile, the shorter first on a tie.
func wordLess(a, b *movegen.Move) bool {
	for i := 0; i < int(min(a.Len, b.Len)); i++ {
		if a.Word[i] != b.Word[i] {
			return a.Word[i] < b.Word[i]
		}
	}
	return a.Len < b.Len
}

// checkTileCounts refuses a position using more tiles of a kind than the
// French set holds (§1.1): such a position cannot arise in a game.
func checkTileCounts(b *board.Board, rack *tile.Rack) error {
	used := *rack
	for i := 0; i < board.Squares; i++ {
		t := b.Square(i)
		switch {
		case t == tile.Empty:
		case t.IsJoker():
			used[tile.NoLetter]++
		default:
			used[t.Letter()]++
		}
	}
	for l := tile.Letter(0); l <= tile.Alphabet; l++ {
		if int(used[l]) > l.Count() {
			return fmt.Errorf("la grille et le tirage comptent %d × %c, le jeu français n'en a que %d (§1.1)", used[l], l.Byte(), l.Count())
		}
	}
	return nil
}
