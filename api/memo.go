package api

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/graphql-go/graphql/language/ast"

	"github.com/skillgraph/skillgraph/queries"
)

// FieldCache holds the encoded answers of root query fields, each for the
// snapshot it was computed from (issue #14: "expensive lists computed
// once per version"). Get must answer only for the same snapshot; Put
// may drop what it is given. Implementations are safe for concurrent
// use.
type FieldCache interface {
	Get(snap *queries.Snapshot, key string) ([]byte, bool)
	Put(snap *queries.Snapshot, key string, body []byte)
}

// ExecuteShared is ExecuteDocument with the root fields of a query
// shared through fc: a root field asked before under the same snapshot —
// same name, arguments, selection, fragments it uses, values of the
// variables it uses, and viewer — is answered from its stored encoding,
// whatever else the document asks, and only the others run. So a
// dashboard's new query, or its old one under a new variable, costs the
// parts nobody asked before. The data is json.RawMessage, its keys in
// selection order as every response's (order.go). Documents whose root is not a
// plain list of distinct fields, mutations, and answers with errors run
// as ExecuteDocument runs them.
func (s *Schema) ExecuteShared(ctx context.Context, snap *queries.Snapshot, doc *Document, req Request, lim Limits, fc FieldCache) *Response {
	if res := s.check(ctx, doc, req, lim); res != nil {
		return res
	}
	op, roots := doc.sharedRoots(req.OperationName)
	if fc == nil || roots == nil {
		return s.run(ctx, snap, doc, req, lim)
	}
	viewer, _ := ctx.Value(viewerKey{}).(Viewer)
	keys := make([]string, len(roots))
	raw := make([][]byte, len(roots))
	var missed []ast.Selection
	for i, f := range roots {
		keys[i] = doc.fieldKey(op, f, viewer, req.Variables)
		raw[i], _ = fc.Get(snap, keys[i])
	}
	// A field another request is computing right now (the first requests
	// after a new graph version all miss together) is waited for, not
	// computed again; one that request could not store is computed here.
	waited := false
	for i := range roots {
		if raw[i] != nil {
			continue
		}
		if fl, ok := s.flights.Load(flightKey{snap, keys[i]}); ok {
			select {
			case <-fl.(chan struct{}):
			case <-ctx.Done():
				return s.run(ctx, snap, doc, req, lim) // answers with the deadline's error
			}
			waited = true
		}
	}
	for i, f := range roots {
		if raw[i] == nil && waited {
			raw[i], _ = fc.Get(snap, keys[i])
		}
		if raw[i] == nil {
			missed = append(missed, f)
			done := make(chan struct{})
			if _, loaded := s.flights.LoadOrStore(flightKey{snap, keys[i]}, done); !loaded {
				defer func(k flightKey) {
					s.flights.Delete(k)
					close(done)
				}(flightKey{snap, keys[i]})
			}
		}
	}
	if len(missed) > 0 {
		sub := doc
		if len(missed) < len(roots) {
			sub = doc.only(op, missed)
		}
		res := s.run(ctx, snap, sub, req, lim)
		data, ok := res.Data.(map[string]any)
		if len(res.Errors) > 0 || !ok {
			if sub == doc {
				return res
			}
			// an error is answered in the context of the whole document
			// (a null may propagate to the root), so that runs as is
			return s.run(ctx, snap, doc, req, lim)
		}
		ord := newOrderer(&s.gql, doc.ast, op, req.Variables)
		for i, f := range roots {
			if raw[i] != nil {
				continue
			}
			var buf bytes.Buffer
			if err := ord.fieldValue(&buf, data[responseName(f)], op, f); err != nil {
				return s.run(ctx, snap, doc, req, lim)
			}
			b := buf.Bytes()
			raw[i] = b
			fc.Put(snap, keys[i], b)
		}
	}
	body := assemble(roots, raw)
	return &Response{Data: json.RawMessage(body[len(dataPrefix) : len(body)-1]), encoded: body}
}

// flightKey names a root field being computed for a snapshot.
type flightKey struct {
	snap *queries.Snapshot
	key  string
}

// dataPrefix opens an encoded response without errors.
const dataPrefix = `{"data":`

// assemble writes the response of the root fields, {"data":{…}} with the
// keys in selection order, with room for one more byte (the server's
// newline).
func assemble(roots []*ast.Field, raw [][]byte) []byte {
	order := make([]int, len(roots))
	for i := range order {
		order[i] = i
	}
	n := len(dataPrefix) + 4
	for i, b := range raw {
		n += len(responseName(roots[i])) + 4 + len(b)
	}
	out := make([]byte, 0, n)
	out = append(out, dataPrefix...)
	out = append(out, '{')
	for k, i := range order {
		if k > 0 {
			out = append(out, ',')
		}
		// response names are GraphQL names ([_A-Za-z][_0-9A-Za-z]*):
		// nothing to escape
		out = append(out, '"')
		out = append(out, responseName(roots[i])...)
		out = append(out, '"', ':')
		out = append(out, raw[i]...)
	}
	return append(out, '}', '}')
}

func responseName(f *ast.Field) string {
	if f.Alias != nil && f.Alias.Value != "" {
		return f.Alias.Value
	}
	return f.Name.Value
}

