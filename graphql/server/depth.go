package server

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// codeQueryTooDeep is the code of an operation nested too deep.
const codeQueryTooDeep = "QUERY_TOO_DEEP"

// depthLimiter refuses operations nested deeper than max selections.
type depthLimiter struct{ max int }

func depthLimit(max int) graphql.HandlerExtension { return depthLimiter{max: max} }

func (depthLimiter) ExtensionName() string                   { return "DepthLimit" }
func (depthLimiter) Validate(graphql.ExecutableSchema) error { return nil }

// MutateOperationContext measures the operation before it runs.
func (d depthLimiter) MutateOperationContext(_ context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if oc.Operation == nil {
		return nil
	}
	if depth := selectionDepth(oc.Operation.SelectionSet, oc.Doc.Fragments, 0); depth > d.max {
		err := gqlerror.Errorf("Requête trop imbriquée : profondeur %d, au plus %d", depth, d.max)
		err.Extensions = map[string]any{"code": codeQueryTooDeep}
		return err
	}
	return nil
}

// selectionDepth is the deepest field nesting of a selection set, fragments
// followed (a fragment cycle is refused by validation before this runs; the
// guard stops at the limit anyway).
func selectionDepth(set ast.SelectionSet, fragments ast.FragmentDefinitionList, depth int) int {
	deepest := depth
	if depth > 64 {
		return depth
	}
	for _, sel := range set {
		var d int
		switch s := sel.(type) {
		case *ast.Field:
			d = selectionDepth(s.SelectionSet, fragments, depth+1)
		case *ast.InlineFragment:
			d = selectionDepth(s.SelectionSet, fragments, depth)
		case *ast.FragmentSpread:
			if f := fragments.ForName(s.Name); f != nil {
				d = selectionDepth(f.SelectionSet, fragments, depth)
			}
		}
		deepest = max(deepest, d)
	}
	return deepest
}
