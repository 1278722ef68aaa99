package duplicate

import (
	"sync"

	"arbitre/engine/board"
	"arbitre/engine/lexicon"
	"arbitre/engine/movegen"
	"arbitre/engine/play"
	"arbitre/engine/tile"
)

// Moteur is what the aggregate asks the engine: every placement of maximum
// score, and the verdict on one placement. Replays never call it.
type Moteur interface {
	// Tops returns every placement of maximum score (none when nothing can
	// be played). The slice belongs to the caller.
	Tops(b *board.Board, rack tile.Rack) []movegen.Move
	// Verifier validates and scores one placement.
	Verifier(b *board.Board, ref board.Ref, word []tile.Tile, rack *tile.Rack) play.Result
}

// moteurLexique is the engine on one lexicon and one variant. Generators keep
// working memory, so calls are serialized.
type moteurLexique struct {
	mu  sync.Mutex
	gen *movegen.Generator
	chk *play.Checker
}

// NewMoteur returns the engine for lex and the variant of §1.2.3/§3.8.2.
// In duplicate the first word is horizontal (§3.4).
func NewMoteur(lex *lexicon.Lexicon, v movegen.Variant) Moteur {
	opts := movegen.Options{Variant: v}
	return &moteurLexique{gen: movegen.New(lex, opts), chk: play.NewChecker(lex, opts)}
}

func (m *moteurLexique) Tops(b *board.Board, rack tile.Rack) []movegen.Move {
	m.mu.Lock()
	defer m.mu.Unlock()
	moves, _ := m.gen.Generate(b, rack, movegen.TopOnly)
	return append([]movegen.Move(nil), moves...)
}

func (m *moteurLexique) Verifier(b *board.Board, ref board.Ref, word []tile.Tile, rack *tile.Rack) play.Result {
	var res play.Result
	m.chk.Check(b, ref, word, rack, &res)
	return res
}
