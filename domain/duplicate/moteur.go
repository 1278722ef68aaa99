package duplicate

import (
	"slices"
	"sync"

	"arbitre/domain/erreur"
	"arbitre/engine/board"
	"arbitre/engine/correction"
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
	// Corriger is engine/correction's decision on a bulletin as written in
	// its coup (§5).
	Corriger(ctx correction.Context, b *correction.Bulletin) (correction.Decision, error)
}

// avecLexique is an engine that knows its lexicon (moteurLexique, and
// Moteurs for its default): a game created on it records the lexicon's
// identity.
type avecLexique interface {
	Lexique() *lexicon.Lexicon
}

// moteurLexique is the engine on one lexicon and one variant. Generators keep
// working memory, so calls are serialized.
type moteurLexique struct {
	mu  sync.Mutex
	lex *lexicon.Lexicon
	gen *movegen.Generator
	chk *play.Checker
	cor *correction.Corrector
	// cp is the last coup prepared for correction, reused while its
	// bulletins are corrected one after another.
	cp  *correction.Coup
	cpx correction.Context
}

// NewMoteur returns the engine for lex and the variant of §1.2.3/§3.8.2.
// In duplicate the first word is horizontal (§3.4).
func NewMoteur(lex *lexicon.Lexicon, v movegen.Variant) Moteur {
	opts := movegen.Options{Variant: v}
	return &moteurLexique{lex: lex, gen: movegen.New(lex, opts), chk: play.NewChecker(lex, opts), cor: correction.NewCorrector(lex)}
}

// Lexique is the lexicon the engine plays with.
func (m *moteurLexique) Lexique() *lexicon.Lexicon { return m.lex }

func (m *moteurLexique) Tops(b *board.Board, rack tile.Rack) []movegen.Move {
	m.mu.Lock()
	defer m.mu.Unlock()
	moves, _ := m.gen.Generate(b, rack, movegen.TopPruned)
	return append([]movegen.Move(nil), moves...)
}

func (m *moteurLexique) Verifier(b *board.Board, ref board.Ref, word []tile.Tile, rack *tile.Rack) play.Result {
	var res play.Result
	m.chk.Check(b, ref, word, rack, &res)
	return res
}

func (m *moteurLexique) Corriger(ctx correction.Context, b *correction.Bulletin) (correction.Decision, error) {
	if err := b.Validate(); err != nil {
		return correction.Decision{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.cp == nil || !memeContexte(&m.cpx, &ctx) {
		cp, err := correction.NewCoup(m.lex, ctx)
		if err != nil {
			return correction.Decision{}, err
		}
		m.cp, m.cpx = cp, ctx
	}
	return m.cor.Decide(m.cp, b), nil
}

// memeContexte reports whether two correction contexts are the same coup.
func memeContexte(a, b *correction.Context) bool {
	return a.Coup == b.Coup && a.Tirage == b.Tirage && a.FirstWordLength == b.FirstWordLength &&
		a.Variant == b.Variant && slices.Equal(a.Board, b.Board) && slices.Equal(a.Unnotified, b.Unnotified) &&
		(a.Top == nil) == (b.Top == nil) && (a.Top == nil || *a.Top == *b.Top)
}

// Moteurs serves every formula of §3.8.2 on every lexicon the server holds:
// a game takes the engine of its own variant and its own lexicon when it is
// created (or replayed), so one server hosts normal and 7-sur-8 games, ODS7
// and ODS8 games, side by side. New games are created on the default
// lexicon (the first).
type Moteurs struct {
	mu       sync.Mutex
	lexiques *lexicon.Bibliotheque
	variants map[moteurCle]Moteur
}

type moteurCle struct {
	lexique lexicon.Identite
	variant string
}

// NewMoteurs returns the engines for lex (the default) and autres, built on
// first use.
func NewMoteurs(lex *lexicon.Lexicon, autres ...*lexicon.Lexicon) *Moteurs {
	return &Moteurs{lexiques: lexicon.NewBibliotheque(lex, autres...), variants: map[moteurCle]Moteur{}}
}

// Lexique is the default lexicon, the one new games are created with.
func (m *Moteurs) Lexique() *lexicon.Lexicon { return m.lexiques.Defaut() }

// Lexiques is the set of lexicons the engines play with.
func (m *Moteurs) Lexiques() *lexicon.Bibliotheque { return m.lexiques }

// Pour returns the engine of a variant on the default lexicon.
func (m *Moteurs) Pour(v movegen.Variant) Moteur {
	e, _ := m.PourLexique(nil, v)
	return e
}

// PourLexique returns the engine of a variant on the lexicon a game
// recorded (nil: the default, see lexicon.Bibliotheque.Trouver), or
// LEXICON_NOT_LOADED when that lexicon is not loaded.
func (m *Moteurs) PourLexique(id *lexicon.Identite, v movegen.Variant) (Moteur, error) {
	lex, ok := m.lexiques.Trouver(id)
	if !ok {
		return nil, erreur.LexiqueAbsent(*id)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	cle := moteurCle{lexique: lex.Identite(), variant: v.Name}
	if e, ok := m.variants[cle]; ok {
		return e, nil
	}
	e := NewMoteur(lex, v)
	m.variants[cle] = e
	return e, nil
}

// Tops, Verifier and Corriger use the normal formula; a game replaces this
// engine by its variant's on creation.
func (m *Moteurs) Tops(b *board.Board, rack tile.Rack) []movegen.Move {
	return m.Pour(movegen.Standard).Tops(b, rack)
}

func (m *Moteurs) Verifier(b *board.Board, ref board.Ref, word []tile.Tile, rack *tile.Rack) play.Result {
	return m.Pour(movegen.Standard).Verifier(b, ref, word, rack)
}

func (m *Moteurs) Corriger(ctx correction.Context, b *correction.Bulletin) (correction.Decision, error) {
	return m.Pour(movegen.Standard).Corriger(ctx, b)
}
