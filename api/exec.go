package api

import (
	"context"
	"fmt"
	"sort"

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
	// MaxFields caps the fields written in the document (aliases
	// included), before any fragment is expanded: graphql-go's validation
	// is quadratic in them, and a 1 MiB alias flood costs it half a minute
	// of CPU that no deadline interrupts.
	MaxFields int
}

// DefaultLimits are generous for dashboards and stop abuse.
var DefaultLimits = Limits{MaxDepth: 12, MaxCost: 200000, MaxFields: 2000}

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
	if lim.MaxFields > 0 {
		n := 0
		for _, d := range doc.Definitions {
			switch x := d.(type) {
			case *ast.OperationDefinition:
				n += countFields(x.SelectionSet)
			case *ast.FragmentDefinition:
				n += countFields(x.SelectionSet)
			}
		}
		if n > lim.MaxFields {
			return fmt.Errorf("query has %d fields, over the limit of %d (aliases count); split it into smaller queries", n, lim.MaxFields)
		}
	}
	// graphql-go's validation recurses through fragment spreads without a
	// guard: a fragment cycle, even in a fragment no operation uses,
	// overflows the stack and kills the process. Refuse cycles first.
	if err := fragmentCycle(frags); err != nil {
		return err
	}
	for _, d := range doc.Definitions {
		// Unused fragments are validated too: bound them like operations.
		f, ok := d.(*ast.FragmentDefinition)
		if !ok || f.Name == nil {
			continue
		}
		w := walker{frags: frags, vars: vars, lim: lim, schema: schema}
		var t graphql.Type = schema.QueryType()
		if f.TypeCondition != nil && f.TypeCondition.Name != nil {
			if nt := schema.Type(f.TypeCondition.Name.Value); nt != nil {
				t = nt
			}
		}
		if _, err := w.selection(f.SelectionSet, t, 1, 1, map[string]bool{f.Name.Value: true}); err != nil {
			return err
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

// fragmentCycle reports a fragment that spreads itself, directly or
// through other fragments.
func fragmentCycle(frags map[string]*ast.FragmentDefinition) error {
	const (
		visiting = 1
		done     = 2
	)
	state := map[string]int{}
	var visit func(name string) error
	visit = func(name string) error {
		f := frags[name]
		if f == nil || state[name] == done {
			return nil
		}
		if state[name] == visiting {
			return fmt.Errorf("fragment %s spreads itself", name)
		}
		state[name] = visiting
		for _, s := range spreads(f.SelectionSet, nil) {
			if err := visit(s); err != nil {
				return err
			}
		}
		state[name] = done
		return nil
	}
	names := make([]string, 0, len(frags))
	for n := range frags {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := visit(n); err != nil {
			return err
		}
	}
	return nil
}

// countFields counts the fields written in set, at every level.
func countFields(set *ast.SelectionSet) int {
	if set == nil {
		return 0
	}
	n := 0
	for _, sel := range set.Selections {
		switch x := sel.(type) {
		case *ast.Field:
			n += 1 + countFields(x.SelectionSet)
		case *ast.InlineFragment:
			n += countFields(x.SelectionSet)
		}
	}
	return n
}

// spreads appends the names of the fragments spread anywhere in set.
func spreads(set *ast.SelectionSet, out []string) []string {
	if set == nil {
		return out
	}
	for _, sel := range set.Selections {
		switch x := sel.(type) {
		case *ast.Field:
			out = spreads(x.SelectionSet, out)
		case *ast.InlineFragment:
			out = spreads(x.SelectionSet, out)
		case *ast.FragmentSpread:
			if x.Name != nil {
				out = append(out, x.Name.Value)
			}
		}
	}
	return out
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
