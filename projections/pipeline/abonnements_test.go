package pipeline_test

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

// Issue 33 item 6: every read model follows the log through one pipeline
// (projection.Runner, SQL or in memory): outside the event store's own
// packages, the only subscription to a store (Subscribe(ctx, from,
// handler)) in the module's production code is the pipeline's feed. The
// access registry and the live hub subscribed on their own before.
func TestLectures_SeulLePipelineSAbonneAuMagasin(t *testing.T) {
	_, ici, _, _ := runtime.Caller(0)
	racine := filepath.Join(filepath.Dir(ici), "..", "..")
	var abonnes []string
	err := filepath.WalkDir(racine, func(chemin string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(chemin, ".go") || strings.HasSuffix(chemin, "_test.go") {
			return err
		}
		rel, err := filepath.Rel(racine, chemin)
		if err != nil || strings.HasPrefix(filepath.ToSlash(rel), "domain/eventstore/") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), chemin, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Subscribe" && len(call.Args) == 3 {
					abonnes = append(abonnes, filepath.ToSlash(rel))
				}
			}
			return true
		})
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, []string{"projections/feed/feed.go"}, abonnes)
}
