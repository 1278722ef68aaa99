package graphql

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/erreur/francais"
)

// sourcesServeur are the folders whose code can refuse a client's request.
// domain/eventstore is left out: its kinds (eventstore.Error) never reach a
// client as such, the API translates them (CONFLICT, INVALID_INPUT,
// IDEMPOTENCY_KEY_REUSED, INTERNAL).
var sourcesServeur = []string{"../domain", ".", "../engine", "../projections"}

// fichiersGo parses every non-test, non-generated Go file under the
// server's folders.
func fichiersGo(t *testing.T) map[string]*ast.File {
	t.Helper()
	fset := token.NewFileSet()
	out := map[string]*ast.File{}
	for _, racine := range sourcesServeur {
		err := filepath.WalkDir(racine, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if strings.HasSuffix(path, "eventstore") || d.Name() == "generated" || d.Name() == "model" || d.Name() == "testdata" {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			out[path] = f
			return nil
		})
		require.NoError(t, err)
	}
	require.NotEmpty(t, out)
	return out
}

var (
	nomDeCode  = regexp.MustCompile(`^[cC]ode[A-Z]`)
	upperSnake = regexp.MustCompile(`^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$`)
)

// codesDuServeur gathers every code the server can return: each constant
// named Code… or code… with a string value, each "code": "…" of an
// extensions map, each Code: "…" field of a refusal literal.
func codesDuServeur(t *testing.T) map[string]string {
	t.Helper()
	codes := map[string]string{}
	ajouter := func(path string, lit ast.Expr) {
		if b, ok := lit.(*ast.BasicLit); ok && b.Kind == token.STRING {
			v, err := strconv.Unquote(b.Value)
			require.NoError(t, err)
			codes[v] = path
		}
	}
	for path, f := range fichiersGo(t) {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ValueSpec:
				for i, name := range n.Names {
					if nomDeCode.MatchString(name.Name) && i < len(n.Values) {
						ajouter(path, n.Values[i])
					}
				}
			case *ast.KeyValueExpr:
				if k, ok := n.Key.(*ast.BasicLit); ok && k.Value == `"code"` {
					ajouter(path, n.Value)
				}
				if k, ok := n.Key.(*ast.Ident); ok && k.Name == "Code" {
					ajouter(path, n.Value)
				}
			}
			return true
		})
	}
	require.Greater(t, len(codes), 30, "the collector finds the codes")
	return codes
}

// TestCatalogue_ToutCodeEstDocumente fails on a code the server can return
// that the enum CodeErreur or docs/erreurs.md does not list, or that is not
// UPPER_SNAKE.
func TestCatalogue_ToutCodeEstDocumente(t *testing.T) {
	schema, err := os.ReadFile("../schema/erreurs.graphqls")
	require.NoError(t, err)
	doc, err := os.ReadFile("../docs/erreurs.md")
	require.NoError(t, err)
	enum := valeursEnum(t, string(schema), "CodeErreur")
	codes := codesDuServeur(t)
	noms := make([]string, 0, len(codes))
	for c := range codes {
		noms = append(noms, c)
	}
	sort.Strings(noms)
	for _, c := range noms {
		assert.Regexp(t, upperSnake, c, "code of %s", codes[c])
		assert.Contains(t, enum, c, "code %s (%s) missing from enum CodeErreur", c, codes[c])
		assert.Contains(t, string(doc), "`"+c+"`", "code %s (%s) missing from docs/erreurs.md", c, codes[c])
	}
	for c := range enum {
		assert.Contains(t, codes, c, "enum value %s is no code of the server", c)
	}
}

// valeursEnum lists the values of enum name in sdl, each required to have
// a description; a deprecated value (a renamed code's old name, checked by
// TestCodes_EnAnglaisAnciensNomsDeprecies) is not listed.
func valeursEnum(t *testing.T, sdl, name string) map[string]bool {
	t.Helper()
	debut := strings.Index(sdl, "enum "+name+" {")
	require.GreaterOrEqual(t, debut, 0, "enum %s", name)
	corps := sdl[debut+len("enum "+name+" {"):]
	corps = corps[:strings.Index(corps, "}")]
	valeurs := map[string]bool{}
	decrit := false
	for _, ligne := range strings.Split(corps, "\n") {
		ligne = strings.TrimSpace(ligne)
		switch {
		case ligne == "":
		case strings.HasPrefix(ligne, `"`):
			decrit = true
		default:
			require.True(t, decrit, "enum value %s has a description", ligne)
			if !strings.Contains(ligne, "@deprecated") {
				valeurs[ligne] = true
			}
			decrit = false
		}
	}
	return valeurs
}

// constructeurs build a refusal from a message: the index of their
// message (or format) argument.
var constructeurs = map[string]int{"refus": 1, "refusCause": 2, "fail": 1, "erreur.Refus": 1, "erreur.RefusCause": 2,
	"refusal": 1, "refusEntree": 1, "invalide": 1, "writeRefusal": 3, "gqlerror.Errorf": 0}

// TestMessages_SansAnglais fails on a message for people, at any refusal's
// construction, that holds an English word.
func TestMessages_SansAnglais(t *testing.T) {
	vus := 0
	for path, f := range fichiersGo(t) {
		verifier := func(n ast.Node, lit ast.Expr) {
			b, ok := lit.(*ast.BasicLit)
			if !ok || b.Kind != token.STRING {
				return
			}
			msg, err := strconv.Unquote(b.Value)
			require.NoError(t, err)
			vus++
			assert.Empty(t, francais.Anglais(msg), "%s: %q", path, msg)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if i, ok := constructeurs[nomAppele(n)]; ok && i < len(n.Args) {
					verifier(n, n.Args[i])
				}
			case *ast.KeyValueExpr:
				if k, ok := n.Key.(*ast.Ident); ok && k.Name == "Message" {
					if call, ok := n.Value.(*ast.CallExpr); ok && nomAppele(call) == "fmt.Sprintf" && len(call.Args) > 0 {
						verifier(n, call.Args[0])
					} else {
						verifier(n, n.Value)
					}
				}
			}
			return true
		})
	}
	require.Greater(t, vus, 100, "the scan finds the messages")
}

func nomAppele(call *ast.CallExpr) string {
	switch fn := call.Fun.(type) {
	case *ast.Ident:
		return fn.Name
	case *ast.SelectorExpr:
		if x, ok := fn.X.(*ast.Ident); ok {
			return x.Name + "." + fn.Sel.Name
		}
		return fn.Sel.Name
	}
	return ""
}
