package eventstore_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The words of the event store's exported names. The machinery speaks
// English; the federation's words keep their French (the kinds of stream
// are aggregates of the domain). A new word goes in one list or the other:
// a French word for a technical thing has an English name instead.
var (
	motsAnglais = strings.Fields(`Accelerate Actor Advance After Aggregate All Already Anchor Anchors Any Append Applied Apply
		Argument At Author Backoff Batch Batches Bound Bounds Capabilities Catch Causation Chain Chained
		Check Clock Close Closed Code Command Conflict Correlation Corrupt Count Create Current Data
		Decode Default Detail Dir Duplicate Each Elapsed Epoch Err Error Event Events Exact Exists Expected
		Factory Family File For Foreign From Func Future Gapless Gapped Guard Guarded Handler Hash ID
		Identity In Instant Intern Interval Invalid Is Jump Key Keys Kind Last Limit Link Load Main
		Malformed Manual Mark Max Message Metadata Monotonic Name New No Now Of OK Open Options Order
		Origin Outcome Page Parse Part Path Payload Pending Poll Position Positions Private Problem
		Problems Progress Ranges Read Reader Readers Reading Record Recorded Register Registry Replay
		Report Repository Request Result Reused Revision Role Run Rupture Save Saved Schema Seal Sealed
		Section Sections Set Since Size Source Step Store Stream Streams String Subscribe Supported System
		Table Tampered Timeout To Traces Type Types Unavailable Unknown Unwrap Up Upcast Upcaster Validate Verify
		Version Wall Whole With`)
	motsDuDomaine = strings.Fields(`Acces Appel Archive Classique Epreuve Federation Jumelage Match Partie Tournoi`)
)

// motsDe splits a Go name into its words: "ReadAllUpTo" → Read All Up To,
// "CausationID" → Causation ID.
func motsDe(nom string) []string {
	r := []rune(nom)
	var mots []string
	debut := 0
	for i := 1; i < len(r); i++ {
		finAcronyme := unicode.IsUpper(r[i-1]) && i+1 < len(r) && unicode.IsLower(r[i+1])
		if unicode.IsUpper(r[i]) && (!unicode.IsUpper(r[i-1]) || finAcronyme) {
			mots = append(mots, string(r[debut:i]))
			debut = i
		}
	}
	return append(mots, string(r[debut:]))
}

// nomsExportes lists the exported names declared by the non-test files
// under dir (types, functions, methods, constants, variables, fields and
// interface methods), each with where it is declared.
func nomsExportes(t *testing.T, dir string) map[string]string {
	noms := map[string]string{}
	fset := token.NewFileSet()
	parametres := map[*ast.Ident]bool{} // a generic type's type parameters
	err := filepath.WalkDir(dir, func(chemin string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(chemin, ".go") || strings.HasSuffix(chemin, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, chemin, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			var ids []*ast.Ident
			switch n := n.(type) {
			case *ast.FuncDecl:
				ids = []*ast.Ident{n.Name}
			case *ast.TypeSpec:
				ids = []*ast.Ident{n.Name}
				if n.TypeParams != nil {
					for _, p := range n.TypeParams.List {
						for _, id := range p.Names {
							parametres[id] = true
						}
					}
				}
			case *ast.ValueSpec:
				ids = n.Names
			case *ast.Field:
				ids = n.Names
			case *ast.BlockStmt, *ast.FuncType:
				return false // parameters and names local to a function are not exported
			}
			for _, id := range ids {
				if id.IsExported() && !parametres[id] {
					noms[id.Name] = fset.Position(id.Pos()).String()
				}
			}
			return true
		})
		return nil
	})
	require.NoError(t, err)
	return noms
}

// TestLangue_NomsExportesDuMagasinEnAnglais: the event store's exported
// names are English but for the federation's words (issue 33, item 4:
// Agregat, Cles, EnOrdre, SousFlux, Sceau... were French).
func TestLangue_NomsExportesDuMagasinEnAnglais(t *testing.T) {
	permis := map[string]bool{}
	for _, m := range append(motsAnglais, motsDuDomaine...) {
		permis[m] = true
	}
	_, ici, _, _ := runtime.Caller(0)
	noms := nomsExportes(t, filepath.Dir(ici))
	require.Contains(t, noms, "Repository")
	for nom, ou := range noms {
		for _, mot := range motsDe(nom) {
			assert.True(t, permis[mot], "%s (%s): the word %q is in neither list of names_test.go", nom, ou, mot)
		}
	}
}

func TestLangue_MotsDe(t *testing.T) {
	for nom, mots := range map[string][]string{
		"ReadAllUpTo":  {"Read", "All", "Up", "To"},
		"CausationID":  {"Causation", "ID"},
		"IDEvenement":  {"ID", "Evenement"},
		"OK":           {"OK"},
		"SealName":     {"Seal", "Name"},
		"Agregat":      {"Agregat"},
		"NewChainLink": {"New", "Chain", "Link"},
	} {
		assert.Equal(t, mots, motsDe(nom), nom)
	}
}
