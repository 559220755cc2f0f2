package queries

import (
	"regexp"
	"sort"
)

// MCPProtocolRevision is the MCP revision the projection is written for.
const MCPProtocolRevision = "2025-11-25"

// MCPToolsList is an MCP tools/list result (protocol revision 2025-11-25):
// the Tools of the graph projected into one MCP namespace. Encoded with
// encoding/json it is the result object itself.
type MCPToolsList struct {
	Tools []MCPTool `json:"tools"`
}

// MCPTool is one tool of a tools/list result.
type MCPTool struct {
	Name         string           `json:"name"`
	Title        string           `json:"title,omitempty"`
	Description  string           `json:"description,omitempty"`
	InputSchema  MCPObjectSchema  `json:"inputSchema"`
	OutputSchema *MCPObjectSchema `json:"outputSchema,omitempty"`
	Annotations  *MCPAnnotations  `json:"annotations,omitempty"`
}

// MCPObjectSchema is the object JSON Schema of an inputSchema or
// outputSchema: one property per port.
type MCPObjectSchema struct {
	Type       string                       `json:"type"`
	Properties map[string]MCPPropertySchema `json:"properties"`
	Required   []string                     `json:"required,omitempty"`
}

// MCPPropertySchema is one port as a JSON Schema property. Type is empty
// when the port's type has no known JSON type (then any value is taken).
type MCPPropertySchema struct {
	Type        string             `json:"type,omitempty"`
	Description string             `json:"description,omitempty"`
	Items       *MCPPropertySchema `json:"items,omitempty"`
}

// MCPAnnotations are the tool hints; each is stated only where the Tool
// states it (tri-state, SPEC §2.5: never coerced).
type MCPAnnotations struct {
	ReadOnlyHint    *bool `json:"readOnlyHint,omitempty"`
	DestructiveHint *bool `json:"destructiveHint,omitempty"`
	IdempotentHint  *bool `json:"idempotentHint,omitempty"`
	OpenWorldHint   *bool `json:"openWorldHint,omitempty"`
}

// mcpNameRE is the tool-name guidance of revision 2025-11-25: 1 to 128
// characters of ASCII letters, digits, "_", "-" and ".".
var mcpNameRE = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,128}$`)

// MCPName is the name a Tool is served under: the tool its invoke.mcp
// names when that is a valid MCP tool name (the Tool says so itself, and
// parity links the two by that name), else its id — a pattern such as
// Claude Code's "mcp__github__*" names many tools, none of them this one.
func MCPName(t *Tool) string {
	if mcpNameRE.MatchString(t.McpTool) {
		return t.McpTool
	}
	return t.ID
}

// MCPTools projects the graph's Tools into one tools/list result (issue
// #22): every Tool not itself read from an MCP snapshot, or, with server
// set, those whose invoke.mcp names that server. Sorted by name; of two
// Tools served under one name (a tool-duplicate-id, or two Tools naming
// one MCP tool) the first by id is kept, so the listing never names a
// tool twice. Reading the result back as a snapshot gives an MCP tool
// that agrees with its Tool on every parity rule (parity.go).
func (s *Snapshot) MCPTools(server string) MCPToolsList {
	var picked []*Tool
	for _, t := range s.Tools {
		if t.Origin == "mcp" || server != "" && t.McpServer != server {
			continue
		}
		picked = append(picked, t)
	}
	sort.SliceStable(picked, func(i, j int) bool {
		if a, b := MCPName(picked[i]), MCPName(picked[j]); a != b {
			return a < b
		}
		return picked[i].ID < picked[j].ID
	})
	out := MCPToolsList{Tools: []MCPTool{}}
	seen := map[string]bool{}
	for _, t := range picked {
		name := MCPName(t)
		if seen[name] {
			continue
		}
		seen[name] = true
		out.Tools = append(out.Tools, projectTool(t, name))
	}
	return out
}

func projectTool(t *Tool, name string) MCPTool {
	m := MCPTool{Name: name, Title: t.Title, Description: t.Description, InputSchema: objectSchema(t.Inputs, true)}
	if len(t.Outputs) > 0 {
		o := objectSchema(t.Outputs, false)
		m.OutputSchema = &o
	}
	var a MCPAnnotations
	stated := false
	hint := func(key string, dst **bool) {
		if v := t.Annotations[key]; v != nil {
			b := *v
			*dst, stated = &b, true
		}
	}
	hint("readOnlyHint", &a.ReadOnlyHint)
	hint("destructiveHint", &a.DestructiveHint)
	hint("idempotentHint", &a.IdempotentHint)
	hint("openWorldHint", &a.OpenWorldHint)
	if a.ReadOnlyHint == nil && t.ReadOnly != nil {
		// An authored Tool's readOnly is the same statement as the hint.
		b := *t.ReadOnly
		a.ReadOnlyHint, stated = &b, true
	}
	if stated {
		m.Annotations = &a
	}
	return m
}

// objectSchema is one property per port; required lists the required
// ones (inputs only: an output port states no required flag).
func objectSchema(ports []*Port, inputs bool) MCPObjectSchema {
	o := MCPObjectSchema{Type: "object", Properties: make(map[string]MCPPropertySchema, len(ports))}
	for _, p := range ports {
		if _, dup := o.Properties[p.Name]; dup {
			continue
		}
		prop := MCPPropertySchema{Type: p.JSONType, Description: p.Description}
		if p.Repeated {
			item := MCPPropertySchema{Type: p.JSONType}
			prop = MCPPropertySchema{Type: "array", Description: p.Description, Items: &item}
		}
		o.Properties[p.Name] = prop
		if inputs && p.Required {
			o.Required = append(o.Required, p.Name)
		}
	}
	return o
}
