package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/graphql-go/graphql"
	"github.com/graphql-go/graphql/language/ast"
)

// The response's keys in the order the selection set asked for them
// (GraphQL spec §7.2.2, "Serialized Map Ordering": "the order in which
// fields appear in the response must match the order of the field
// selections"). graphql-go answers maps, which encoding/json writes with
// sorted keys; this encoder walks the operation's selection sets beside
// the data and writes each object's keys in CollectFields order: fields
// in document order, fragment spreads and inline fragments expanded where
// they stand, @skip and @include applied, a response key at its first
// occurrence with the selections of every occurrence merged.
//
// At an interface or union position the data does not say which object
// type the value is (graphql-go resolved it and kept no trace): its
// __typename says so when selected; else the possible type whose fields
// the value's keys fit best (every key, fewest missing) is taken.

// orderer encodes results of one operation of a document.
type orderer struct {
	schema *graphql.Schema
	frags  map[string]*ast.FragmentDefinition
	vars   map[string]any
	defs   []*ast.VariableDefinition
	// gathered memoises the response keys of (type, selection sets): a
	// list answers many objects of one type to one selection, and
	// collecting its keys again per object was most of the encoding of a
	// 500-node page.
	gathered map[gatherKey][]gathering
}

// gatherKey narrows the memo of gathered: the type, the first selection
// set and how many there are (the entries compare the whole list).
type gatherKey struct {
	t     graphql.Type
	first *ast.SelectionSet
	n     int
}

// gathering is one memoised collection of response keys.
type gathering struct {
	sets   []*ast.SelectionSet
	fields []*collected
	index  map[string]*collected
}

func newOrderer(schema *graphql.Schema, doc *ast.Document, op *ast.OperationDefinition, vars map[string]any) *orderer {
	o := &orderer{schema: schema, frags: map[string]*ast.FragmentDefinition{}, vars: vars, gathered: map[gatherKey][]gathering{}}
	for _, d := range doc.Definitions {
		if f, ok := d.(*ast.FragmentDefinition); ok && f.Name != nil {
			o.frags[f.Name.Value] = f
		}
	}
	if op != nil {
		o.defs = op.VariableDefinitions
	}
	return o
}

// operation is the operation graphql-go runs for the name: the only one
// when the name is empty.
func operation(doc *ast.Document, name string) *ast.OperationDefinition {
	var found *ast.OperationDefinition
	for _, d := range doc.Definitions {
		op, ok := d.(*ast.OperationDefinition)
		if !ok {
			continue
		}
		if name == "" || (op.Name != nil && op.Name.Value == name) {
			if found != nil {
				return nil
			}
			found = op
		}
	}
	return found
}

// rootType is the object type an operation's selection is on.
func (o *orderer) rootType(op *ast.OperationDefinition) graphql.Type {
	if op.Operation == ast.OperationTypeMutation {
		return o.schema.MutationType()
	}
	return o.schema.QueryType()
}

// encodeData writes the data of op.
func (o *orderer) encodeData(buf *bytes.Buffer, data any, op *ast.OperationDefinition) error {
	return o.value(buf, data, o.rootType(op), []*ast.SelectionSet{op.SelectionSet})
}

// fieldValue writes the value of one root field (ExecuteShared stores
// each alone).
func (o *orderer) fieldValue(buf *bytes.Buffer, v any, op *ast.OperationDefinition, f *ast.Field) error {
	t := o.fieldType(o.rootType(op), f.Name.Value)
	return o.value(buf, v, t, []*ast.SelectionSet{f.SelectionSet})
}

// value writes v, an answer of type t to the given selection sets.
func (o *orderer) value(buf *bytes.Buffer, v any, t graphql.Type, sets []*ast.SelectionSet) error {
	for {
		nn, ok := t.(*graphql.NonNull)
		if !ok {
			break
		}
		t = nn.OfType
	}
	switch x := v.(type) {
	case nil:
		buf.WriteString("null")
		return nil
	case string:
		writeString(buf, x)
		return nil
	case bool:
		buf.WriteString(strconv.FormatBool(x))
		return nil
	case int:
		buf.Write(strconv.AppendInt(buf.AvailableBuffer(), int64(x), 10))
		return nil
	case map[string]any:
		return o.object(buf, x, t, sets)
	case []any:
		var elem graphql.Type
		if l, ok := t.(*graphql.List); ok {
			elem = l.OfType
		}
		buf.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := o.value(buf, e, elem, sets); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode a %T: %w", v, err)
	}
	buf.Write(b)
	return nil
}

