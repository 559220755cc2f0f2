package tool

import (
	yaml "go.yaml.in/yaml/v3"

	"github.com/skillgraph/skillgraph/ingest/internal/ynode"
	"github.com/skillgraph/skillgraph/ingest/record"
)

// shape lists the known fields of an object; a field's shape is nil when its
// value is not an object checked further. list marks a list of such objects.
type shape struct {
	fields map[string]*shape
	list   bool
	open   bool // any key is fine (checked by the schema, or free-form)
}

var (
	leaf    = (*shape)(nil)
	portIn  = &shape{list: true, fields: map[string]*shape{"name": leaf, "type": leaf, "schema": leaf, "required": leaf, "repeated": leaf, "arg": {open: true}, "description": leaf}}
	portOut = &shape{list: true, fields: map[string]*shape{"name": leaf, "type": leaf, "schema": leaf, "description": leaf,
		"render": {fields: map[string]*shape{"as": leaf, "reason": leaf}}}}

	// toolShape is every field SPEC §2.2 defines.
	toolShape = &shape{fields: map[string]*shape{
		"$schema": leaf, "$comment": leaf,
		"id": leaf, "title": leaf, "description": leaf, "satisfies": leaf,
		"install": {fields: map[string]*shape{"cli": leaf, "container": leaf, "service": leaf, "none": leaf}},
		"invoke": {fields: map[string]*shape{
			"shell": leaf, "container": leaf, "manual": leaf,
			"mcp":       {fields: map[string]*shape{"server": leaf, "tool": leaf}},
			"inProcess": {fields: map[string]*shape{"module": leaf}},
		}},
		"io":           {fields: map[string]*shape{"inputs": portIn, "outputs": portOut}},
		"selection":    {fields: map[string]*shape{"when": leaf, "limits": leaf, "cost": leaf}},
		"requires":     {fields: map[string]*shape{"os": leaf, "runtime": leaf, "network": leaf}},
		"remedies":     {list: true, fields: map[string]*shape{"host": leaf, "tool": leaf, "none": leaf}},
		"maintains":    {list: true, fields: map[string]*shape{"source": leaf, "artefact": leaf, "format": leaf}},
		"renders":      leaf,
		"subprocesses": leaf,
		"readOnly":     leaf,
	}}
)

// unknownFields reports fields SPEC §2.2 does not define as
// tool-unknown-field warnings; top-level ones are kept in t.Extra.
func (f *fileParser) unknownFields(n *yaml.Node, base, subject string, t *record.Tool) {
	for _, pr := range ynode.Pairs(n) {
		k := pr.Key.Value
		if _, ok := toolShape.fields[k]; ok {
			continue
		}
		v, err := ynode.ToAny(pr.Value)
		if err == nil {
			if t.Extra == nil {
				t.Extra = map[string]any{}
			}
			t.Extra[k] = v
		}
		f.add(record.CodeToolUnknownField, ynode.Line(pr.Key), subject,
			"%s: %s: tool %q has unknown field %q (kept as data)", f.path, jsonPath(base, k), t.ID, k)
	}
	for _, pr := range ynode.Pairs(n) {
		if sub := toolShape.fields[pr.Key.Value]; sub != nil {
			f.nested(pr.Value, sub, jsonPath(base, pr.Key.Value), subject)
		}
	}
}

// nested checks one known object (or list of objects) against its shape.
func (f *fileParser) nested(n *yaml.Node, s *shape, at, subject string) {
	if n == nil || s == nil || s.open {
		return
	}
	if s.list {
		for i, it := range ynode.Items(n) {
			f.object(it, s, at+"["+itoa(i)+"]", subject)
		}
		return
	}
	f.object(n, s, at, subject)
}

func (f *fileParser) object(n *yaml.Node, s *shape, at, subject string) {
	for _, pr := range ynode.Pairs(n) {
		k := pr.Key.Value
		sub, ok := s.fields[k]
		if !ok {
			f.add(record.CodeToolUnknownField, ynode.Line(pr.Key), subject,
				"%s: %s: unknown field %q", f.path, jsonPath(at, k), k)
			continue
		}
		if sub != nil {
			f.nested(pr.Value, sub, jsonPath(at, k), subject)
		}
	}
}
