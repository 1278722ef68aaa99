package server

import (
	"io/fs"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
	"github.com/vektah/gqlparser/v2/validator/rules"

	"arbitre/graphql/generated"
	"arbitre/graphql/server/web"
)

// TestPages_DocumentsGraphQLValidesContreLeSchema (issue 33 item 7): every
// GraphQL document the pages send is parsed and validated against the
// schema here, so a field renamed in the schema fails the build, not a hall.
// A document is a template literal of the pages' JavaScript starting with
// query, mutation or subscription; its ${…} parts are the pages' constants
// (a module's own, or one it imports: a constant `const NAME = …` or a
// class's `Name.FIELD = …`). The two documents a console builds per
// mutation (agir in directeur-partie.js and td.js) are expanded at each of
// their calls: the mutation's name and its arguments' types are read from
// the call.
func TestPages_DocumentsGraphQLValidesContreLeSchema(t *testing.T) {
	schema := generated.NewExecutableSchema(generated.Config{}).Schema()
	sources := map[string]string{}
	noms, err := fs.Glob(web.Files, "*.js")
	require.NoError(t, err)
	for _, nom := range noms {
		b, err := web.Files.ReadFile(nom)
		require.NoError(t, err)
		sources[nom] = string(b)
	}
	constantes := map[string]map[string]string{} // each module's NAME and Name.FIELD = "…"
	for nom, src := range sources {
		constantes[nom] = map[string]string{}
		for _, re := range []*regexp.Regexp{reConstante, reChampDeClasse} {
			for _, m := range re.FindAllStringSubmatch(src, -1) {
				constantes[nom][m[1]] = litteral(m[2])
			}
		}
	}

	valides := 0
	for _, nom := range noms {
		src := sources[nom]
		importes := map[string]importJS{}
		for _, i := range importsDe(src) {
			importes[i.local] = i
		}
		resoudre := func(expr string) (string, bool) {
			if v, ok := constantes[nom][expr]; ok {
				return v, true
			}
			tete, champ, avecChamp := strings.Cut(expr, ".")
			i, ok := importes[tete]
			if !ok {
				return "", false
			}
			if avecChamp {
				v, ok := constantes[i.fichier][i.exporte+"."+champ]
				return v, ok
			}
			v, ok := constantes[i.fichier][i.exporte]
			return v, ok
		}
		for _, lit := range gabarits(src) {
			corps := strings.TrimSpace(lit.texte)
			if !reOperation.MatchString(corps) {
				continue
			}
			ou := nom + ":" + lit.ligne
			doc, dynamiques := developper(corps, resoudre, nil)
			if len(dynamiques) == 0 {
				valider(t, schema, ou, doc, false)
				valides++
				continue
			}
			fonction := fonctionEnglobante(src, lit.debut)
			appels := appelsDe(src, fonction)
			require.NotEmpty(t, appels, "%s: a document built at run time (%v) in %s, which is never called with a mutation's name", ou, dynamiques, fonction)
			for _, a := range appels {
				doc, reste := developper(corps, resoudre, a.expansions())
				require.Empty(t, reste, "%s: %v cannot be expanded: say in this test how %s builds it", ou, reste, fonction)
				valider(t, schema, ou+" "+a.champ, doc, a.argumentsDUneVariable)
				valides++
			}
		}
	}
	assert.GreaterOrEqual(t, valides, 60, "the pages send at least this many documents (%d found)", valides)
}

var (
	reOperation = regexp.MustCompile(`^(query|mutation|subscription)\b`)
	// reConstante is a page's `const NAME = "…"` or `const NAME = `…``.
	reConstante = regexp.MustCompile("(?m)\\bconst ([A-Z][A-Z_0-9]*) = (\"[^\"]*\"|`[^`]*`)")
	// reChampDeClasse is a class's `Name.FIELD = "…"` (Chrono.CHAMPS).
	reChampDeClasse = regexp.MustCompile("(?m)^\\s*([A-Z]\\w*\\.[A-Z][A-Z_0-9]*) = (\"[^\"]*\"|`[^`]*`)")
	// reInterpolation is a ${…} of a template literal.
	reInterpolation = regexp.MustCompile(`\$\{([^{}]*)\}`)
)

// litteral is a string or template literal's text without its quotes.
func litteral(s string) string { return s[1 : len(s)-1] }

// gabarit is a template literal: its text, its offset and line in the file.
type gabarit struct {
	texte string
	debut int
	ligne string
}

// gabarits lists a file's template literals, skipping strings and comments
// so that a quote or a backtick inside them is not taken for one.
func gabarits(src string) []gabarit {
	var out []gabarit
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			i += strings.Index(src[i:], "*/") + 1
		case c == '"' || c == '\'':
			for i++; i < len(src) && src[i] != c; i++ {
				if src[i] == '\\' {
					i++
				}
			}
		case c == '`':
			fin := i + 1
			for fin < len(src) && src[fin] != '`' {
				if src[fin] == '\\' {
					fin++
				}
				fin++
			}
			out = append(out, gabarit{texte: src[i+1 : fin], debut: i, ligne: itoa(strings.Count(src[:i], "\n") + 1)})
			i = fin
		}
	}
	return out
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		if n /= 10; n == 0 {
			return string(b[i:])
		}
	}
}

