package api

import (
	"context"
	"fmt"

	"github.com/graphql-go/graphql"
	"github.com/graphql-go/graphql/gqlerrors"
	"github.com/graphql-go/graphql/language/ast"
	"github.com/graphql-go/graphql/language/parser"
	"github.com/graphql-go/graphql/language/source"

	"github.com/skillgraph/skillgraph/queries"
)

// Limits bound what one request may cost (SPEC §7).
type Limits struct {
	MaxDepth int // deepest selection nesting
	MaxCost  int // fields × requested list sizes
}

// DefaultLimits are generous for dashboards and stop abuse.
var DefaultLimits = Limits{MaxDepth: 12, MaxCost: 200000}

// Request is one GraphQL request.
type Request struct {
	Query         string         `json:"query"`
	Variables     map[string]any `json:"variables,omitempty"`
	OperationName string         `json:"operationName,omitempty"`
}

// Execute parses, checks the limits, validates and runs a request against
// a snapshot. Problems are GraphQL errors in the result, never panics.
func (s *Schema) Execute(ctx context.Context, snap *queries.Snapshot, req Request, lim Limits) *graphql.Result {
	doc, err := Parse(req.Query)
	if err != nil {
		return &graphql.Result{Errors: gqlerrors.FormatErrors(err)}
	}
	return s.ExecuteDocument(ctx, snap, doc, req, lim)
}

// Parse parses a GraphQL document.
func Parse(query string) (*ast.Document, error) {
	return parser.Parse(parser.ParseParams{Source: source.NewSource(&source.Source{Body: []byte(query), Name: "request"})})
}

// IsMutation reports whether the operation that would run is a mutation.
func IsMutation(doc *ast.Document, operationName string) bool {
	for _, d := range doc.Definitions {
		op, ok := d.(*ast.OperationDefinition)
		if !ok {
			continue
		}
		if operationName == "" || (op.Name != nil && op.Name.Value == operationName) {
			if op.Operation == ast.OperationTypeMutation {
				return true
			}
		}
	}
	return false
}

// ExecuteDocument runs an already parsed document.
func (s *Schema) ExecuteDocument(ctx context.Context, snap *queries.Snapshot, doc *ast.Document, req Request, lim Limits) *graphql.Result {
	if err := checkLimits(&s.gql, doc, req.Variables, lim); err != nil {
		return &graphql.Result{Errors: gqlerrors.FormatErrors(err)}
	}
	vr := graphql.ValidateDocument(&s.gql, doc, nil)
	if !vr.IsValid {
		return &graphql.Result{Errors: vr.Errors}
	}
	return graphql.Execute(graphql.ExecuteParams{
		Schema: s.gql, AST: doc, OperationName: req.OperationName, Args: req.Variables,
		Context: WithSnapshot(ctx, snap),
	})
}

// checkLimits walks the AST: depth of the deepest selection and a cost of
// fields weighted by the list sizes asked for (first:, default page size).
func checkLimits(schema *graphql.Schema, doc *ast.Document, vars map[string]any, lim Limits) error {
	frags := map[string]*ast.FragmentDefinition{}
	for _, d := range doc.Definitions {
		if f, ok := d.(*ast.FragmentDefinition); ok && f.Name != nil {
			frags[f.Name.Value] = f
		}
	}
	for _, d := range doc.Definitions {
		op, ok := d.(*ast.OperationDefinition)
		if !ok {
			continue
		}
		w := walker{frags: frags, vars: vars, lim: lim, schema: schema}
		var root graphql.Type = schema.QueryType()
		if op.Operation == ast.OperationTypeMutation {
			root = schema.MutationType()
		}
		cost, err := w.selection(op.SelectionSet, root, 1, 1, map[string]bool{})
		if err != nil {
			return err
		}
		if lim.MaxCost > 0 && cost > lim.MaxCost {
			return fmt.Errorf("query cost %d exceeds the limit of %d (fields × requested list sizes); ask for smaller pages", cost, lim.MaxCost)
		}
	}
	return nil
}

