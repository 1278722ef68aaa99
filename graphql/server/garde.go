package server

import (
	"context"
	"fmt"

	gql "github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/lexer"
	"github.com/vektah/gqlparser/v2/parser"
)

// Codes of the documents the guard refuses: too large (bytes, tokens,
// selections once fragments are expanded, aliases, repeated response
// keys), nested too deep (fragment spreads within spreads), or whose
// fragments spread themselves.
const (
	codeQueryTooLarge    = "QUERY_TOO_LARGE"
	codeValidationFailed = "GRAPHQL_VALIDATION_FAILED"
)

// BornesDocument bound a GraphQL document before gqlgen parses and
// validates it (issue 27): gqlgen and gqlparser spend time and memory
// that grow with the document's expansion, not its size — fragments
// spreading fragments double gqlgen's field collection and its complexity
// walk at each level, and the validation rule of overlapping fields
// compares every pair of selections sharing a response key, with one
// error per pair.
type BornesDocument struct {
	// Octets bounds the document's text.
	Octets int
	// Jetons bounds its lexical tokens.
	Jetons int
	// Selections bounds the fields an operation (or a fragment) selects
	// once every fragment spread is replaced by the fragment's fields.
	Selections int
	// Imbrication bounds the chain of fragment spreads: a spread within a
	// fragment spread within… counts one per fragment.
	Imbrication int
	// Alias bounds the aliased fields of one selection set.
	Alias int
	// Repetitions bounds how often one response key appears in one
	// selection set, the fields of its fragments included.
	Repetitions int
}

// DefaultBornesDocument admit GraphiQL's introspection query (about 150
// selections, fragments two deep) and every query of the pages, the CLI
// and the twinned sites many times over.
var DefaultBornesDocument = BornesDocument{Octets: 64 << 10, Jetons: 10_000, Selections: 2_000, Imbrication: 8, Alias: 100, Repetitions: 20}

// garde refuses, before gqlgen parses and validates it, a document over
// its bounds. It parses the document itself, once, and measures each
// fragment once (memoized): its own work is linear in the document. The
// texts it admitted are kept (admis): its verdict depends on the text and
// the bounds alone, not on the operation's name, its variables or its
// caller, so the same text sent again is admitted without its analysis.
// A refused text is never kept: it is analysed, and refused, every time.
type garde struct {
	b     BornesDocument
	admis *documentsAdmis
}

// nouvelleGarde is the guard of the bounds b.
func nouvelleGarde(b BornesDocument) garde {
	return garde{b: b, admis: nouveauxDocumentsAdmis()}
}

var _ interface {
	gql.HandlerExtension
	gql.OperationParameterMutator
} = garde{}

func (garde) ExtensionName() string               { return "GardeDocument" }
func (garde) Validate(gql.ExecutableSchema) error { return nil }

// MutateOperationParameters measures the request's document, unless the
// same text was admitted before; a document that does not lex or parse
// goes on to gqlgen, which reports its error.
func (g garde) MutateOperationParameters(_ context.Context, p *gql.RawParams) *gqlerror.Error {
	if g.admis.contient(p.Query) {
		return nil
	}
	admis, err := g.verifier(p.Query)
	if admis {
		g.admis.ajouter(p.Query)
	}
	return err
}

// refus is the guard's error.
func refus(code, format string, args ...any) *gqlerror.Error {
	return &gqlerror.Error{Message: fmt.Sprintf(format, args...), Extensions: map[string]any{"code": code}}
}

// verifier measures query against the bounds: a refusal, or whether the
// text is admitted (false for a text that does not parse, which goes on
// to gqlgen, whose refusal of it must not be kept as an admission).
func (g garde) verifier(query string) (admis bool, err *gqlerror.Error) {
	if len(query) > g.b.Octets {
		return false, refus(codeQueryTooLarge, "Requête trop grande : %d octets, au plus %d", len(query), g.b.Octets)
	}
	lex := lexer.New(&ast.Source{Input: query})
	for n := 0; ; n++ {
		tok, err := lex.ReadToken()
		if err != nil || tok.Kind == lexer.EOF {
			break
		}
		if n == g.b.Jetons {
			return false, refus(codeQueryTooLarge, "Requête trop grande : plus de %d éléments (noms, valeurs, ponctuation)", g.b.Jetons)
		}
	}
	doc, perr := parser.ParseQuery(&ast.Source{Input: query})
	if perr != nil {
		return false, nil
	}
	m := mesureur{b: g.b, fragments: map[string]*ast.FragmentDefinition{}, mesures: map[string]*mesure{}}
	for _, f := range doc.Fragments {
		if _, ok := m.fragments[f.Name]; !ok {
			m.fragments[f.Name] = f
		}
	}
	for _, f := range doc.Fragments {
		if _, err := m.fragment(f.Name); err != nil {
			return false, err
		}
	}
	total := 0
	for _, op := range doc.Operations {
		me, err := m.ensemble(op.SelectionSet)
		if err != nil {
			return false, err
		}
		if total += me.selections; total > g.b.Selections {
			return false, m.tropDeSelections()
		}
	}
	return true, nil
}

