package mcp

import (
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/skillgraph/skillgraph/ingest/internal/ynode"
	"github.com/skillgraph/skillgraph/ingest/record"
)

// hints are the MCP tool annotations kept tri-state.
var hints = []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}

// snapshot accumulates the state of one file.
type snapshot struct {
	path     string
	server   string
	ids      map[string]bool
	next     map[string]int // id → the next suffix to try, so n tools of one name cost n, not n²
	names    map[string]int // MCP name → line of its first listing
	findings []record.Finding
	items    int  // ports read so far (bounded by ynode.MaxItemsPerFile)
	overflow bool // over MaxItemsPerFile: the tools after are not read
}

// add appends a finding of a registered code about subject.
func (s *snapshot) add(code string, line int, subject, msg string) {
	s.findings = append(s.findings, record.New(code, s.path, line, subject, msg))
}

// tool maps one listed MCP tool; ok is false when the entry has no name.
func (s *snapshot) tool(i int, n *yaml.Node) (record.Tool, bool) {
	name := ynode.Str(ynode.Get(n, "name"))
	if !ynode.IsMap(n) || strings.TrimSpace(name) == "" {
		s.add(record.CodeMCPInvalid, ynode.Line(n), "",
			fmt.Sprintf("%s: tools[%d] is not an MCP tool (an object with a non-empty \"name\")", s.path, i))
		return record.Tool{}, false
	}
	id := s.uniqueID(Slug(s.server) + "." + Slug(name))
	if first, dup := s.names[name]; dup {
		s.add(record.CodeMCPToolDuplicate, ynode.Line(n), id,
			fmt.Sprintf("%s: server %q lists tool %q twice (first on line %d); both are kept, this one as %s", s.path, s.server, name, first, id))
	} else {
		s.names[name] = ynode.Line(n)
	}
	ann := ynode.Get(n, "annotations")
	t := record.Tool{
		ID:          id,
		Origin:      "mcp",
		Title:       firstNonEmpty(ynode.Str(ynode.Get(n, "title")), ynode.Str(ynode.Get(ann, "title")), name),
		Description: ynode.Str(ynode.Get(n, "description")),
		Line:        ynode.Line(n),
		Invoke:      record.Invoke{McpServer: s.server, McpTool: name},
		Server:      s.server,
		McpName:     name,
	}
	for _, h := range hints {
		if b, ok := ynode.Bool(ynode.Get(ann, h)); ok {
			if t.Annotations == nil {
				t.Annotations = map[string]bool{}
			}
			t.Annotations[h] = b
		}
	}
	if b, ok := t.Annotations["readOnlyHint"]; ok {
		t.ReadOnly = &b
	}
	in := ynode.Get(n, "inputSchema")
	if !ynode.IsMap(in) {
		s.add(record.CodeMCPInvalid, ynode.Line(n), id,
			fmt.Sprintf("%s: tool %q has no inputSchema object (required by tools/list); kept without inputs", s.path, name))
	}
	for _, field := range []string{"inputSchema", "outputSchema"} {
		count, over := ynode.TooMany(ynode.Get(ynode.Get(n, field), "properties"))
		if over {
			s.add(record.CodeMCPInvalid, ynode.Line(n), id, fmt.Sprintf("%s: tool %q: %s has %d properties, over the limit of %d ports; the tool is not read", s.path, name, field, count, ynode.MaxItems))
			return record.Tool{}, false
		}
		if s.items += count; s.items > ynode.MaxItemsPerFile {
			if !s.overflow {
				s.add(record.CodeMCPInvalid, ynode.Line(n), id, fmt.Sprintf("%s: the snapshot's tools have more than %d ports in all; tool %q and the tools after it are not read", s.path, ynode.MaxItemsPerFile, name))
			}
			s.overflow = true
			return record.Tool{}, false
		}
	}
	t.Inputs = ports(in)
	t.Outputs = ports(ynode.Get(n, "outputSchema"))
	t.OutputSchema = ynode.IsMap(ynode.Get(n, "outputSchema"))
	return t, true
}

// uniqueID returns id, or id-2, id-3, … when id is taken in this file.
func (s *snapshot) uniqueID(id string) string {
	out := id
	k := max(s.next[id], 2)
	for ; s.ids[out]; k++ {
		out = fmt.Sprintf("%s-%d", id, k)
	}
	s.next[id] = k
	s.ids[out] = true
	return out
}

// ports makes one port per top-level property of a JSON Schema object.
func ports(schema *yaml.Node) []record.Port {
	req := map[string]bool{}
	for _, r := range ynode.Strings(ynode.Get(schema, "required")) {
		req[r] = true
	}
	var out []record.Port
	for _, pr := range ynode.Pairs(ynode.Get(schema, "properties")) {
		prop := pr.Value
		p := record.Port{
			Name:        pr.Key.Value,
			JSONType:    ynode.SchemaType(ynode.Get(prop, "type")),
			Required:    req[pr.Key.Value],
			Description: ynode.Str(ynode.Get(prop, "description")),
			Line:        ynode.Line(pr.Key),
		}
		if p.JSONType != "" {
			p.TypeIRI = "json:" + p.JSONType
		}
		out = append(out, p)
	}
	return out
}

// Slug lower-cases s and turns every run of characters outside [a-z0-9]
// into one "-", trimmed at both ends; "" becomes "tool".
func Slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			continue
		}
		dash = true
	}
	if b.Len() == 0 {
		return "tool"
	}
	return b.String()
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}