// developper replaces the ${…} of a document by the pages' constants, then
// by the call's expansions; what is left is returned by its expression.
func developper(doc string, resoudre func(string) (string, bool), expansions map[string]string) (string, []string) {
	var reste []string
	for profondeur := 0; profondeur < 5; profondeur++ {
		doc = reInterpolation.ReplaceAllStringFunc(doc, func(m string) string {
			expr := strings.TrimSpace(m[2 : len(m)-1])
			if v, ok := resoudre(expr); ok {
				return v
			}
			if v, ok := expansions[expr]; ok {
				return v
			}
			return m
		})
	}
	for _, m := range reInterpolation.FindAllStringSubmatch(doc, -1) {
		reste = append(reste, strings.TrimSpace(m[1]))
	}
	return doc, reste
}

// fonctionEnglobante is the name of the last `function NAME(` before pos.
func fonctionEnglobante(src string, pos int) string {
	m := reFonction.FindAllStringSubmatch(src[:pos], -1)
	if len(m) == 0 {
		return ""
	}
	return m[len(m)-1][1]
}

var reFonction = regexp.MustCompile(`function ([A-Za-z_]\w*)\(`)

// appel is one call of a console's mutation builder: agir("tirer", {…}, …).
type appel struct {
	champ string
	// arguments are the mutation's arguments and their GraphQL types, in
	// the order the call gives them.
	arguments [][2]string
	// argumentsDUneVariable: the call passes a variable built above it; the
	// test takes every argument the file ever puts in it, so an argument
	// another call adds does not make this one's document unknown.
	argumentsDUneVariable bool
}

// expansions are the values of the builders' ${…}: the mutation's name,
// its variables' declarations and its arguments (", $k: T" and ", k: $k"
// in both consoles).
func (a appel) expansions() map[string]string {
	var decl, passe strings.Builder
	for _, kv := range a.arguments {
		decl.WriteString(", $" + kv[0] + ": " + kv[1])
		passe.WriteString(", " + kv[0] + ": $" + kv[0])
	}
	return map[string]string{
		"champ":                     a.champ,
		"decl":                      decl.String(),
		"appel":                     passe.String(),
		`decl ? ", " + decl : ""`:   decl.String(),
		`passe ? ", " + passe : ""`: passe.String(),
	}
}

var (
	// reArgumentTableau is directeur-partie.js's `k: [value, "Type"]`.
	reArgumentTableau = regexp.MustCompile(`(\w+): \[[^\[\]]*?,\s*"([^"]+)"\]`)
	// reArgumentType is td.js's `k: "Type"`.
	reArgumentType = regexp.MustCompile(`(\w+): "([^"]+)"`)
)

// appelsDe lists the calls of fonction whose first argument is a string
// literal (the mutation's name), with the arguments of the second.
func appelsDe(src, fonction string) []appel {
	if fonction == "" {
		return nil
	}
	re := regexp.MustCompile(`\b` + fonction + `\("(\w+)",\s*`)
	var out []appel
	for _, m := range re.FindAllStringSubmatchIndex(src, -1) {
		a := appel{champ: src[m[2]:m[3]]}
		second := argument(src[m[1]:])
		if id := strings.TrimSpace(second); regexp.MustCompile(`^\w+$`).MatchString(id) {
			a.argumentsDUneVariable = true
			defs := regexp.MustCompile(`\b(?:const|let) `+id+` = (\{[^}]*\})`).FindAllStringSubmatch(src, -1)
			for _, d := range defs {
				second = d[1]
			}
			for _, aj := range regexp.MustCompile(`\b`+id+`\.(\w+) = "([^"]+)"`).FindAllStringSubmatch(src, -1) {
				second += ", " + aj[1] + `: "` + aj[2] + `"`
			}
		}
		vus := map[string]bool{}
		for _, re := range []*regexp.Regexp{reArgumentTableau, reArgumentType} {
			for _, kv := range re.FindAllStringSubmatch(second, -1) {
				if !vus[kv[1]] {
					vus[kv[1]] = true
					a.arguments = append(a.arguments, [2]string{kv[1], kv[2]})
				}
			}
		}
		sort.Slice(a.arguments, func(i, j int) bool { return a.arguments[i][0] < a.arguments[j][0] })
		out = append(out, a)
	}
	return out
}

// argument is the text of a call's argument starting src, up to the comma
// or parenthesis that ends it at its own depth.
func argument(src string) string {
	profondeur := 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '(', '[', '{':
			profondeur++
		case ')', ']', '}':
			if profondeur == 0 {
				return src[:i]
			}
			profondeur--
		case ',':
			if profondeur == 0 {
				return src[:i]
			}
		case '"', '\'', '`':
			q := src[i]
			for i++; i < len(src) && src[i] != q; i++ {
				if src[i] == '\\' {
					i++
				}
			}
		}
	}
	return src
}

// valider parses and validates doc against the schema; with
// argumentsDUneVariable, an argument the field does not take is allowed
// (the call's variable may hold another call's), nothing else.
func valider(t *testing.T, schema *ast.Schema, ou, doc string, argumentsDUneVariable bool) {
	t.Helper()
	q, err := parser.ParseQuery(&ast.Source{Name: ou, Input: doc})
	if !assert.Nil(t, err, "%s: %s", ou, doc) {
		return
	}
	regles := rules.NewDefaultRules()
	if argumentsDUneVariable {
		regles.RemoveRule("KnownArgumentNames")
	}
	errs := validator.ValidateWithRules(schema, q, regles)
	assert.Empty(t, errs, "%s: %s", ou, doc)
}