// collected is one response key of an object: the field it answers and
// every selection set asked of it, on the type that defines the field.
type collected struct {
	key    string
	parent graphql.Type
	name   string
	sets   []*ast.SelectionSet
	// enc is key as JSON, typ the field's type: made once per memoised
	// collection (see orderer.gathered).
	enc []byte
	typ graphql.Type
}

// object writes m with its keys in selection order; a key no selection
// names (none should be) follows, sorted, so nothing is lost.
func (o *orderer) object(buf *bytes.Buffer, m map[string]any, t graphql.Type, sets []*ast.SelectionSet) error {
	fields, index := o.fields(m, t, sets)
	buf.WriteByte('{')
	n := 0
	write := func(key []byte, v any, ft graphql.Type, sub []*ast.SelectionSet) error {
		if n > 0 {
			buf.WriteByte(',')
		}
		n++
		buf.Write(key)
		buf.WriteByte(':')
		return o.value(buf, v, ft, sub)
	}
	for _, f := range fields {
		v, ok := m[f.key]
		if !ok {
			continue
		}
		if err := write(f.enc, v, f.typ, f.sets); err != nil {
			return err
		}
	}
	var rest []string
	for k := range m {
		if index[k] == nil {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	for _, k := range rest {
		enc, _ := json.Marshal(k)
		if err := write(enc, m[k], nil, nil); err != nil {
			return err
		}
	}
	buf.WriteByte('}')
	return nil
}

// fields collects the response keys of an object of type t; at an
// abstract type, of the concrete type m is (see concrete).
func (o *orderer) fields(m map[string]any, t graphql.Type, sets []*ast.SelectionSet) ([]*collected, map[string]*collected) {
	gather := func(at graphql.Type) ([]*collected, map[string]*collected) { return o.gather(at, sets) }
	abs, ok := t.(graphql.Abstract)
	if !ok {
		return gather(t)
	}
	fields, index := gather(t) // every fragment: where __typename is
	for _, f := range fields {
		if name, ok := m[f.key].(string); ok && f.name == "__typename" {
			if obj, ok := o.schema.Type(name).(*graphql.Object); ok {
				return gather(obj)
			}
		}
	}
	best, bestMissing := -1, 0
	possible := o.schema.PossibleTypes(abs)
	for i, obj := range possible {
		f, idx := gather(obj)
		fits := true
		for k := range m {
			if idx[k] == nil {
				fits = false
				break
			}
		}
		if !fits {
			continue
		}
		if missing := len(f) - len(m); best < 0 || missing < bestMissing {
			best, bestMissing = i, missing
		}
	}
	if best >= 0 {
		return gather(possible[best])
	}
	return fields, index
}

// gather collects the response keys of an object of type at to sets,
// once per orderer (the collection depends on nothing else).
func (o *orderer) gather(at graphql.Type, sets []*ast.SelectionSet) ([]*collected, map[string]*collected) {
	k := gatherKey{t: at, n: len(sets)}
	if len(sets) > 0 {
		k.first = sets[0]
	}
	for _, g := range o.gathered[k] {
		if slices.Equal(g.sets, sets) {
			return g.fields, g.index
		}
	}
	var fields []*collected
	index := map[string]*collected{}
	visited := map[string]bool{}
	for _, s := range sets {
		o.collect(s, at, at, &fields, index, visited)
	}
	for _, f := range fields {
		f.enc, _ = json.Marshal(f.key)
		f.typ = o.fieldType(f.parent, f.name)
	}
	o.gathered[k] = append(o.gathered[k], gathering{sets: slices.Clone(sets), fields: fields, index: index})
	return fields, index
}

// writeString writes s as encoding/json does: a string of printable ASCII
// that HTML escaping leaves alone is quoted as it is, anything else is
// left to encoding/json (escapes, HTML-safe <, > and &, U+2028, invalid
// UTF-8), so the bytes are json.Marshal's.
func writeString(buf *bytes.Buffer, s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			b, _ := json.Marshal(s)
			buf.Write(b)
			return
		}
	}
	buf.WriteByte('"')
	buf.WriteString(s)
	buf.WriteByte('"')
}

