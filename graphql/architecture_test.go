package graphql

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// composition are the files of the package that make the use cases and
// queries out of the repositories and the log (docs/architecture.md).
var composition = map[string]bool{"resolver.go": true, "applications.go": true}

// depotsEtJournal are the Resolver's fields that are repositories or the
// log: only the composition files use them.
var depotsEtJournal = map[string]bool{"Parties": true, "TournoiDepot": true, "Classiques": true, "Matchs": true,
	"Epreuves": true, "Jumelages": true, "Appels": true, "Journal": true}

// lecturesDuJournal are the event store's functions that read a stream.
var lecturesDuJournal = map[string]bool{"ReadFamily": true, "ReadWholeStream": true, "ReadStreamFrom": true}

// TestArchitecture_ResolveursLisentParLesQueries (issue 33 item 2,
// « resolvers only translate »): outside the composition files, no
// resolver calls a repository or the log itself (r.Parties.Charger,
// r.Journal.ReadStream, eventstore.ReadFamily) nor imports an adapters
// package or the repositories: it reads through r.Queries, the questions of
// each context (domain/<x>/query), and acts through the use cases. A read
// model's own read API (projections/...) is read as it is.
func TestArchitecture_ResolveursLisentParLesQueries(t *testing.T) {
	fichiers, err := filepath.Glob("*.go")
	require.NoError(t, err)
	lus := 0
	for _, chemin := range fichiers {
		if strings.HasSuffix(chemin, "_test.go") || composition[chemin] {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), chemin, nil, parser.SkipObjectResolution)
		require.NoError(t, err)
		lus++
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			assert.False(t, strings.HasSuffix(p, "/adapters") || p == "arbitre/domain/eventstore/repository",
				"%s imports %s: a resolver reads through r.Queries", chemin, p)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == "eventstore" && lecturesDuJournal[sel.Sel.Name] {
				assert.Fail(t, "a resolver reads the log", "%s calls eventstore.%s: ask r.Queries", chemin, sel.Sel.Name)
			}
			// r.<repository or log>.<method>: a call on a repository or
			// the log (passing one to a read model's function is that read
			// model's API).
			if champ, ok := sel.X.(*ast.SelectorExpr); ok && depotsEtJournal[champ.Sel.Name] {
				if id, ok := champ.X.(*ast.Ident); ok && id.Name == "r" {
					assert.Fail(t, "a resolver calls a repository or the log", "%s calls r.%s.%s: ask r.Queries", chemin, champ.Sel.Name, sel.Sel.Name)
				}
			}
			return true
		})
	}
	assert.Greater(t, lus, 20, "the resolvers' files are read")
}

// TestArchitecture_UneFormeDeQuestionsParContexte (issue 33 item 2, « one
// query shape per context »): every context the API and the command line
// read has its questions in domain/<x>/query, as a type Queries with one
// method per question, each taking the context and at most one parameter
// (a struct naming the others), mirroring the use cases of
// domain/<x>/command.
func TestArchitecture_UneFormeDeQuestionsParContexte(t *testing.T) {
	for _, contexte := range []string{"duplicate", "tournoi", "classique", "federation", "appel"} {
		t.Run(contexte, func(t *testing.T) {
			dir := filepath.Join("..", "domain", contexte, "query")
			entrees, err := os.ReadDir(dir)
			require.NoError(t, err, "domain/%s/query holds the context's questions", contexte)
			queries, questions := false, 0
			for _, e := range entrees {
				if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
					continue
				}
				f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, e.Name()), nil, parser.SkipObjectResolution)
				require.NoError(t, err)
				for _, decl := range f.Decls {
					switch d := decl.(type) {
					case *ast.GenDecl:
						for _, s := range d.Specs {
							if ts, ok := s.(*ast.TypeSpec); ok && ts.Name.Name == "Queries" {
								queries = true
							}
						}
					case *ast.FuncDecl:
						if d.Recv == nil || !d.Name.IsExported() || nomRecepteur(d.Recv.List[0].Type) != "Queries" {
							continue
						}
						questions++
						n := 0
						for _, p := range d.Type.Params.List {
							n += max(len(p.Names), 1)
						}
						assert.LessOrEqual(t, n, 2, "domain/%s/query: Queries.%s takes the context and one parameter (a struct when it needs more)", contexte, d.Name.Name)
					}
				}
			}
			assert.True(t, queries, "domain/%s/query declares Queries", contexte)
			assert.Positive(t, questions, "domain/%s/query: Queries answers questions", contexte)
		})
	}
}

// nomRecepteur is the name of a method's receiver type (T or *T).
func nomRecepteur(e ast.Expr) string {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// casDUsage are the types of a command package whose methods are use
// cases.
var casDUsage = map[string]bool{"Application": true, "Twinning": true}

// TestArchitecture_QuiAgitDonneALaConstruction (issue 33 item 2): who acts
// is given to every context's use cases one way, when they are made
// (New(..., md)) or changed (Par(md)), never beside a command: no exported
// method of the use cases of a domain/<x>/command package (Application,
// and the twinnings' Twinning) but Par takes an eventstore.Metadata.
func TestArchitecture_QuiAgitDonneALaConstruction(t *testing.T) {
	paquets, err := filepath.Glob(filepath.Join("..", "domain", "*", "command"))
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(paquets), 5)
	for _, dir := range paquets {
		fichiers, err := filepath.Glob(filepath.Join(dir, "*.go"))
		require.NoError(t, err)
		for _, chemin := range fichiers {
			if strings.HasSuffix(chemin, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), chemin, nil, parser.SkipObjectResolution)
			require.NoError(t, err)
			for _, decl := range f.Decls {
				d, ok := decl.(*ast.FuncDecl)
				if !ok || d.Recv == nil || !d.Name.IsExported() || d.Name.Name == "Par" || !casDUsage[nomRecepteur(d.Recv.List[0].Type)] {
					continue
				}
				for _, p := range d.Type.Params.List {
					if s, ok := p.Type.(*ast.SelectorExpr); ok && s.Sel.Name == "Metadata" {
						assert.Fail(t, "who acts beside the command", "%s: %s.%s takes who acts beside the command", chemin, nomRecepteur(d.Recv.List[0].Type), d.Name.Name)
					}
				}
			}
		}
	}
}
