package solve

import (
	"context"
	"sync"

	"arbitre/engine/board"
	"arbitre/engine/lexicon"
	"arbitre/engine/movegen"
	"arbitre/engine/play"
	"arbitre/engine/tile"
)

// Analysis is a position's top and its best placements, for servers.
type Analysis struct {
	TopScore int
	Moves    int
	Tops     []movegen.Move
	// Best holds up to the number of placements asked, best first.
	Best []movegen.Move
}

// Pool shares generators between goroutines: a server answers many
// positions at once, and a Generator serves one at a time.
type Pool struct {
	lex  *lexicon.Lexicon
	pool sync.Pool
}

// NewPool returns a pool over one lexicon.
func NewPool(lex *lexicon.Lexicon) *Pool {
	return &Pool{lex: lex}
}

type pooled struct {
	opts movegen.Options
	gen  *movegen.Generator
}

// TopsOnly asks Analyse for the tops alone, without the move count: the
// pruned search (movegen.TopPruned).
const TopsOnly = -1

// Analyse finds the tops of a position, its move count and its best
// placements (best = 0: none; TopsOnly: the tops only, Moves left 0). The
// moves returned are copies, safe to keep. The search stops with ctx's error
// once ctx ends.
func (p *Pool) Analyse(ctx context.Context, b *board.Board, rack tile.Rack, opts movegen.Options, best int) (Analysis, error) {
	g := p.generator(opts)
	defer p.pool.Put(g)
	return analyse(ctx, g.gen, b, rack, best)
}

// analyse runs the generator and sorts its findings.
func analyse(ctx context.Context, g *movegen.Generator, b *board.Board, rack tile.Rack, best int) (Analysis, error) {
	mode := movegen.TopOnly
	switch {
	case best > 0:
		mode = movegen.AllMoves
	case best == TopsOnly:
		mode = movegen.TopPruned
	}
	moves, count, err := g.GenerateContext(ctx, b, rack, mode)
	if err != nil {
		return Analysis{}, err
	}
	sortMoves(moves)
	a := Analysis{Moves: count}
	for i := range moves {
		if moves[i].Score != moves[0].Score {
			break
		}
		a.Tops = append(a.Tops, moves[i])
	}
	if len(moves) > 0 {
		a.TopScore = int(moves[0].Score)
	}
	if best > 0 {
		a.Best = append(a.Best, moves[:min(best, len(moves))]...)
	}
	return a, nil
}

// Check validates and scores one placement (see play.Checker).
func (p *Pool) Check(b *board.Board, ref board.Ref, word []tile.Tile, rack *tile.Rack, opts movegen.Options) play.Result {
	var res play.Result
	play.NewChecker(p.lex, opts).Check(b, ref, word, rack, &res)
	return res
}

func (p *Pool) generator(opts movegen.Options) *pooled {
	if g, ok := p.pool.Get().(*pooled); ok && g.opts == opts {
		return g
	}
	return &pooled{opts: opts, gen: movegen.New(p.lex, opts)}
}
