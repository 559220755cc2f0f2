package api

import (
	"fmt"
	"maps"
	"slices"

	"github.com/graphql-go/graphql"
	"github.com/graphql-go/graphql/language/ast"
)

// Limits bound what one request may cost (SPEC §7). Every limit is checked
// on the parsed document before graphql-go validates it: graphql-go's
// validation has costs that grow faster than the document (it reprints a
// literal at every level of its nesting, compares fields pairwise) and no
// deadline interrupts it, so what reaches it must already be small.
type Limits struct {
	MaxDepth int // deepest selection nesting
	MaxCost  int // fields × requested list sizes
	// MaxFields caps the fields written in the document (aliases
	// included), before any fragment is expanded: graphql-go's validation
	// is quadratic in them, and a 1 MiB alias flood costs it half a minute
	// of CPU that no deadline interrupts.
	MaxFields int
	// MaxValueDepth caps the nesting of list and object values, in
	// literals and in variables: graphql-go prints the value again at
	// every level it checks (800 levels took 14 s).
	MaxValueDepth int
	// MaxNodes caps the arguments, directives, variable definitions and
	// literal values written in the document (5 000 unknown arguments
	// took 12 s of validation).
	MaxNodes int
	// MaxErrors caps the unknown fields, arguments and directives a
	// document may name before it is refused without graphql-go's
	// validation, and the errors a response lists.
	MaxErrors int
	// MaxIntrospectionDepth is the depth allowed below __schema and
	// __type: the standard introspection query of graphql-js nests
	// ofType deeper than MaxDepth allows elsewhere.
	MaxIntrospectionDepth int
	// MaxIntrospectionCost bounds the fields an introspection subtree may
	// return, each list weighted by its real size in this schema.
	MaxIntrospectionCost int
}

// DefaultLimits are generous for dashboards and introspecting clients and
// stop abuse. A value, not a global: a caller that tunes them passes its
// own Limits on.
func DefaultLimits() Limits {
	return Limits{
		MaxDepth:              12,
		MaxCost:               200_000,
		MaxFields:             2000,
		MaxValueDepth:         8,
		MaxNodes:              5000,
		MaxErrors:             20,
		MaxIntrospectionDepth: 16,
		MaxIntrospectionCost:  8_000_000,
	}
}

// maxNesting is the bracket nesting a source may have before it is even
// parsed. It only keeps graphql-go's recursive parser shallow, so it is
// ample (a selection level is two brackets, inline fragments add more):
// the checks on the parsed document give the precise message.
func (l Limits) maxNesting() int {
	return 4 * (max(l.MaxDepth, l.MaxIntrospectionDepth) + l.MaxValueDepth)
}

// checkNesting scans the source once, skipping strings and comments, and
// refuses bracket nesting deeper than max before graphql-go's recursive
// parser sees it (a 1 MiB body is 500 000 levels).
func checkNesting(src string, max int) error {
	if max <= 0 {
		return nil
	}
	depth := 0
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '#':
			for i < len(src) && src[i] != '\n' && src[i] != '\r' {
				i++
			}
		case '"':
			if i+2 < len(src) && src[i+1] == '"' && src[i+2] == '"' {
				// block string: ends at an unescaped """
				i += 3
				for i < len(src) {
					if src[i] == '\\' && i+3 < len(src) && src[i+1:i+4] == `"""` {
						i += 4
						continue
					}
					if i+2 < len(src) && src[i:i+3] == `"""` {
						i += 2
						break
					}
					i++
				}
				continue
			}
			for i++; i < len(src) && src[i] != '"' && src[i] != '\n'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
		case '{', '[', '(':
			depth++
			if depth > max {
				return fmt.Errorf("query depth exceeds the limit: brackets nest deeper than %d levels", max)
			}
		case '}', ']', ')':
			if depth > 0 {
				depth--
			}
		}
	}
	return nil
}

// shape counts what a document writes, definition by definition and
// without expanding fragments, and checks field and argument names
// against the schema, so that floods are refused before validation.
type shape struct {
	schema  *graphql.Schema
	lim     Limits
	fields  int
	nodes   int
	unknown []string
	frags   map[string]*ast.FragmentDefinition
	keys    map[string]map[string]int // response keys a fragment adds to the level it is spread at
}

func (s *shape) node() error {
	s.nodes++
	if s.lim.MaxNodes > 0 && s.nodes > s.lim.MaxNodes {
		return fmt.Errorf("query writes more than %d arguments, directives, variables and values; split it into smaller queries", s.lim.MaxNodes)
	}
	return nil
}

func (s *shape) unknownName(what string) error {
	s.unknown = append(s.unknown, what)
	if s.lim.MaxErrors > 0 && len(s.unknown) > s.lim.MaxErrors {
		return fmt.Errorf("query names more than %d unknown fields, arguments or directives (first: %s)", s.lim.MaxErrors, s.unknown[0])
	}
	return nil
}

