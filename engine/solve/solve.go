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

// Position is one input line.
type Position struct {
	ID    json.RawMessage `json:"id"`
	Board []string        `json:"board"`
	Rack  string          `json:"rack"`
}

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

// Failure is the output line for a position that cannot be solved.
type Failure struct {
	ID    json.RawMessage `json:"id"`
	Error string          `json:"error"`
}

// Solver answers positions with one generator (not safe for concurrent use).
type Solver struct {
	gen     *movegen.Generator
	all     bool
	topOnly bool
}

// NewSolver returns a solver; with all set, every placement is listed.
func NewSolver(lex *lexicon.Lexicon, opts movegen.Options, all bool) *Solver {
	return &Solver{gen: movegen.New(lex, opts), all: all}
}

// NewTopSolver returns the solver of `--top-only`: the top score and every
// top, found by the pruned search (movegen.TopPruned), without the count.
func NewTopSolver(lex *lexicon.Lexicon, opts movegen.Options) *Solver {
	return &Solver{gen: movegen.New(lex, opts), topOnly: true}
}

// Run reads positions from r and writes one answer per line to w
// (jsonl.Run: a blank line is skipped). A bad line gets a Failure and the
// run goes on; only I/O errors stop it.
func (s *Solver) Run(r io.Reader, w io.Writer) error { return jsonl.Run(r, w, s.Line) }

// RunAll is Run with the positions shared out among the solvers, one
// goroutine each; the output is Run's, line for line.
func RunAll(r io.Reader, w io.Writer, solvers []*Solver) error {
	answers := make([]func(line []byte) any, len(solvers))
	for i, s := range solvers {
		answers[i] = s.Line
	}
	return jsonl.RunWorkers(r, w, answers)
}

// Line answers one input line: a Result or a Failure.
func (s *Solver) Line(line []byte) any {
	var p Position
	if err := json.Unmarshal(line, &p); err != nil {
		return Failure{ID: p.ID, Error: "line is not a position: " + err.Error()}
	}
	res, err := s.Solve(p)
	switch {
	case err != nil:
		return Failure{ID: p.ID, Error: err.Error()}
	case s.topOnly:
		return TopResult{ID: res.ID, TopScore: res.TopScore, Tops: res.Tops}
	}
	return res
}

// Solve answers one position (Moves is 0 for a top-only solver).
func (s *Solver) Solve(p Position) (Result, error) {
	if p.ID == nil {
		p.ID = json.RawMessage("null")
	}
	b, err := board.Parse(p.Board)
	if err != nil {
		return Result{}, err
	}
	rack, err := tile.ParseRack(p.Rack)
	if err != nil {
		return Result{}, fmt.Errorf("rack %q: %w", p.Rack, err)
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
			return fmt.Errorf("board and rack hold %d × %c, the French set has %d", used[l], l.Byte(), l.Count())
		}
	}
	if n := rack.Size(); n > movegen.SeptHuitNeuf.RackSize {
		return fmt.Errorf("rack holds %d tiles, at most %d", n, movegen.SeptHuitNeuf.RackSize)
	}
	return nil
}
