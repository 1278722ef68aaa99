package server

import (
	"fmt"
	"strings"
	"testing"

	gql "github.com/99designs/gqlgen/graphql"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

// bornesEssai are small bounds, for documents a test can write.
var bornesEssai = BornesDocument{Octets: 2000, Jetons: 300, Selections: 30, Imbrication: 3, Alias: 4, Repetitions: 3}

// Issue 27: each bound of the guard refuses the document one over it, with
// its code, and admits the one at it.
func TestSecurite_GardeDocument(t *testing.T) {
	champs := func(n int, f string) string {
		return "{" + strings.Repeat(f+" ", n) + "}"
	}
	liste := func(n int) string { // 9 tokens and n
		return "{x(a: [" + strings.Repeat("1 ", n) + "])}"
	}
	aliases := func(n int) string {
		var b strings.Builder
		b.WriteString("{")
		for i := range n {
			fmt.Fprintf(&b, "a%d: x ", i)
		}
		return b.String() + "}"
	}
	for _, tc := range []struct {
		nom, doc, code string
	}{
		{"bytes at the bound", `{x}` + strings.Repeat(" ", 1997), ""},
		{"bytes over", `{x}` + strings.Repeat(" ", 1998), codeQueryTooLarge},
		{"tokens at the bound", liste(291), ""},
		{"tokens over", liste(292), codeQueryTooLarge},
		{"selections expanded at the bound", `{x{...A} y{...A} z{...A}} fragment A on T {a b c d e f g h i}`, ""},
		{"selections expanded over", `{x{...A} y{...A} z{...A} w{...A}} fragment A on T {a b c d e f g h i}`, codeQueryTooLarge},
		{"selections of an unused fragment over", `{x} fragment A on T {a{...B} b{...B} c{...B} d{...B}} fragment B on T {a b c d e f g}`, codeQueryTooLarge},
		{"selections summed over operations", `query P {x{...A} y{...A}} query Q {x{...A} y{...A}} fragment A on T {a b c d e f g h i}`, codeQueryTooLarge},
		{"nesting at the bound", `{...A} fragment A on T {...B} fragment B on T {...C} fragment C on T {x}`, ""},
		{"nesting over", `{...A} fragment A on T {...B} fragment B on T {...C} fragment C on T {...D} fragment D on T {x}`, codeQueryTooDeep},
		{"nesting through fields", `{...A} fragment A on T {x{...B}} fragment B on T {y{...C}} fragment C on T {z{...D}} fragment D on T {x}`, codeQueryTooDeep},
		{"aliases at the bound", aliases(4), ""},
		{"aliases over", aliases(5), codeQueryTooLarge},
		{"aliases in one selection, not over several", `{a: x{b: y c: y d: y e: y} f: x{b: y c: y d: y e: y}}`, ""},
		{"a key repeated at the bound", champs(3, "x"), ""},
		{"a key repeated over", champs(4, "x"), codeQueryTooLarge},
		{"a key repeated through fragments", `{x ...A ... on T {x}} fragment A on T {x x}`, codeQueryTooLarge},
		{"a key repeated by spreading a fragment twice", `{...A ...A} fragment A on T {x x}`, codeQueryTooLarge},
		{"keys repeated at different levels", `{x{x x x} y{x x x} z{x x x}}`, ""},
		{"a fragment spreading itself", `{...A} fragment A on T {x ...B} fragment B on T {...A}`, codeValidationFailed},
		{"an unknown fragment (left to validation)", `{...A}`, ""},
		{"not GraphQL (left to the parser)", `{x`, ""},
	} {
		t.Run(tc.nom, func(t *testing.T) {
			_, err := garde{b: bornesEssai}.verifier(tc.doc)
			if tc.code == "" {
				assert.Nil(t, err)
				return
			}
			require.NotNil(t, err)
			assert.Equal(t, tc.code, err.Extensions["code"], err.Message)
			assert.NotContains(t, err.Message, "exceed")
		})
	}
}

// Issue 27 item 1: gqlgen v0.17.85 collected a spread's fields with their
// selections twice, doubling them at each fragment (13 levels: serveur
// selected 8,192 times); v0.17.98 collects them once. The guard stays in
// front of gqlgen all the same.
func TestSecurite_CollecteDesFragmentsSansDoublement(t *testing.T) {
	var b strings.Builder
	b.WriteString("{...F0}")
	for i := range 12 {
		fmt.Fprintf(&b, " fragment F%d on Query{...F%d}", i, i+1)
	}
	b.WriteString(" fragment F12 on Query{serveur{version}}")
	doc, err := parser.ParseQuery(&ast.Source{Input: b.String()})
	require.NoError(t, err)
	oc := &gql.OperationContext{Doc: doc, Operation: doc.Operations[0]}
	champs := gql.CollectFields(oc, oc.Operation.SelectionSet, []string{"Query"})
	require.Len(t, champs, 1)
	assert.Len(t, champs[0].Selections, 1)
}

// FuzzGardeDocument builds documents from fragments, spreads, aliases and
// nested fields, and checks the guard against a plain expansion of each
// operation: whatever it accepts expands within the bounds, and it
// refuses with one of its codes; the guard that keeps admitted texts gives
// the verdict of a fresh one, the first time and the next. `.ci/run`
// fuzzes it for a bounded time; `go test` replays its seeds.
func FuzzGardeDocument(f *testing.F) {
	for _, seed := range []string{"\x00\x02\x02\x01\x04\x00\x02\x02\x02\x02", "\x00\x00\x00\x01\x00\x02\x01\x03\x04\x01\x02\x00",
		"\x02\x00\x04\x00\x02\x01\x02\x01\x04\x01\x02\x02\x02\x02\x04\x02\x01\x00\x01\x01", strings.Repeat("\x00\x05\x02\x01", 12)} {
		f.Add([]byte(seed))
	}
	g := nouvelleGarde(bornesEssai)
	f.Fuzz(func(t *testing.T, programme []byte) {
		doc := documentFuzz(programme)
		_, err := garde{b: bornesEssai}.verifier(doc)
		for range 2 { // analysed, then kept when admitted: the same verdict
			gardee := g.MutateOperationParameters(t.Context(), &gql.RawParams{Query: doc})
			assert.Equal(t, err == nil, gardee == nil, "the guard keeping its verdicts: %v, a fresh one: %v: %s", gardee, err, doc)
		}
		if err != nil {
			assert.Contains(t, []any{codeQueryTooLarge, codeQueryTooDeep, codeValidationFailed}, err.Extensions["code"], err.Message)
			return
		}
		parsed, perr := parser.ParseQuery(&ast.Source{Input: doc})
		if perr != nil {
			return
		}
		e := expansion{doc: parsed, reste: bornesEssai.Selections}
		for _, op := range parsed.Operations {
			e.ensemble(op.SelectionSet, 0)
		}
		assert.GreaterOrEqual(t, e.reste, 0, "accepted, yet it expands over %d selections: %s", bornesEssai.Selections, doc)
		assert.LessOrEqual(t, e.imbrication, bornesEssai.Imbrication, "accepted, yet nested deeper: %s", doc)
	})
}

// documentFuzz reads programme two bytes at a time (an operation, its
// argument) and writes a document: an aliased field opening a selection, a
// leaf field, a spread of one of six fragments, the end of a selection,
// the start of the next fragment's definition.
func documentFuzz(programme []byte) string {
	var b strings.Builder
	b.WriteString("query{")
	ouverts, fragment, vide := 1, 0, true
	fermer := func() {
		if vide {
			b.WriteString("x")
		}
		b.WriteString(strings.Repeat("}", ouverts))
	}
	for i := 0; i+1 < len(programme); i += 2 {
		op, arg := programme[i]%5, int(programme[i+1])
		switch {
		case op == 0 && ouverts < 12:
			fmt.Fprintf(&b, " a%d: f%d{", arg%4, arg%3)
			ouverts, vide = ouverts+1, true
			continue
		case op == 1:
			fmt.Fprintf(&b, " f%d", arg%3)
		case op == 2:
			fmt.Fprintf(&b, " ...F%d", arg%6)
		case op == 3 && ouverts > 1 && !vide:
			b.WriteString("}")
			ouverts--
		case op == 4 && fragment < 6:
			fermer()
			fmt.Fprintf(&b, " fragment F%d on T{", fragment)
			fragment, ouverts = fragment+1, 1
			vide = true
			continue
		default:
			continue
		}
		vide = false
	}
	fermer()
	return b.String()
}

// expansion counts the selections of a document's operations as gqlgen
// collects them, every spread replaced by its fragment, until reste runs
// out; imbrication is the longest chain of spreads met.
type expansion struct {
	doc         *ast.QueryDocument
	reste       int
	imbrication int
}

func (e *expansion) ensemble(set ast.SelectionSet, spreads int) {
	e.imbrication = max(e.imbrication, spreads)
	for _, sel := range set {
		if e.reste < 0 || spreads > bornesEssai.Imbrication {
			return
		}
		switch s := sel.(type) {
		case *ast.Field:
			e.reste--
			e.ensemble(s.SelectionSet, spreads)
		case *ast.InlineFragment:
			e.ensemble(s.SelectionSet, spreads)
		case *ast.FragmentSpread:
			if f := e.doc.Fragments.ForName(s.Name); f != nil {
				e.ensemble(f.SelectionSet, spreads+1)
			}
		}
	}
}

// documentBulletin is the document of the hall's bulletins
// (cmd/arbitre/internal/charge), sent 2,400 times a coup.
const documentBulletin = `mutation($p: ID!, $c: Int!, $l: ID!, $b: BulletinInput!, $m: String) {
  deposerBulletin(partie:$p, coup:$c, licence:$l, bulletin:$b, clientMutationId:$m) { licence } }`

// Issue 34 item 3: the guard lexed and parsed every request's document,
// the same few documents thousands of times a coup. An admitted document
// sent again is not analysed again: no allocation at all.
func TestIssue34_GardeNAnalysePasDeuxFoisUnDocumentAdmis(t *testing.T) {
	g := nouvelleGarde(DefaultBornesDocument)
	p := &gql.RawParams{Query: documentBulletin}
	require.Nil(t, g.MutateOperationParameters(t.Context(), p))
	allocations := testing.AllocsPerRun(20, func() {
		require.Nil(t, g.MutateOperationParameters(t.Context(), p))
	})
	assert.Zero(t, allocations, "the admitted document is lexed and parsed again")
}

// Issue 34 item 3: a refused document is never kept as admitted; sent
// again, it is analysed and refused again, with its code.
func TestSecurite_GardeDocumentRefuseDeNouveau(t *testing.T) {
	g := nouvelleGarde(bornesEssai)
	for _, tc := range []struct{ doc, code string }{
		{`{x}` + strings.Repeat(" ", 1998), codeQueryTooLarge},
		{"{x(a: [" + strings.Repeat("1 ", 292) + "])}", codeQueryTooLarge},
		{`{x{...A} y{...A} z{...A} w{...A}} fragment A on T {a b c d e f g h i}`, codeQueryTooLarge},
		{`{...A} fragment A on T {...B} fragment B on T {...C} fragment C on T {...D} fragment D on T {x}`, codeQueryTooDeep},
		{`{a: x b: x c: x d: x e: x}`, codeQueryTooLarge},
		{`{x x x x}`, codeQueryTooLarge},
		{`{...A} fragment A on T {x ...B} fragment B on T {...A}`, codeValidationFailed},
	} {
		for range 2 {
			err := g.MutateOperationParameters(t.Context(), &gql.RawParams{Query: tc.doc})
			require.NotNil(t, err, tc.doc)
			assert.Equal(t, tc.code, err.Extensions["code"], tc.doc)
		}
	}
	assert.Zero(t, g.admis.ordre.Len())
	assert.Empty(t, g.admis.parTexte)
	assert.Zero(t, g.admis.octets)
}

// Issue 34 item 3: the admitted texts are kept byte for byte: a variant
// one byte away from an admitted document is analysed afresh (and
// refused when over a bound), and does not evict what was admitted.
func TestSecurite_GardeVarianteDUnOctet(t *testing.T) {
	g := nouvelleGarde(bornesEssai)
	for _, tc := range []struct{ admis, variante string }{
		{`{x x x y}`, `{x x x x}`},
		{`{x}` + strings.Repeat(" ", 1997), `{x}` + strings.Repeat(" ", 1998)},
		{`{a: x b: x c: x d: x e x}`, `{a: x b: x c: x d: x e:x}`},
		{`{...A} fragment A on T {...B} fragment B on T {...C} fragment C on T {x}`, `{...A} fragment A on T {...B} fragment B on T {...A} fragment C on T {x}`},
	} {
		for range 2 {
			assert.Nil(t, g.MutateOperationParameters(t.Context(), &gql.RawParams{Query: tc.admis}), tc.admis)
			assert.NotNil(t, g.MutateOperationParameters(t.Context(), &gql.RawParams{Query: tc.variante}), tc.variante)
		}
	}
	assert.Equal(t, 4, g.admis.ordre.Len())
}

// Issue 34 item 3: a flood of distinct admitted documents keeps at most
// maxDocumentsAdmis texts and maxOctetsAdmis bytes, dropping the least
// recently sent; each is still admitted when sent again.
func TestSecurite_GardeDocumentsAdmisBornes(t *testing.T) {
	g := nouvelleGarde(DefaultBornesDocument)
	verifierBornes := func() {
		t.Helper()
		octets := 0
		for e := g.admis.ordre.Front(); e != nil; e = e.Next() {
			octets += len(e.Value.(string))
		}
		assert.Equal(t, octets, g.admis.octets)
		assert.LessOrEqual(t, g.admis.octets, maxOctetsAdmis)
		assert.LessOrEqual(t, g.admis.ordre.Len(), maxDocumentsAdmis)
		assert.Len(t, g.admis.parTexte, g.admis.ordre.Len())
	}
	envoyer := func(doc string) {
		t.Helper()
		require.Nil(t, g.MutateOperationParameters(t.Context(), &gql.RawParams{Query: doc}))
	}
	petit := func(i int) string { return fmt.Sprintf("{x%d}", i) }
	for i := range 3 * maxDocumentsAdmis {
		envoyer(petit(i))
	}
	verifierBornes()
	assert.Equal(t, maxDocumentsAdmis, g.admis.ordre.Len())
	assert.False(t, g.admis.contient(petit(0)), "the least recently sent is dropped")
	assert.True(t, g.admis.contient(petit(3*maxDocumentsAdmis-1)))

	grand := func(i int) string {
		return fmt.Sprintf("{x%d}", i) + strings.Repeat(" ", DefaultBornesDocument.Octets-16)
	}
	for i := range 2 * maxOctetsAdmis / DefaultBornesDocument.Octets {
		envoyer(grand(i))
		verifierBornes()
	}
	assert.Less(t, g.admis.ordre.Len(), maxOctetsAdmis/(DefaultBornesDocument.Octets-16)+1)
	envoyer(petit(0))
	envoyer(grand(0))
	verifierBornes()
}

// BenchmarkIssue34_GardeDuBulletin is the guard's work for the hall's
// bulletin document, sent again.
func BenchmarkIssue34_GardeDuBulletin(b *testing.B) {
	g := nouvelleGarde(DefaultBornesDocument)
	p := &gql.RawParams{Query: documentBulletin}
	b.ReportAllocs()
	for b.Loop() {
		if err := g.MutateOperationParameters(b.Context(), p); err != nil {
			b.Fatal(err)
		}
	}
}

// Issue 34 item 3, the review of session 10: a text that does not parse
// passes the guard (gqlgen refuses it, with its own message) but is not
// kept as admitted: junk sent by anyone would push the texts of the hall
// out of the bounded store.
func TestSecurite_GardeNeGardePasUnDocumentIllisible(t *testing.T) {
	g := nouvelleGarde(bornesEssai)
	for _, doc := range []string{`{x`, `query { x(a: ) }`, `}{`, "{x \x00}"} {
		for range 2 {
			assert.Nil(t, g.MutateOperationParameters(t.Context(), &gql.RawParams{Query: doc}), doc)
		}
	}
	assert.Zero(t, g.admis.ordre.Len())
	assert.Empty(t, g.admis.parTexte)
	assert.Zero(t, g.admis.octets)
}
