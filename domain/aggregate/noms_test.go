package aggregate_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// agregats lists the aggregates of the domain: the types whose non-test
// files under dir declare the transition Apply(any) error, each with the
// directories declaring one of that name.
func agregats(t *testing.T, dir string) map[string][]string {
	t.Helper()
	trouves := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(dir, func(chemin string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(chemin, ".go") || strings.HasSuffix(chemin, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, chemin, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || fn.Name.Name != "Apply" || len(fn.Type.Params.List) != 1 {
				continue
			}
			recv := fn.Recv.List[0].Type
			if s, ok := recv.(*ast.StarExpr); ok {
				recv = s.X
			}
			if id, ok := recv.(*ast.Ident); ok {
				rel, _ := filepath.Rel(dir, filepath.Dir(chemin))
				trouves[id.Name] = append(trouves[id.Name], rel)
			}
		}
		return nil
	})
	require.NoError(t, err)
	return trouves
}

// TestUnNomParChose_UnAgregatParNom: no two aggregates of the domain share a
// type name (issue 33 item 4: duplicate's tournament and classique's were
// both Tournoi, duplicate's game and classique's match both Partie).
func TestUnNomParChose_UnAgregatParNom(t *testing.T) {
	_, ici, _, _ := runtime.Caller(0)
	trouves := agregats(t, filepath.Join(filepath.Dir(ici), ".."))
	require.Contains(t, trouves, "Appel", "the walk finds the aggregates")
	for nom, dirs := range trouves {
		assert.Len(t, dirs, 1, "aggregate %s is declared in %v", nom, dirs)
	}
}
