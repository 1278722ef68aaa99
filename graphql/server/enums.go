package server

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"arbitre/domain/erreur"
	api "arbitre/graphql"
)

// exactEnums refuses, in the variables, an enum value the schema does not
// list exactly (issue 26 item 8). gqlparser accepts a value that differs
// only in case ("DIRECTEUR" for directeur), and gqlgen's generated
// unmarshal then maps it to the empty value, which the domain takes for
// its default: the request would do something else than asked. A literal
// is checked exactly by validation already.
type exactEnums struct{ schema *ast.Schema }

func (*exactEnums) ExtensionName() string { return "ExactEnums" }

func (e *exactEnums) Validate(es graphql.ExecutableSchema) error {
	e.schema = es.Schema()
	return nil
}

// MutateOperationContext checks every variable, through lists and input
// objects, once validation has coerced them.
func (e *exactEnums) MutateOperationContext(ctx context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if oc.Operation == nil {
		return nil
	}
	for _, def := range oc.Operation.VariableDefinitions {
		if err := e.check(def.Type, oc.Variables[def.Variable], api.Racine("$"+def.Variable)); err != nil {
			return api.PresentError(ctx, err)
		}
	}
	return nil
}

// check walks one value of type typ, at path (for the message).
func (e *exactEnums) check(typ *ast.Type, v any, path api.Chemin) *erreur.Erreur {
	if v == nil {
		return nil
	}
	if typ.Elem != nil {
		list, ok := v.([]any)
		if !ok { // a single value stands for a list of one
			return e.check(typ.Elem, v, path)
		}
		for i, item := range list {
			if err := e.check(typ.Elem, item, path.Element(i)); err != nil {
				return err
			}
		}
		return nil
	}
	def := e.schema.Types[typ.NamedType]
	if def == nil {
		return nil
	}
	switch def.Kind {
	case ast.Enum:
		if s, ok := v.(string); ok && def.EnumValues.ForName(s) == nil {
			return api.RefusEnum(def, s, path.String())
		}
	case ast.InputObject:
		fields, _ := v.(map[string]any)
		for name, fv := range fields {
			if f := def.Fields.ForName(name); f != nil {
				if err := e.check(f.Type, fv, path.Champ(name)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