// mesure is what a selection set selects once its fragments are expanded.
type mesure struct {
	// selections counts the fields, at every level.
	selections int
	// imbrication is the longest chain of fragment spreads within it.
	imbrication int
	// cles counts the response keys of its top level, the fields of its
	// inline fragments and spread fragments included.
	cles map[string]int
	// enCours marks a fragment being measured: met again, it spreads
	// itself.
	enCours bool
}

// mesureur measures a document's selection sets, each fragment once.
type mesureur struct {
	b         BornesDocument
	fragments map[string]*ast.FragmentDefinition
	mesures   map[string]*mesure
}

func (m *mesureur) tropDeSelections() *gqlerror.Error {
	return refus(codeQueryTooLarge, "Requête trop grande : plus de %d champs une fois les fragments développés", m.b.Selections)
}

// fragment is the measure of fragment name; an unknown fragment measures
// nothing (validation refuses it).
func (m *mesureur) fragment(name string) (*mesure, *gqlerror.Error) {
	if me, ok := m.mesures[name]; ok {
		if me.enCours {
			return nil, refus(codeValidationFailed, "Le fragment « %s » se contient lui-même", name)
		}
		return me, nil
	}
	f, ok := m.fragments[name]
	if !ok {
		return &mesure{}, nil
	}
	m.mesures[name] = &mesure{enCours: true}
	me, err := m.ensemble(f.SelectionSet)
	if err != nil {
		return nil, err
	}
	m.mesures[name] = me
	return me, nil
}

// ensemble measures one selection set and checks each of its levels.
func (m *mesureur) ensemble(set ast.SelectionSet) (*mesure, *gqlerror.Error) {
	me := &mesure{cles: map[string]int{}}
	alias := 0
	// ajouter counts the keys of a nested measure, its top level being
	// this one's (an inline fragment's, a spread fragment's).
	ajouter := func(sous *mesure, imbrication int) *gqlerror.Error {
		if me.selections += sous.selections; me.selections > m.b.Selections {
			return m.tropDeSelections()
		}
		me.imbrication = max(me.imbrication, sous.imbrication+imbrication)
		for cle, n := range sous.cles {
			if me.cles[cle] += n; me.cles[cle] > m.b.Repetitions {
				return refus(codeQueryTooLarge, "Requête trop grande : la clé « %s » répétée plus de %d fois au même niveau", tronquer(cle), m.b.Repetitions)
			}
		}
		return nil
	}
	for _, sel := range set {
		var err *gqlerror.Error
		switch s := sel.(type) {
		case *ast.Field:
			if s.Alias != s.Name {
				if alias++; alias > m.b.Alias {
					return nil, refus(codeQueryTooLarge, "Requête trop grande : plus de %d alias dans une même sélection", m.b.Alias)
				}
			}
			var sous *mesure
			if sous, err = m.ensemble(s.SelectionSet); err == nil {
				err = ajouter(&mesure{selections: 1 + sous.selections, imbrication: sous.imbrication, cles: map[string]int{s.Alias: 1}}, 0)
			}
		case *ast.InlineFragment:
			var sous *mesure
			if sous, err = m.ensemble(s.SelectionSet); err == nil {
				err = ajouter(sous, 0)
			}
		case *ast.FragmentSpread:
			var sous *mesure
			if sous, err = m.fragment(s.Name); err == nil {
				err = ajouter(sous, 1)
			}
		}
		if err != nil {
			return nil, err
		}
		if me.imbrication > m.b.Imbrication {
			return nil, refus(codeQueryTooDeep, "Requête trop imbriquée : plus de %d fragments les uns dans les autres", m.b.Imbrication)
		}
	}
	return me, nil
}

// tronquer keeps the first 32 characters of a name an error repeats.
func tronquer(s string) string {
	if r := []rune(s); len(r) > 32 {
		return string(r[:32]) + "…"
	}
	return s
}
