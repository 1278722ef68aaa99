package graphql

import (
	"context"
	"strings"
	"testing"

	gql "github.com/99designs/gqlgen/graphql"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/validator"

	"arbitre/engine/correction"
	"arbitre/graphql/model"
)

func TestSecurite_EntreesNFC(t *testing.T) {
	decompose := "E\u0301te\u0301"
	club := decompose
	in := model.JoueurInput{Licence: "L1", Nom: decompose, Club: &club}
	out := nfc(in).(model.JoueurInput)
	assert.Equal(t, "\u00c9t\u00e9", out.Nom)
	assert.Equal(t, "\u00c9t\u00e9", *out.Club)
	assert.Equal(t, decompose, in.Nom, "the original is not modified")
	assert.Equal(t, decompose, club, "nor what it points to")
	assert.Equal(t, []string{"\u00c9t\u00e9"}, nfc([]string{decompose}))
	assert.Nil(t, nfc(nil))
}

func TestSecurite_EntreesEcho(t *testing.T) {
	long := "abcdefghijklmnopqrstuvwxyz0123456789"
	court := "abcdefghijklmnopqrstuvwxyz012345…"
	cases := []struct {
		name, msg string
		entrees   []string
		want      string
	}{
		{"an argument repeated", "la partie " + long + " n'existe pas", []string{long}, "la partie " + court + " n'existe pas"},
		{"a short argument untouched", "la partie P1 n'existe pas", []string{"P1"}, "la partie P1 n'existe pas"},
		{"a long quoted input", `Cannot query field "` + long + `" on type "Query".`, nil, `Cannot query field "` + court + `" on type "Query".`},
		{"accents count as one character", `Value "` + strings.Repeat("é", 40) + `"`, nil, `Value "` + strings.Repeat("é", 32) + `…"`},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, abregerMessage(c.msg, c.entrees), c.name)
	}
}

// contexteBulletin is the context the field middleware sees for the hall's
// bulletin (deposerBulletin, its arguments as variables) with n written
// solutions; the arguments themselves are left out (their NFC copy is not
// what is measured).
func contexteBulletin(t testing.TB, n int) context.Context {
	doc, errs := gqlparser.LoadQuery(schema, `mutation($p: ID!, $c: Int!, $l: ID!, $b: BulletinInput!, $m: String) {
  deposerBulletin(partie:$p, coup:$c, licence:$l, bulletin:$b, clientMutationId:$m) { licence } }`)
	require.Empty(t, errs)
	solutions := make([]any, n)
	for i := range solutions {
		solutions[i] = map[string]any{"word": "ZEN", "ref": "8H", "written": "h", "score": 24}
	}
	op := doc.Operations[0]
	vars, err := validator.VariableValues(schema, op, map[string]any{
		"p": "P1", "c": 1, "l": "L1", "m": "k1", "b": map[string]any{"solutions": solutions},
	})
	require.Nil(t, err)
	ctx := gql.WithOperationContext(context.Background(), &gql.OperationContext{Doc: doc, Operation: op, Variables: vars})
	return gql.WithFieldContext(ctx, &gql.FieldContext{Field: gql.CollectedField{Field: op.SelectionSet[0].(*ast.Field)}})
}

// Issue 34 item 3: the check of the arguments built the path of every
// value it went through (a string for each field and each element), which
// only a refusal names: its allocations grew with the bulletin. A bulletin
// of 40 written solutions costs what a bulletin of one does.
func TestIssue34_EntreesVerifieesSansConstruireLeChemin(t *testing.T) {
	suivant := func(context.Context) (any, error) { return nil, nil }
	allocations := func(n int) float64 {
		ctx := contexteBulletin(t, n)
		return testing.AllocsPerRun(20, func() {
			_, err := verifierEntrees(ctx, suivant)
			require.NoError(t, err)
		})
	}
	assert.Equal(t, allocations(1), allocations(40), "the paths of admitted values are built")
}

// A refusal still names the whole path of the value.
func TestIssue34_RefusNommeLeCheminEntier(t *testing.T) {
	ctx := contexteBulletin(t, 3)
	vars := gql.GetOperationContext(ctx).Variables
	vars["b"].(map[string]any)["solutions"].([]any)[2].(map[string]any)["word"] = "ZEN\x00"
	_, err := verifierEntrees(ctx, func(context.Context) (any, error) { return nil, nil })
	require.Error(t, err)
	assert.Contains(t, err.Error(), "« deposerBulletin.bulletin.solutions[2].word »")
}

// BenchmarkIssue34_EntreesDUnBulletin is the field middleware's check of
// the hall's bulletin (one written solution).
func BenchmarkIssue34_EntreesDUnBulletin(b *testing.B) {
	ctx := contexteBulletin(b, 1)
	suivant := func(context.Context) (any, error) { return nil, nil }
	b.ReportAllocs()
	for b.Loop() {
		if _, err := verifierEntrees(ctx, suivant); err != nil {
			b.Fatal(err)
		}
	}
}

// Issue 34 item 3: every argument was copied through reflection (each
// pointer, slice and struct it holds) to normalise its strings, already in
// NFC nearly always: a bulletin of one solution, 36 allocations a request.
// An argument whose strings are all in NFC is kept as it is.
func TestIssue34_ArgumentDejaNFCNonCopie(t *testing.T) {
	ref, score := "8H", 24
	var argument any = correction.Bulletin{Solutions: []correction.Solution{{Word: "ÉTÉ", Written: correction.Horizontal, Ref: &ref, Score: &score}}}
	var normalise any
	allocations := testing.AllocsPerRun(20, func() { normalise = nfc(argument) })
	assert.Zero(t, allocations, "an argument already in NFC is copied")
	assert.Equal(t, argument, normalise)

	decompose := "E\u0301TE\u0301"
	avant := correction.Bulletin{Solutions: []correction.Solution{{Word: "ZEN", Ref: &ref}, {Word: "ZEN", Ref: &decompose}}}
	apres := nfc(avant).(correction.Bulletin)
	assert.Equal(t, "\u00c9T\u00c9", *apres.Solutions[1].Ref, "a string deep inside is normalised")
	assert.Equal(t, decompose, *avant.Solutions[1].Ref, "the original is not modified")
}