// collect appends the fields of one selection set on the object (or
// abstract) type at, looked up on on (a fragment's type condition).
func (o *orderer) collect(s *ast.SelectionSet, at, on graphql.Type, fields *[]*collected, index map[string]*collected, visited map[string]bool) {
	if s == nil {
		return
	}
	for _, sel := range s.Selections {
		switch x := sel.(type) {
		case *ast.Field:
			if !o.included(x.Directives) || x.Name == nil {
				continue
			}
			key := x.Name.Value
			if x.Alias != nil && x.Alias.Value != "" {
				key = x.Alias.Value
			}
			c := index[key]
			if c == nil {
				c = &collected{key: key, parent: on, name: x.Name.Value}
				index[key] = c
				*fields = append(*fields, c)
			}
			if x.SelectionSet != nil {
				c.sets = append(c.sets, x.SelectionSet)
			}
		case *ast.InlineFragment:
			if !o.included(x.Directives) {
				continue
			}
			cond := on
			if x.TypeCondition != nil && x.TypeCondition.Name != nil {
				if !o.applies(x.TypeCondition.Name.Value, at) {
					continue
				}
				cond = o.schema.Type(x.TypeCondition.Name.Value)
			}
			o.collect(x.SelectionSet, at, cond, fields, index, visited)
		case *ast.FragmentSpread:
			if x.Name == nil || !o.included(x.Directives) || visited[x.Name.Value] {
				continue
			}
			visited[x.Name.Value] = true
			fd := o.frags[x.Name.Value]
			if fd == nil {
				continue
			}
			cond := on
			if fd.TypeCondition != nil && fd.TypeCondition.Name != nil {
				if !o.applies(fd.TypeCondition.Name.Value, at) {
					continue
				}
				cond = o.schema.Type(fd.TypeCondition.Name.Value)
			}
			o.collect(fd.SelectionSet, at, cond, fields, index, visited)
		}
	}
}

// applies reports whether a fragment on the named type applies to a value
// of type at: at is that type, implements it or is a member of it; at an
// abstract type the concrete one is unknown, so every fragment may.
func (o *orderer) applies(name string, at graphql.Type) bool {
	obj, ok := at.(*graphql.Object)
	if !ok {
		return true
	}
	if obj.Name() == name {
		return true
	}
	switch c := o.schema.Type(name).(type) {
	case *graphql.Interface:
		return slices.Contains(obj.Interfaces(), c)
	case *graphql.Union:
		return slices.Contains(c.Types(), obj)
	}
	return false
}

// fieldType is the type of the named field of t (nil when unknown: the
// value is then written as it is, with its selection still applied).
func (o *orderer) fieldType(t graphql.Type, name string) graphql.Type {
	switch name {
	case "__schema":
		return graphql.SchemaType
	case "__type":
		return graphql.TypeType
	case "__typename":
		return graphql.String
	}
	var defs graphql.FieldDefinitionMap
	switch x := t.(type) {
	case *graphql.Object:
		defs = x.Fields()
	case *graphql.Interface:
		defs = x.Fields()
	}
	if fd := defs[name]; fd != nil {
		return fd.Type
	}
	return nil
}

// included applies @skip and @include (a literal or a variable, else the
// variable's default).
func (o *orderer) included(dirs []*ast.Directive) bool {
	for _, d := range dirs {
		if d.Name == nil || (d.Name.Value != "skip" && d.Name.Value != "include") {
			continue
		}
		var cond bool
		for _, a := range d.Arguments {
			if a.Name != nil && a.Name.Value == "if" {
				cond = o.boolean(a.Value)
			}
		}
		if d.Name.Value == "skip" && cond || d.Name.Value == "include" && !cond {
			return false
		}
	}
	return true
}

func (o *orderer) boolean(v ast.Value) bool {
	switch x := v.(type) {
	case *ast.BooleanValue:
		return x.Value
	case *ast.Variable:
		if x.Name == nil {
			return false
		}
		if b, ok := o.vars[x.Name.Value].(bool); ok {
			return b
		}
		for _, d := range o.defs {
			if d.Variable != nil && d.Variable.Name != nil && d.Variable.Name.Value == x.Name.Value && d.DefaultValue != nil {
				return o.boolean(d.DefaultValue)
			}
		}
	}
	return false
}
