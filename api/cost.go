package api

import (
	"fmt"
	"maps"
	"slices"

	"github.com/graphql-go/graphql"
	"github.com/graphql-go/graphql/language/ast"
)

// checkLimits walks the AST: depth of the deepest selection and a cost of
// fields weighted by the list sizes asked for (first:, default page size).
func checkLimits(schema *graphql.Schema, iw introWeights, doc *ast.Document, vars map[string]any, lim Limits) error {
	frags := map[string]*ast.FragmentDefinition{}
	for _, d := range doc.Definitions {
		if f, ok := d.(*ast.FragmentDefinition); ok && f.Name != nil {
			frags[f.Name.Value] = f
		}
	}
	// graphql-go's validation recurses through fragment spreads without a
	// guard: a fragment cycle, even in a fragment no operation uses,
	// overflows the stack and kills the process. Refuse cycles first.
	if err := fragmentCycle(frags); err != nil {
		return err
	}
	visits := 0
	for _, d := range doc.Definitions {
		// Unused fragments are validated too: bound them like operations.
		f, ok := d.(*ast.FragmentDefinition)
		if !ok || f.Name == nil {
			continue
		}
		w := walker{frags: frags, vars: vars, lim: lim, schema: schema, intro: iw, visits: &visits}
		var t graphql.Type = schema.QueryType()
		if f.TypeCondition != nil && f.TypeCondition.Name != nil {
			if nt := schema.Type(f.TypeCondition.Name.Value); nt != nil {
				t = nt
			}
		}
		// A fragment on an introspection type (graphql-js's FullType,
		// TypeRef) is bounded as introspection, where it is spread.
		in := isIntrospectionType(t)
		if _, err := w.selection(f.SelectionSet, t, 1, 1, in, map[string]bool{f.Name.Value: true}); err != nil {
			return err
		}
	}
	for _, d := range doc.Definitions {
		op, ok := d.(*ast.OperationDefinition)
		if !ok {
			continue
		}
		w := walker{frags: frags, vars: vars, lim: lim, schema: schema, intro: iw, visits: &visits}
		var root graphql.Type = schema.QueryType()
		if op.Operation == ast.OperationTypeMutation {
			root = schema.MutationType()
		}
		cost, err := w.selection(op.SelectionSet, root, 1, 1, false, map[string]bool{})
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
	names := slices.Sorted(maps.Keys(frags))
	for _, n := range names {
		if err := visit(n); err != nil {
			return err
		}
	}
	return nil
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
	schema    *graphql.Schema
	frags     map[string]*ast.FragmentDefinition
	vars      map[string]any
	lim       Limits
	intro     introWeights
	introCost int  // fields all introspection subtrees may return
	visits    *int // selections visited, fragments expanded, in the whole document
}

// maxVisits bounds the selections one document's walk may visit with its
// fragments expanded.
const maxVisits = 100_000

// listWeight is the assumed size of a list field without `first`.
const listWeight = 10

// selection returns the cost of set below parent at depth, each field
// counted mult times. Inside an introspection subtree (in), depth runs
// against MaxIntrospectionDepth and lists weigh their real size in this
// schema; the subtree's cost goes to introCost instead of the query cost:
// introspection does not read the snapshot and is bounded by the schema.
func (w *walker) selection(set *ast.SelectionSet, parent graphql.Type, depth, mult int, in bool, inFrag map[string]bool) (int, error) {
	if set == nil {
		return 0, nil
	}
	maxDepth, maxCost := w.lim.MaxDepth, w.lim.MaxCost
	if in {
		maxDepth, maxCost = w.lim.MaxIntrospectionDepth, w.lim.MaxIntrospectionCost
	}
	if maxDepth > 0 && depth > maxDepth {
		if in {
			return 0, fmt.Errorf("introspection depth exceeds the limit of %d", maxDepth)
		}
		return 0, fmt.Errorf("query depth exceeds the limit of %d", maxDepth)
	}
	cost := 0
	for _, sel := range set.Selections {
		// Fragments that only spread other fragments cost nothing, yet
		// n of them spreading the next twice are 2^n selections to walk.
		*w.visits++
		if *w.visits > maxVisits {
			return 0, fmt.Errorf("query cost exceeds the limit: it expands into more than %d selections (fragments spread repeatedly)", maxVisits)
		}
		switch x := sel.(type) {
		case *ast.Field:
			name := x.Name.Value
			if !in && (name == "__schema" || name == "__type") {
				t := w.schema.Type("__Schema")
				if name == "__type" {
					t = w.schema.Type("__Type")
				}
				cost += mult
				c, err := w.selection(x.SelectionSet, t, 1, mult, true, inFrag)
				if err != nil {
					return 0, err
				}
				w.introCost += c
				if w.lim.MaxIntrospectionCost > 0 && w.introCost > w.lim.MaxIntrospectionCost {
					return 0, fmt.Errorf("introspection cost exceeds the limit of %d (fields × list sizes of this schema)", w.lim.MaxIntrospectionCost)
				}
				continue
			}
			m := mult
			ft, isList := fieldType(parent, name)
			switch {
			case x.SelectionSet == nil:
			case in && isList:
				m = mult * w.intro.weight(name)
			case !in && (isList || hasArg(x, "first") || hasArg(x, "last")):
				m = mult * w.size(x)
			}
			cost += mult
			c, err := w.selection(x.SelectionSet, ft, depth+1, m, in, inFrag)
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
			c, err := w.selection(x.SelectionSet, t, depth, mult, in, inFrag)
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
			c, err := w.selection(f.SelectionSet, t, depth, mult, in, inFrag)
			delete(inFrag, name)
			if err != nil {
				return 0, err
			}
			cost += c
		}
		if maxCost > 0 && cost > maxCost {
			if in {
				return 0, fmt.Errorf("introspection cost exceeds the limit of %d (fields × list sizes of this schema)", maxCost)
			}
			return 0, fmt.Errorf("query cost exceeds the limit of %d (fields × requested list sizes); ask for smaller pages", maxCost)
		}
	}
	return cost, nil
}

// size is the multiplier of a field with a selection: the larger of its
// `first` and `last` arguments (0 for an empty page), else listWeight.
func (w *walker) size(f *ast.Field) int {
	n := -1
	for _, a := range f.Arguments {
		if a.Name == nil || (a.Name.Value != "first" && a.Name.Value != "last") {
			continue
		}
		switch v := a.Value.(type) {
		case *ast.IntValue:
			var x int
			if _, err := fmt.Sscan(v.Value, &x); err == nil && x >= 0 {
				n = max(n, x)
			}
		case *ast.Variable:
			if x, ok := w.vars[v.Name.Value].(float64); ok && x >= 0 {
				n = max(n, int(min(x, 1e15)))
			}
		}
	}
	if n < 0 {
		return listWeight
	}
	return n
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

// introWeights are the real sizes of the introspection lists of one
// schema: the number of types and directives, and the largest number of
// fields (input fields, enum values, interfaces, possible types) of a
// type and of arguments of a field or directive. A list field of an
// introspection type weighs its entry here, so an introspection subtree's
// cost bounds the fields its answer can hold.
type introWeights map[string]int

func (iw introWeights) weight(field string) int {
	if n, ok := iw[field]; ok {
		return max(n, 1)
	}
	return listWeight
}

func newIntroWeights(s *graphql.Schema) introWeights {
	iw := introWeights{"types": len(s.TypeMap()), "directives": len(s.Directives()), "locations": 0}
	bump := func(k string, n int) { iw[k] = max(iw[k], n) }
	for _, d := range s.Directives() {
		bump("args", len(d.Args))
		bump("locations", len(d.Locations))
	}
	for _, t := range s.TypeMap() {
		switch x := t.(type) {
		case *graphql.Object:
			bump("fields", len(x.Fields()))
			bump("interfaces", len(x.Interfaces()))
			for _, f := range x.Fields() {
				bump("args", len(f.Args))
			}
		case *graphql.Interface:
			bump("fields", len(x.Fields()))
			bump("possibleTypes", len(s.PossibleTypes(x)))
			for _, f := range x.Fields() {
				bump("args", len(f.Args))
			}
		case *graphql.Union:
			bump("possibleTypes", len(x.Types()))
		case *graphql.Enum:
			bump("enumValues", len(x.Values()))
		case *graphql.InputObject:
			bump("inputFields", len(x.Fields()))
		}
	}
	return iw
}

// isIntrospectionType reports whether t is one of graphql's __ types.
func isIntrospectionType(t graphql.Type) bool {
	return t != nil && len(t.Name()) > 2 && t.Name()[:2] == "__"
}
