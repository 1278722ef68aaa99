package server

import (
	"context"
	"strings"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/validator"

	"arbitre/graphql/generated"
)

// TestEnums_ValeurInconnueRefuseePartout (issue 26 item 8): a value an enum
// does not list exactly — its name in capitals, as gqlparser lets a
// variable through, or another word — is refused with INVALID_INPUT naming
// the path and the values allowed, for every enum of the schema, as a
// variable, in a list and in every input field that has the enum's type;
// its exact values pass. Before, gqlgen mapped such a value to "" and the
// domain took its default.
func TestEnums_ValeurInconnueRefuseePartout(t *testing.T) {
	ext := &exactEnums{}
	require.NoError(t, ext.Validate(generated.NewExecutableSchema(generated.Config{})))
	schema := ext.schema
	run := func(typ *ast.Type, v any) *ast.Definition {
		oc := &graphql.OperationContext{
			Operation: &ast.OperationDefinition{VariableDefinitions: ast.VariableDefinitionList{{Variable: "v", Type: typ}}},
			Variables: map[string]any{"v": v},
		}
		if err := ext.MutateOperationContext(context.Background(), oc); err != nil {
			assert.Equal(t, "INVALID_INPUT", err.Extensions["code"])
			return &ast.Definition{Name: err.Extensions["champ"].(string), Description: err.Message}
		}
		return nil
	}
	enums, inputFields := 0, 0
	for _, def := range schema.Types {
		if def.Kind != ast.Enum || strings.HasPrefix(def.Name, "__") {
			continue
		}
		enums++
		valide := def.EnumValues[0].Name
		for _, mauvaise := range []string{strings.ToUpper(valide) + "X", "inconnue", strings.ToUpper(valide)} {
			if mauvaise == valide {
				continue
			}
			refus := run(ast.NonNullNamedType(def.Name, nil), mauvaise)
			require.NotNil(t, refus, "%s: %q", def.Name, mauvaise)
			assert.Equal(t, "$v", refus.Name)
			for _, v := range def.EnumValues {
				assert.Contains(t, refus.Description, v.Name, def.Name)
			}
			refus = run(ast.ListType(ast.NonNullNamedType(def.Name, nil), nil), []any{valide, mauvaise})
			require.NotNil(t, refus, "%s in a list", def.Name)
			assert.Equal(t, "$v[1]", refus.Name)
		}
		for _, v := range def.EnumValues {
			assert.Nil(t, run(ast.NamedType(def.Name, nil), v.Name), "%s.%s", def.Name, v.Name)
		}
		for _, input := range schema.Types {
			if input.Kind != ast.InputObject {
				continue
			}
			for _, f := range input.Fields {
				typ := f.Type
				for typ.Elem != nil {
					typ = typ.Elem
				}
				if typ.NamedType != def.Name {
					continue
				}
				inputFields++
				var mauvaise any = "INCONNUE"
				if f.Type.Elem != nil {
					mauvaise = []any{"INCONNUE"}
				}
				refus := run(ast.NamedType(input.Name, nil), map[string]any{f.Name: mauvaise})
				require.NotNil(t, refus, "%s.%s", input.Name, f.Name)
				assert.True(t, strings.HasPrefix(refus.Name, "$v."+f.Name), refus.Name)
			}
		}
	}
	assert.Greater(t, enums, 20, "every enum of the schema was walked")
	assert.Greater(t, inputFields, 5, "and every input field of an enum type")
}

// variablesBulletin are the hall's bulletin variables (documentBulletin)
// with n written solutions, as validation coerces them.
func variablesBulletin(t testing.TB, schema *ast.Schema, n int) (*ast.OperationDefinition, map[string]any) {
	doc, errs := gqlparser.LoadQuery(schema, documentBulletin)
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
	return op, vars
}

// Issue 34 item 3: the check of the variables' enums built the path of
// every value it went through (a string for each field and each element),
// which only a refusal names. A bulletin of 40 written solutions, all
// admitted, costs no allocation.
func TestIssue34_EnumsVerifiesSansConstruireLeChemin(t *testing.T) {
	ext := &exactEnums{}
	require.NoError(t, ext.Validate(generated.NewExecutableSchema(generated.Config{})))
	op, vars := variablesBulletin(t, ext.schema, 40)
	oc := &graphql.OperationContext{Operation: op, Variables: vars}
	allocations := testing.AllocsPerRun(20, func() {
		require.Nil(t, ext.MutateOperationContext(t.Context(), oc))
	})
	assert.Zero(t, allocations, "the paths of admitted values are built")
}

// BenchmarkIssue34_EnumsDUnBulletin is the enums' check of the hall's
// bulletin variables (one written solution).
func BenchmarkIssue34_EnumsDUnBulletin(b *testing.B) {
	ext := &exactEnums{}
	require.NoError(b, ext.Validate(generated.NewExecutableSchema(generated.Config{})))
	op, vars := variablesBulletin(b, ext.schema, 1)
	oc := &graphql.OperationContext{Operation: op, Variables: vars}
	b.ReportAllocs()
	for b.Loop() {
		if err := ext.MutateOperationContext(b.Context(), oc); err != nil {
			b.Fatal(err)
		}
	}
}