type walker struct {
	schema *graphql.Schema
	frags  map[string]*ast.FragmentDefinition
	vars   map[string]any
	lim    Limits
}

// listWeight is the assumed size of a list field without `first`.
const listWeight = 10

func (w *walker) selection(set *ast.SelectionSet, parent graphql.Type, depth, mult int, inFrag map[string]bool) (int, error) {
	if set == nil {
		return 0, nil
	}
	if w.lim.MaxDepth > 0 && depth > w.lim.MaxDepth {
		return 0, fmt.Errorf("query depth exceeds the limit of %d", w.lim.MaxDepth)
	}
	cost := 0
	for _, sel := range set.Selections {
		switch x := sel.(type) {
		case *ast.Field:
			m := mult
			ft, isList := fieldType(parent, x.Name.Value)
			if x.SelectionSet != nil && (isList || hasArg(x, "first")) {
				m = mult * w.size(x)
			}
			cost += mult
			c, err := w.selection(x.SelectionSet, ft, depth+1, m, inFrag)
			if err != nil {
				return 0, err
			}
			cost += c
		case *ast.InlineFragment:
			t := parent
			if x.TypeCondition != nil && x.TypeCondition.Name != nil {
				if nt := w.schema.Type(x.TypeCondition.Name.Value); nt != nil {
					t = nt
				}
			}
			c, err := w.selection(x.SelectionSet, t, depth, mult, inFrag)
			if err != nil {
				return 0, err
			}
			cost += c
		case *ast.FragmentSpread:
			name := x.Name.Value
			if inFrag[name] {
				return 0, fmt.Errorf("fragment %s spreads itself", name)
			}
			f := w.frags[name]
			if f == nil {
				continue // validation reports it
			}
			inFrag[name] = true
			t := parent
			if f.TypeCondition != nil && f.TypeCondition.Name != nil {
				if nt := w.schema.Type(f.TypeCondition.Name.Value); nt != nil {
					t = nt
				}
			}
			c, err := w.selection(f.SelectionSet, t, depth, mult, inFrag)
			delete(inFrag, name)
			if err != nil {
				return 0, err
			}
			cost += c
		}
		if w.lim.MaxCost > 0 && cost > w.lim.MaxCost {
			return 0, fmt.Errorf("query cost exceeds the limit of %d (fields × requested list sizes); ask for smaller pages", w.lim.MaxCost)
		}
	}
	return cost, nil
}

// size is the multiplier of a field with a selection: its `first`
// argument, else listWeight.
func (w *walker) size(f *ast.Field) int {
	for _, a := range f.Arguments {
		if a.Name == nil || a.Name.Value != "first" {
			continue
		}
		switch v := a.Value.(type) {
		case *ast.IntValue:
			var n int
			if _, err := fmt.Sscan(v.Value, &n); err == nil && n > 0 {
				return n
			}
		case *ast.Variable:
			if x, ok := w.vars[v.Name.Value].(float64); ok && x > 0 {
				return int(x)
			}
		}
	}
	return listWeight
}

// fieldType returns the named type of a field of parent and whether the
// field is a list; unknown fields (validation reports them) count as lists.
func fieldType(parent graphql.Type, name string) (graphql.Type, bool) {
	var fields graphql.FieldDefinitionMap
	switch p := parent.(type) {
	case *graphql.Object:
		fields = p.Fields()
	case *graphql.Interface:
		fields = p.Fields()
	default:
		return nil, true
	}
	fd := fields[name]
	if fd == nil {
		return nil, true
	}
	t := fd.Type
	isList := false
	for {
		switch x := t.(type) {
		case *graphql.NonNull:
			t = x.OfType
			continue
		case *graphql.List:
			isList = true
			t = x.OfType
			continue
		}
		break
	}
	return t, isList
}

func hasArg(f *ast.Field, name string) bool {
	for _, a := range f.Arguments {
		if a.Name != nil && a.Name.Value == name {
			return true
		}
	}
	return false
}
