package queries

import (
	"strconv"
	"strings"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// Parity states (Parity.State).
const (
	// ParityAgrees: every pair of the Tool agrees (names, required split,
	// types, outputs where listed, description).
	ParityAgrees = "agrees"
	// ParityDisagrees: at least one pair has a parity finding.
	ParityDisagrees = "disagrees"
	// ParityUnlisted: an authored Tool's invoke.mcp names a tool its
	// server's snapshot does not list.
	ParityUnlisted = "unlisted"
	// ParityUnrecorded: an authored Tool's invoke.mcp names a server of
	// which the graph holds no snapshot, so there is nothing to compare.
	ParityUnrecorded = "unrecorded"
	// ParityUnauthored: a listed MCP tool no authored Tool describes.
	ParityUnauthored = "unauthored"
)

// Parity is how a Tool's MCP side agrees with the other side (SPEC §2.5,
// the exposedBy edge): for an authored Tool with invoke.mcp, its ports and
// description against the listed MCP tools that expose it; for an
// MCP-derived Tool, the same pairs seen from the listing.
type Parity struct {
	State string
	// Against is the other side: the MCP-derived Tools an authored Tool is
	// exposed by, or the authored Tools that describe a listed tool.
	Against []*Tool
	// Findings are the pairs' disagreements (each on the authored Tool's
	// file and line), or the mcp-tool-unlisted / -unauthored finding.
	Findings []Finding
	// Ports is, for an authored Tool with a listed counterpart, each of its
	// ports in order (inputs, then outputs when a listing states an
	// outputSchema) with the codes of that port's disagreements: none when
	// the port agrees with every listed tool.
	Ports []PortParity
}

// PortParity is one authored port's parity with the listed tools.
type PortParity struct {
	Name   string
	Output bool
	Codes  []string
}

// parity compares every authored Tool with the listed MCP tools that
// expose it, and reports listed tools no Tool describes and Tools naming
// a tool no snapshot lists. It writes only Tool.Parity. Under an exposure
// profile the unlisted/unauthored checks are skipped (a profile hides
// Tools on purpose, so either side may be missing; the full graph reports).
func (s *Snapshot) parity(out *findings) {
	servers := map[string]*Server{}
	for _, sv := range s.Servers {
		if servers[sv.Name] == nil {
			servers[sv.Name] = sv
		}
	}
	describedBy := map[*Tool][]*Tool{}
	pairs := map[[2]*Tool][]Finding{} // (authored, listed) → its disagreements
	for _, t := range s.Tools {
		if t.Origin == "mcp" || t.McpTool == "" {
			continue
		}
		if len(t.ExposedBy) == 0 {
			t.Parity = &Parity{State: ParityUnrecorded}
			sv, recorded := servers[t.McpServer], len(servers) > 0
			if t.McpServer != "" {
				recorded = sv != nil
			}
			if recorded && s.Profile == "" {
				t.Parity.State = ParityUnlisted
				f := s.unlisted(t, sv)
				t.Parity.Findings = []Finding{f}
				out.add(f)
			}
			continue
		}
		p := &Parity{State: ParityAgrees, Against: t.ExposedBy}
		p.Ports = make([]PortParity, 0, len(t.Inputs)+len(t.Outputs))
		for _, in := range t.Inputs {
			p.Ports = append(p.Ports, PortParity{Name: in.Name})
		}
		outputs := false
		for _, m := range t.ExposedBy {
			outputs = outputs || m.OutputSchema
		}
		if outputs {
			for _, o := range t.Outputs {
				p.Ports = append(p.Ports, PortParity{Name: o.Name, Output: true})
			}
		}
		for _, m := range t.ExposedBy {
			describedBy[m] = append(describedBy[m], t)
			fs := s.comparePair(t, m, p.Ports)
			pairs[[2]*Tool{t, m}] = fs
			p.Findings = append(p.Findings, fs...)
			for _, f := range fs {
				out.add(f)
			}
		}
		if len(p.Findings) > 0 {
			p.State = ParityDisagrees
		}
		t.Parity = p
	}
	for _, m := range s.Tools {
		if m.Origin != "mcp" {
			continue
		}
		authored := describedBy[m]
		if len(authored) == 0 {
			m.Parity = &Parity{State: ParityUnauthored}
			if s.Profile == "" {
				f := s.finding(record.CodeMCPToolUnauthored, m.Source, m.Line, m.IRI,
					"server %q lists tool %q, which no Tool describes (no invoke.mcp names it)", m.Server, m.McpName)
				m.Parity.Findings = []Finding{f}
				out.add(f)
			}
			continue
		}
		p := &Parity{State: ParityAgrees, Against: authored}
		for _, a := range authored {
			p.Findings = append(p.Findings, pairs[[2]*Tool{a, m}]...)
		}
		if len(p.Findings) > 0 {
			p.State = ParityDisagrees
		}
		m.Parity = p
	}
}

// unlisted is the mcp-tool-unlisted finding of t; sv is the snapshot of
// the server t names, nil when t names none.
func (s *Snapshot) unlisted(t *Tool, sv *Server) Finding {
	if sv == nil {
		return s.finding(record.CodeMCPToolUnlisted, t.Source, t.Line, t.IRI,
			"Tool %s: invoke.mcp names tool %q, which no MCP snapshot lists", t.ID, t.McpTool)
	}
	return s.finding(record.CodeMCPToolUnlisted, t.Source, t.Line, t.IRI,
		"Tool %s: invoke.mcp names tool %q of server %q, which its snapshot %s does not list", t.ID, t.McpTool, sv.Name, fileOf(sv.Source))
}

// mcpRef names a listed tool in messages: "server/tool (file:line)".
func mcpRef(m *Tool) string {
	return m.Server + "/" + m.McpName + " (" + fileOf(m.Source) + ":" + strconv.Itoa(m.Line) + ")"
}

// comparePair is every disagreement of authored Tool a with listed tool m,
// in a fixed order: inputs (a's order, then m's extra ones), outputs when
// m's listing has an outputSchema, then the description. Each is a finding
// on a's file: at the port's line when a has the port, else at a's line.
// A port's code is also noted in ports (index i of ports is input i, then
// output i after len(a.Inputs)).
func (s *Snapshot) comparePair(a, m *Tool, ports []PortParity) []Finding {
	var out []Finding
	ref := mcpRef(m)
	add := func(code string, line int, format string, args ...any) {
		out = append(out, s.finding(code, a.Source, pick(line, a.Line), a.IRI, format, args...))
	}
	note := func(i int, code string) {
		if i < len(ports) && !contains(ports[i].Codes, code) {
			ports[i].Codes = append(ports[i].Codes, code)
		}
	}
	served := portsByName(m.Inputs)
	for i, p := range a.Inputs {
		q := served[p.Name]
		if q == nil {
			note(i, record.CodeMCPParityInput)
			add(record.CodeMCPParityInput, p.Line, "Tool %s input %q is not an input of MCP tool %s", a.ID, p.Name, ref)
			continue
		}
		if p.Required != q.Required {
			note(i, record.CodeMCPParityRequired)
			add(record.CodeMCPParityRequired, p.Line, "Tool %s input %q is %s, MCP tool %s makes it %s",
				a.ID, p.Name, requiredWord(p.Required), ref, requiredWord(q.Required))
		}
		// The served schema must not accept what the Tool cannot take.
		if want := portJSONType(p); !fits(q.JSONType, want) {
			note(i, record.CodeMCPParityType)
			add(record.CodeMCPParityType, p.Line, "Tool %s input %q is JSON %s, MCP tool %s declares %s",
				a.ID, p.Name, want, ref, q.JSONType)
		}
	}
	mine := portsByName(a.Inputs)
	for _, q := range m.Inputs {
		if mine[q.Name] == nil {
			add(record.CodeMCPParityInput, a.Line, "MCP tool %s has input %q (line %d), which Tool %s does not declare",
				ref, q.Name, q.Line, a.ID)
		}
	}
	if m.OutputSchema {
		servedOut := portsByName(m.Outputs)
		for j, p := range a.Outputs {
			i := len(a.Inputs) + j
			q := servedOut[p.Name]
			if q == nil {
				note(i, record.CodeMCPParityOutput)
				add(record.CodeMCPParityOutput, p.Line, "Tool %s output %q is not in the outputSchema of MCP tool %s", a.ID, p.Name, ref)
				continue
			}
			// What the Tool returns must fit what the server promises.
			if got := portJSONType(p); !fits(got, q.JSONType) {
				note(i, record.CodeMCPParityType)
				add(record.CodeMCPParityType, p.Line, "Tool %s output %q is JSON %s, MCP tool %s declares %s",
					a.ID, p.Name, got, ref, q.JSONType)
			}
		}
		mineOut := portsByName(a.Outputs)
		for _, q := range m.Outputs {
			if mineOut[q.Name] == nil {
				add(record.CodeMCPParityOutput, a.Line, "MCP tool %s has output %q (line %d), which Tool %s does not declare",
					ref, q.Name, q.Line, a.ID)
			}
		}
	}
	if strings.TrimSpace(a.Description) != strings.TrimSpace(m.Description) {
		add(record.CodeMCPParityDescription, a.Line, "Tool %s's description is not that of MCP tool %s: %q, served %q",
			a.ID, ref, clip(a.Description), clip(m.Description))
	}
	return out
}

func pick(line, fallback int) int {
	if line > 0 {
		return line
	}
	return fallback
}

func requiredWord(b bool) string {
	if b {
		return "required"
	}
	return "optional"
}

func portsByName(ps []*Port) map[string]*Port {
	m := make(map[string]*Port, len(ps))
	for _, p := range ps {
		if m[p.Name] == nil {
			m[p.Name] = p
		}
	}
	return m
}

// PortJSONType is the JSON Schema type a port takes on an MCP wire: its
// vocabulary type's JSON type, an array of it when the port is repeated;
// "" when the type is unknown.
func PortJSONType(p *Port) string { return portJSONType(p) }

func portJSONType(p *Port) string {
	if p.Repeated {
		return "array"
	}
	return p.JSONType
}

// fits reports whether every value of JSON type narrow is a value of JSON
// type wide: the same type, or integer within number. An unknown type on
// either side ("": no type stated, or a port-type-unknown port, already
// its own finding) is not a disagreement.
func fits(narrow, wide string) bool {
	return narrow == "" || wide == "" || narrow == wide || narrow == "integer" && wide == "number"
}

// clip shortens a description for a message to 80 runes.
func clip(s string) string {
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > 80 {
		return string(r[:79]) + "…"
	}
	return s
}
