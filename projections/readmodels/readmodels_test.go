package readmodels

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// module is the module's path, the prefix of its import paths.
const module = "arbitre"

// source is one parsed file of the module outside tests.
type source struct {
	pkg  string // import path
	nom  string // path relative to the module's root
	file *ast.File
}

// sources parses every Go file of the module but the tests.
func sources(t *testing.T) []source {
	t.Helper()
	racine, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	fset := token.NewFileSet()
	var out []source
	err = filepath.WalkDir(racine, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != racine && (strings.HasPrefix(n, ".") || n == "testdata" || n == "node_modules") {
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
		rel, err := filepath.Rel(racine, path)
		if err != nil {
			return err
		}
		out = append(out, source{pkg: filepath.ToSlash(filepath.Join(module, filepath.Dir(rel))), nom: filepath.ToSlash(rel), file: f})
		return nil
	})
	require.NoError(t, err)
	return out
}

// lectures finds the read models kept in SQLite: the types with a method
// Setup(ctx, tx *sql.Tx) (projection.Projection's, the framework's own fakes aside), by package, and the
// package's functions that return one (their constructors).
func lectures(srcs []source) (modeles, constructeurs map[string][]string) {
	modeles, constructeurs = map[string][]string{}, map[string][]string{}
	for _, s := range srcs {
		for _, d := range s.file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || fn.Name.Name != "Setup" || fn.Type.Params.NumFields() != 2 {
				continue
			}
			tx := fn.Type.Params.List[len(fn.Type.Params.List)-1].Type
			if star, ok := tx.(*ast.StarExpr); !ok || !estSelecteur(star.X, "sql", "Tx") {
				continue
			}
			recv := fn.Recv.List[0].Type
			if star, ok := recv.(*ast.StarExpr); ok {
				recv = star.X
			}
			if id, ok := recv.(*ast.Ident); ok && !strings.HasPrefix(s.pkg, module+"/projections/projection") {
				modeles[s.pkg] = append(modeles[s.pkg], id.Name)
			}
		}
	}
	for _, s := range srcs {
		for _, d := range s.file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !fn.Name.IsExported() || fn.Type.Results == nil {
				continue
			}
			res := fn.Type.Results.List[0].Type
			if star, ok := res.(*ast.StarExpr); ok {
				res = star.X
			}
			if id, ok := res.(*ast.Ident); ok && slices.Contains(modeles[s.pkg], id.Name) {
				constructeurs[s.pkg] = append(constructeurs[s.pkg], fn.Name.Name)
			}
		}
	}
	return modeles, constructeurs
}

func estSelecteur(e ast.Expr, pkg, nom string) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && id.Name == pkg && sel.Sel.Name == nom
}

// utilisations lists, as "file: pkg.Name", the places outside the packages
// allowed where a file names one of interdits (names by import path).
func utilisations(srcs []source, interdits map[string][]string, permis ...string) []string {
	var out []string
	for _, s := range srcs {
		if slices.Contains(permis, s.pkg) {
			continue
		}
		alias := map[string]string{}
		for _, imp := range s.file.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if _, ok := interdits[path]; !ok {
				continue
			}
			nom := path[strings.LastIndex(path, "/")+1:]
			if imp.Name != nil {
				nom = imp.Name.Name
			}
			alias[nom] = path
		}
		if len(alias) == 0 {
			continue
		}
		ast.Inspect(s.file, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			id, ok := sel.X.(*ast.Ident)
			if !ok {
				return true
			}
			if path, ok := alias[id.Name]; ok && slices.Contains(interdits[path], sel.Sel.Name) {
				out = append(out, s.nom+": "+id.Name+"."+sel.Sel.Name)
			}
			return true
		})
	}
	return out
}

// TestLectures_ConstruitesIciSeulement: a read model kept in SQLite is
// built, and its runner made, in one place, this package's list, with the
// one constructor shape (projection.Constructeur): outside their own
// package, no code but the tests calls a read model's constructor, names
// its type or makes a runner of one.
func TestLectures_ConstruitesIciSeulement(t *testing.T) {
	_, err := os.Stat(filepath.Join("..", "..", "go.mod"))
	require.NoError(t, err, "the module's root is two levels up")
	srcs := sources(t)
	modeles, constructeurs := lectures(srcs)
	require.Len(t, modeles, 4, "the read models were found: %v", modeles)
	interdits := map[string][]string{module + "/projections/projection": {"NewRunner", "NewRunners"}}
	for pkg, noms := range modeles {
		require.NotEmpty(t, constructeurs[pkg], "%s has a constructor", pkg)
		interdits[pkg] = append(slices.Clone(noms), constructeurs[pkg]...)
	}
	assert.Empty(t, utilisations(srcs, interdits, module+"/projections/readmodels", module+"/projections/projection"),
		"read models built outside projections/readmodels")
	for _, s := range srcs {
		for _, d := range s.file.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && slices.Contains(constructeurs[s.pkg], fn.Name.Name) {
				assert.True(t, formeUnique(fn.Type), "%s.%s: a read model's constructor is func(projection.Journal) (*T, error)", s.pkg, fn.Name.Name)
			}
		}
	}
}

// formeUnique tells whether f is func(projection.Journal) (T, error).
func formeUnique(f *ast.FuncType) bool {
	return f.Params.NumFields() == 1 && estSelecteur(f.Params.List[0].Type, "projection", "Journal") &&
		f.Results.NumFields() == 2 && types.ExprString(f.Results.List[len(f.Results.List)-1].Type) == "error"
}

// TestLectures_LuesParLeurTypeDeLecture: a read model kept in SQLite is
// read the one way, through its package's read type built on its runner
// (NewLecteur…(run *projection.Runner)): no function of a read model's
// package reads a database it is handed, and no type of it holds one a
// caller sets.
func TestLectures_LuesParLeurTypeDeLecture(t *testing.T) {
	srcs := sources(t)
	modeles, _ := lectures(srcs)
	require.Len(t, modeles, 4)
	lecteurs := map[string]int{}
	var hors []string
	for _, s := range srcs {
		if _, ok := modeles[s.pkg]; !ok {
			continue
		}
		for _, d := range s.file.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv != nil || !d.Name.IsExported() {
					continue
				}
				for _, p := range d.Type.Params.List {
					if star, ok := p.Type.(*ast.StarExpr); ok && estSelecteur(star.X, "sql", "DB") {
						hors = append(hors, s.nom+": "+d.Name.Name)
					}
					if star, ok := p.Type.(*ast.StarExpr); ok && estSelecteur(star.X, "projection", "Runner") && strings.HasPrefix(d.Name.Name, "NewLecteur") {
						lecteurs[s.pkg]++
					}
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					ts, ok := spec.(*ast.TypeSpec)
					if !ok {
						continue
					}
					st, ok := ts.Type.(*ast.StructType)
					if !ok {
						continue
					}
					for _, f := range st.Fields.List {
						star, ok := f.Type.(*ast.StarExpr)
						if !ok || !estSelecteur(star.X, "sql", "DB") {
							continue
						}
						for _, n := range f.Names {
							if n.IsExported() {
								hors = append(hors, s.nom+": "+ts.Name.Name+"."+n.Name)
							}
						}
					}
				}
			}
		}
	}
	assert.Empty(t, hors, "reads of a read model outside its read type")
	for pkg, types := range modeles {
		assert.Equal(t, len(types), lecteurs[pkg], "%s: one read type per read model, built on its runner", pkg)
	}
}