// sharedRoots returns the operation that would run and its root fields
// when it is a query whose selection is distinct plain fields (no
// directives, no fragments at the root, no response name twice: those
// merge or skip fields, which per-field answers would not); else nil.
func (d *Document) sharedRoots(operationName string) (*ast.OperationDefinition, []*ast.Field) {
	var op *ast.OperationDefinition
	for _, def := range d.ast.Definitions {
		o, ok := def.(*ast.OperationDefinition)
		if !ok {
			continue
		}
		if operationName == "" || (o.Name != nil && o.Name.Value == operationName) {
			if op != nil {
				return nil, nil // ambiguous; execution reports it
			}
			op = o
		}
	}
	if op == nil || op.Operation != ast.OperationTypeQuery || len(op.Directives) > 0 || op.SelectionSet == nil || d.src == "" {
		return nil, nil
	}
	roots := make([]*ast.Field, 0, len(op.SelectionSet.Selections))
	seen := map[string]bool{}
	for _, sel := range op.SelectionSet.Selections {
		f, ok := sel.(*ast.Field)
		if !ok || len(f.Directives) > 0 || f.Loc == nil || f.Name == nil || f.Name.Loc == nil || seen[responseName(f)] {
			return nil, nil
		}
		seen[responseName(f)] = true
		roots = append(roots, f)
	}
	return op, roots
}

// only is the document with op reduced to the given root fields (its
// variables and every fragment kept).
func (d *Document) only(op *ast.OperationDefinition, fields []ast.Selection) *Document {
	sub := ast.NewOperationDefinition(&ast.OperationDefinition{
		Loc: op.Loc, Operation: op.Operation, Name: op.Name, VariableDefinitions: op.VariableDefinitions,
		SelectionSet: ast.NewSelectionSet(&ast.SelectionSet{Loc: op.SelectionSet.Loc, Selections: fields}),
	})
	defs := []ast.Node{sub}
	for _, def := range d.ast.Definitions {
		if _, ok := def.(*ast.FragmentDefinition); ok {
			defs = append(defs, def)
		}
	}
	return &Document{ast: ast.NewDocument(&ast.Document{Loc: d.ast.Loc, Definitions: defs}), src: d.src}
}

// fieldKey names the answer of one root field: the field as written
// from its name on (the alias only names it in the response), the
// fragments it spreads, directly or through others, the definitions and
// values of the variables those use, and the viewer. Texts are
// normalised (NormalizeQuery), so layout does not matter; a `$` or `...`
// inside a string only adds to the key.
func (d *Document) fieldKey(op *ast.OperationDefinition, f *ast.Field, v Viewer, vars map[string]any) string {
	text := NormalizeQuery(d.src[f.Name.Loc.Start:f.Loc.End])
	h := sha256.New()
	part := func(s string) {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	part("field")
	part(v.Key())
	part(text)
	frags := map[string]string{}
	todo := []string{text}
	for len(todo) > 0 {
		t := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		for _, name := range spreadNames(t) {
			if _, ok := frags[name]; ok {
				continue
			}
			frags[name] = ""
			if fd := d.fragment(name); fd != nil && fd.Loc != nil {
				frags[name] = NormalizeQuery(d.src[fd.Loc.Start:fd.Loc.End])
				todo = append(todo, frags[name])
			}
		}
	}
	used := map[string]bool{}
	for _, name := range slices.Sorted(maps.Keys(frags)) {
		part(frags[name])
	}
	for _, t := range append([]string{text}, mapValues(frags)...) {
		for _, name := range names(t, "$") {
			used[name] = true
		}
	}
	for _, name := range slices.Sorted(maps.Keys(used)) {
		part("$" + name + "=" + d.variableDefinition(op, name))
		if val, ok := vars[name]; ok {
			b, _ := json.Marshal(val)
			part(string(b))
		} else {
			part("absent")
		}
	}
	return string(h.Sum(nil))
}

// spreadNames lists the fragment names spread in a normalised text ("...N",
// not "...on T" nor "...@d").
func spreadNames(text string) []string {
	var out []string
	for _, n := range names(text, "...") {
		if n != "on" {
			out = append(out, n)
		}
	}
	return out
}

// names lists the GraphQL names that follow each occurrence of prefix.
func names(text, prefix string) []string {
	var out []string
	for {
		i := strings.Index(text, prefix)
		if i < 0 {
			return out
		}
		text = text[i+len(prefix):]
		j := 0
		for j < len(text) && isNameByte(text[j]) {
			j++
		}
		if j > 0 {
			out = append(out, text[:j])
		}
		text = text[j:]
	}
}

func (d *Document) fragment(name string) *ast.FragmentDefinition {
	for _, def := range d.ast.Definitions {
		if fd, ok := def.(*ast.FragmentDefinition); ok && fd.Name != nil && fd.Name.Value == name {
			return fd
		}
	}
	return nil
}

// variableDefinition is the normalised text of $name's definition in op
// (type and default value), "" when it has none.
func (d *Document) variableDefinition(op *ast.OperationDefinition, name string) string {
	for _, vd := range op.VariableDefinitions {
		if vd.Variable != nil && vd.Variable.Name != nil && vd.Variable.Name.Value == name && vd.Loc != nil {
			return NormalizeQuery(d.src[vd.Loc.Start:vd.Loc.End])
		}
	}
	return ""
}

func mapValues(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}
