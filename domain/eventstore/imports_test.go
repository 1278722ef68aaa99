package eventstore_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// importsDuModule lists, for each package directory of the module, the
// module's packages its non-test files import ("domain/erreur" →
// ["engine/lexicon"]).
func importsDuModule(t *testing.T) map[string][]string {
	_, ici, _, _ := runtime.Caller(0)
	racine := filepath.Join(filepath.Dir(ici), "..", "..")
	imports := map[string][]string{}
	err := filepath.WalkDir(racine, func(chemin string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(chemin, ".go") || strings.HasSuffix(chemin, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), chemin, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(racine, filepath.Dir(chemin))
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if dep, ok := strings.CutPrefix(p, "arbitre/"); ok {
				imports[filepath.ToSlash(rel)] = append(imports[filepath.ToSlash(rel)], dep)
			}
		}
		return nil
	})
	require.NoError(t, err)
	return imports
}

// TestArchitecture_ImportsDansUnSeulSens: the layers import downwards only
// (docs/architecture.md): the engine nothing of the domain, the domain
// nothing of the projections, the API or the commands, the errors of the
// domain nothing at all, the projections no event store backend (they read
// the contract, the composition root picks the backend).
func TestArchitecture_ImportsDansUnSeulSens(t *testing.T) {
	regles := []struct {
		paquets  string
		interdit []string
	}{
		{"engine/", []string{"domain/", "projections/", "graphql", "cmd/"}},
		{"domain/", []string{"projections/", "graphql", "cmd/"}},
		{"domain/erreur", []string{""}},
		{"projections/", []string{"domain/eventstore/sqlitestore", "domain/eventstore/esdbstore", "graphql", "cmd/"}},
	}
	imports := importsDuModule(t)
	require.NotEmpty(t, imports["domain/eventstore/sqlitestore"])
	for _, r := range regles {
		for paquet, deps := range imports {
			if !strings.HasPrefix(paquet, r.paquets) {
				continue
			}
			for _, dep := range deps {
				for _, interdit := range r.interdit {
					assert.False(t, strings.HasPrefix(dep, interdit), "%s imports arbitre/%s", paquet, dep)
				}
			}
		}
	}
}

// TestArchitecture_AdaptateursSansCasDUsage: the adapters sit below the use
// cases (docs/architecture.md): a domain/<x>/adapters package implements the
// ports the use cases declare and imports no application package
// (domain/<x>/command and what lives under it, the process managers
// included).
func TestArchitecture_AdaptateursSansCasDUsage(t *testing.T) {
	imports := importsDuModule(t)
	adaptateurs := 0
	for paquet, deps := range imports {
		if !strings.HasSuffix(paquet, "/adapters") {
			continue
		}
		adaptateurs++
		for _, dep := range deps {
			assert.NotContains(t, "/"+dep+"/", "/command/", "%s imports arbitre/%s", paquet, dep)
		}
	}
	assert.GreaterOrEqual(t, adaptateurs, 5)
}