// document checks every definition of doc.
func (s *shape) document(doc *ast.Document) error {
	s.frags = map[string]*ast.FragmentDefinition{}
	s.keys = map[string]map[string]int{}
	for _, d := range doc.Definitions {
		if f, ok := d.(*ast.FragmentDefinition); ok && f.Name != nil {
			s.frags[f.Name.Value] = f
		}
	}
	for _, d := range doc.Definitions {
		switch x := d.(type) {
		case *ast.OperationDefinition:
			var root graphql.Type = s.schema.QueryType()
			switch x.Operation {
			case ast.OperationTypeMutation:
				root = s.schema.MutationType()
			case ast.OperationTypeSubscription:
				root = nil // validation reports it; no fields to check
			}
			for _, v := range x.VariableDefinitions {
				if err := s.node(); err != nil {
					return err
				}
				if v.DefaultValue != nil {
					if err := s.value(v.DefaultValue, 1); err != nil {
						return err
					}
				}
			}
			if err := s.directives(x.Directives); err != nil {
				return err
			}
			if err := s.selections(x.SelectionSet, root); err != nil {
				return err
			}
		case *ast.FragmentDefinition:
			if err := s.directives(x.Directives); err != nil {
				return err
			}
			if err := s.selections(x.SelectionSet, s.namedType(x.TypeCondition)); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *shape) namedType(n *ast.Named) graphql.Type {
	if n == nil || n.Name == nil {
		return nil
	}
	return s.schema.Type(n.Name.Value)
}

// maxRepeatedKey caps how often one response key (alias or field name)
// may be written at one level, inline fragments included: graphql-go
// compares every pair of fields sharing a key, and 1 000 aliases of one
// key with different arguments took 7 s.
const maxRepeatedKey = 32

func (s *shape) selections(set *ast.SelectionSet, parent graphql.Type) error {
	return s.level(set, parent, map[string]int{}, map[string]bool{})
}

func addKey(keys map[string]int, key string, n int) error {
	keys[key] += n
	if keys[key] > maxRepeatedKey {
		return fmt.Errorf("query writes the response key %q more than %d times at one level (fragments included)", key, maxRepeatedKey)
	}
	return nil
}

func responseKey(f *ast.Field) string {
	if f.Alias != nil {
		return f.Alias.Value
	}
	if f.Name != nil {
		return f.Name.Value
	}
	return ""
}

// fragmentKeys counts the response keys a fragment puts at the level it
// is spread at (its own, its inline fragments' and its spreads'), once
// per fragment; a cycle counts nothing (it is refused later).
func (s *shape) fragmentKeys(name string, visiting map[string]bool) map[string]int {
	if k, ok := s.keys[name]; ok {
		return k
	}
	f := s.frags[name]
	if f == nil || visiting[name] {
		return nil
	}
	visiting[name] = true
	defer delete(visiting, name)
	keys := map[string]int{}
	seen := map[string]bool{}
	var collect func(set *ast.SelectionSet)
	collect = func(set *ast.SelectionSet) {
		if set == nil {
			return
		}
		for _, sel := range set.Selections {
			switch x := sel.(type) {
			case *ast.Field:
				keys[responseKey(x)]++
			case *ast.InlineFragment:
				collect(x.SelectionSet)
			case *ast.FragmentSpread:
				if x.Name == nil || seen[x.Name.Value] {
					continue
				}
				seen[x.Name.Value] = true
				for k, n := range s.fragmentKeys(x.Name.Value, visiting) {
					keys[k] += n
				}
			}
		}
	}
	collect(f.SelectionSet)
	s.keys[name] = keys
	return keys
}

// level checks set's selections; keys counts the response keys of the
// level set belongs to.
func (s *shape) level(set *ast.SelectionSet, parent graphql.Type, keys map[string]int, spread map[string]bool) error {
	if set == nil {
		return nil
	}
	for _, sel := range set.Selections {
		switch x := sel.(type) {
		case *ast.Field:
			if err := addKey(keys, responseKey(x), 1); err != nil {
				return err
			}
			if err := s.field(x, parent); err != nil {
				return err
			}
		case *ast.InlineFragment:
			if err := s.directives(x.Directives); err != nil {
				return err
			}
			t := parent
			if x.TypeCondition != nil {
				t = s.namedType(x.TypeCondition)
			}
			if err := s.level(x.SelectionSet, t, keys, spread); err != nil {
				return err
			}
		case *ast.FragmentSpread:
			// a spread is a node: 5 000 spreads are as much to validate
			// as 5 000 arguments
			if err := s.node(); err != nil {
				return err
			}
			if err := s.directives(x.Directives); err != nil {
				return err
			}
			// graphql-go compares a fragment spread twice at one level
			// only once
			if x.Name == nil || spread[x.Name.Value] {
				continue
			}
			spread[x.Name.Value] = true
			for k, n := range s.fragmentKeys(x.Name.Value, map[string]bool{}) {
				if err := addKey(keys, k, n); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (s *shape) field(f *ast.Field, parent graphql.Type) error {
	s.fields++
	if s.lim.MaxFields > 0 && s.fields > s.lim.MaxFields {
		return fmt.Errorf("query has more than %d fields, over the limit of %d (aliases count); split it into smaller queries", s.lim.MaxFields, s.lim.MaxFields)
	}
	name := ""
	if f.Name != nil {
		name = f.Name.Value
	}
	fd, known := s.fieldDef(parent, name)
	if parent != nil && !known {
		if err := s.unknownName(fmt.Sprintf("field %q on %s", name, parent.Name())); err != nil {
			return err
		}
	}
	for _, a := range f.Arguments {
		if err := s.node(); err != nil {
			return err
		}
		if fd != nil && a.Name != nil && !hasArgDef(fd.Args, a.Name.Value) {
			if err := s.unknownName(fmt.Sprintf("argument %q on %s.%s", a.Name.Value, parent.Name(), name)); err != nil {
				return err
			}
		}
		if err := s.value(a.Value, 1); err != nil {
			return err
		}
	}
	if err := s.directives(f.Directives); err != nil {
		return err
	}
	var next graphql.Type
	if fd != nil {
		next = namedOf(fd.Type)
	}
	return s.selections(f.SelectionSet, next)
}

// fieldDef looks a field up on parent, meta-fields included; known is
// false when parent cannot have it.
func (s *shape) fieldDef(parent graphql.Type, name string) (fd *graphql.FieldDefinition, known bool) {
	switch name {
	case "__typename":
		return nil, true
	case "__schema", "__type":
		if parent == graphql.Type(s.schema.QueryType()) {
			if name == "__schema" {
				return graphql.SchemaMetaFieldDef, true
			}
			return graphql.TypeMetaFieldDef, true
		}
	}
	var fields graphql.FieldDefinitionMap
	switch p := parent.(type) {
	case *graphql.Object:
		fields = p.Fields()
	case *graphql.Interface:
		fields = p.Fields()
	default:
		return nil, false
	}
	fd = fields[name]
	return fd, fd != nil
}

func hasArgDef(args []*graphql.Argument, name string) bool {
	for _, a := range args {
		if a.Name() == name {
			return true
		}
	}
	return false
}

func (s *shape) directives(ds []*ast.Directive) error {
	for _, d := range ds {
		if err := s.node(); err != nil {
			return err
		}
		var def *graphql.Directive
		if d.Name != nil {
			for _, x := range s.schema.Directives() {
				if x.Name == d.Name.Value {
					def = x
				}
			}
			if def == nil {
				if err := s.unknownName(fmt.Sprintf("directive @%s", d.Name.Value)); err != nil {
					return err
				}
			}
		}
		for _, a := range d.Arguments {
			if err := s.node(); err != nil {
				return err
			}
			if def != nil && a.Name != nil && !hasArgDef(def.Args, a.Name.Value) {
				if err := s.unknownName(fmt.Sprintf("argument %q on @%s", a.Name.Value, def.Name)); err != nil {
					return err
				}
			}
			if err := s.value(a.Value, 1); err != nil {
				return err
			}
		}
	}
	return nil
}

// value counts a literal and checks its nesting.
func (s *shape) value(v ast.Value, depth int) error {
	if err := s.node(); err != nil {
		return err
	}
	if s.lim.MaxValueDepth > 0 && depth > s.lim.MaxValueDepth {
		return fmt.Errorf("an argument value nests deeper than %d levels", s.lim.MaxValueDepth)
	}
	switch x := v.(type) {
	case *ast.ListValue:
		for _, it := range x.Values {
			if err := s.value(it, depth+1); err != nil {
				return err
			}
		}
	case *ast.ObjectValue:
		for _, f := range x.Fields {
			if err := s.value(f.Value, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkVariables bounds the variables' JSON like literals: nesting and
// number of values.
func checkVariables(vars map[string]any, lim Limits) error {
	n := 0
	var walk func(name string, v any, depth int) error
	walk = func(name string, v any, depth int) error {
		n++
		if lim.MaxNodes > 0 && n > lim.MaxNodes {
			return fmt.Errorf("Variables hold more than %d values", lim.MaxNodes)
		}
		if lim.MaxValueDepth > 0 && depth > lim.MaxValueDepth {
			return fmt.Errorf("Variable $%s nests deeper than %d levels", name, lim.MaxValueDepth)
		}
		switch x := v.(type) {
		case []any:
			for _, it := range x {
				if err := walk(name, it, depth+1); err != nil {
					return err
				}
			}
		case map[string]any:
			for _, it := range x {
				if err := walk(name, it, depth+1); err != nil {
					return err
				}
			}
		}
		return nil
	}
	names := slices.Sorted(maps.Keys(vars))
	for _, k := range names {
		if err := walk(k, vars[k], 1); err != nil {
			return err
		}
	}
	return nil
}

// namedOf unwraps lists and non-nulls.
func namedOf(t graphql.Type) graphql.Type {
	for {
		switch x := t.(type) {
		case *graphql.NonNull:
			t = x.OfType
		case *graphql.List:
			t = x.OfType
		default:
			return t
		}
	}
}
