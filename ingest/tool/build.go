package tool

import (
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/skillgraph/skillgraph/ingest/internal/ynode"
	"github.com/skillgraph/skillgraph/ingest/record"
)

// tooMany refuses a Tool one of whose lists would make a graph node with
// more than ynode.MaxItems values of one property (issue #16.6): the
// conversion's work would grow with the square of the list. Entries are
// counted as written, so the rule does not depend on what they hold.
func (f *fileParser) tooMany(n *yaml.Node, base string) bool {
	if f.overflow {
		return true // the file's one finding says so
	}
	id := ynode.Str(ynode.Get(n, "id"))
	io := ynode.Get(n, "io")
	for _, l := range []struct {
		field string
		list  *yaml.Node
	}{
		{"satisfies", ynode.Get(n, "satisfies")}, {"renders", ynode.Get(n, "renders")},
		{"subprocesses", ynode.Get(n, "subprocesses")}, {"remedies", ynode.Get(n, "remedies")},
		{"maintains", ynode.Get(n, "maintains")},
		{"io.inputs", ynode.Get(io, "inputs")}, {"io.outputs", ynode.Get(io, "outputs")},
	} {
		count, over := ynode.TooMany(l.list)
		if over {
			f.add(record.CodeToolInvalid, ynode.Line(l.list), id,
				"%s: %s.%s: tool %q lists %d entries, over the limit of %d one Tool may hold; the Tool is not read", f.path, base, l.field, id, count, ynode.MaxItems)
			return true
		}
		if f.items += count; f.items > ynode.MaxItemsPerFile {
			f.overflow = true
			f.add(record.CodeToolInvalid, ynode.Line(n), id,
				"%s: %s: the file's Tools list more than %d entries in all (satisfies, ports, …); tool %q and the Tools after it are not read", f.path, base, ynode.MaxItemsPerFile, id)
			return true
		}
	}
	return false
}

// tool maps one Tool object onto a record.Tool and reports its findings.
func (f *fileParser) tool(n *yaml.Node, base string) {
	if f.tooMany(n, base) {
		return
	}
	t := record.Tool{
		ID:           ynode.Str(ynode.Get(n, "id")),
		Origin:       "authored",
		Title:        ynode.Str(ynode.Get(n, "title")),
		Description:  ynode.Str(ynode.Get(n, "description")),
		Line:         ynode.Line(n),
		Satisfies:    ynode.Unique(ynode.Strings(ynode.Get(n, "satisfies"))),
		Renders:      ynode.Strings(ynode.Get(n, "renders")),
		Subprocesses: ynode.Strings(ynode.Get(n, "subprocesses")),
	}
	for _, it := range ynode.Items(ynode.Get(n, "satisfies")) {
		t.Refs.Set("satisfies", ynode.Str(it), ynode.Line(it))
	}
	for _, it := range ynode.Items(ynode.Get(n, "subprocesses")) {
		t.Refs.Set("subprocesses", ynode.Str(it), ynode.Line(it))
	}
	subject := t.ID
	f.validate(n, base, subject)
	f.unknownFields(n, base, subject, &t)

	if inst := ynode.Get(n, "install"); ynode.IsMap(inst) {
		if v, err := ynode.ToAny(inst); err == nil {
			t.Install, _ = v.(map[string]any)
		}
	}
	if b, ok := ynode.Bool(ynode.Get(n, "readOnly")); ok {
		t.ReadOnly = &b
	}
	f.invoke(n, &t)
	io := ynode.Get(n, "io")
	t.Inputs = f.ports(ynode.Get(io, "inputs"), true, base+".io.inputs", subject)
	t.Outputs = f.ports(ynode.Get(io, "outputs"), false, base+".io.outputs", subject)
	f.selection(n, &t)
	f.requires(n, &t)
	t.Remedies = remedies(ynode.Get(n, "remedies"))
	for _, it := range ynode.Items(ynode.Get(n, "remedies")) {
		if tl := ynode.Get(it, "tool"); tl != nil {
			t.Refs.Set("remedies.tool", ynode.Str(tl), ynode.Line(tl))
		}
	}
	t.Maintains = maintains(ynode.Get(n, "maintains"))
	if t.Requires != nil && t.Requires.Network != nil && *t.Requires.Network && len(t.Remedies) == 0 {
		f.add(record.CodeNetworkWithoutRemedies, ynode.Line(ynode.Get(ynode.Get(n, "requires"), "network")), subject,
			"%s: tool %q requires the network but lists no remedies (what to do when the host is unreachable)", f.path, t.ID)
	}
	f.tools = append(f.tools, t)
}

// invoke reads invoke.{shell,container,mcp,inProcess,manual}.
func (f *fileParser) invoke(n *yaml.Node, t *record.Tool) {
	inv := ynode.Get(n, "invoke")
	if !ynode.IsMap(inv) {
		return
	}
	sh := ynode.Get(inv, "shell")
	if ynode.IsSeq(sh) {
		t.Invoke.Shell = ynode.Strings(sh)
	} else if s := ynode.Str(sh); s != "" {
		t.Invoke.Shell = strings.Fields(s)
	}
	t.Invoke.Container = ynode.Str(ynode.Get(inv, "container"))
	mcp := ynode.Get(inv, "mcp")
	t.Invoke.McpServer = ynode.Str(ynode.Get(mcp, "server"))
	t.Invoke.McpTool = ynode.Str(ynode.Get(mcp, "tool"))
	t.Invoke.InProcess = ynode.Str(ynode.Get(ynode.Get(inv, "inProcess"), "module"))
	t.Invoke.Manual, _ = ynode.Bool(ynode.Get(inv, "manual"))

	hasMcp := ynode.IsMap(mcp)
	runnable := len(t.Invoke.Shell) > 0 || t.Invoke.Container != "" || t.Invoke.InProcess != "" || t.Invoke.Manual
	if hasMcp && !runnable {
		f.add(record.CodeInvokeMCPOnly, ynode.Line(inv), t.ID,
			"%s: tool %q can only be invoked through MCP; the harness that defines it cannot run it (add shell, container, inProcess or manual)", f.path, t.ID)
	}
}

// selection keeps a selection only when when, limits and cost are all stated.
func (f *fileParser) selection(n *yaml.Node, t *record.Tool) {
	sel := ynode.Get(n, "selection")
	if !ynode.IsMap(sel) {
		return // absent, or not an object (the schema reports that)
	}
	s := record.Selection{
		When:   strings.TrimSpace(ynode.Str(ynode.Get(sel, "when"))),
		Limits: strings.TrimSpace(ynode.Str(ynode.Get(sel, "limits"))),
		Cost:   strings.TrimSpace(ynode.Str(ynode.Get(sel, "cost"))),
	}
	if s.When != "" && s.Limits != "" && s.Cost != "" {
		t.Selection = &s
		return
	}
	var missing []string
	for _, kv := range [][2]string{{"when", s.When}, {"limits", s.Limits}, {"cost", s.Cost}} {
		if kv[1] == "" {
			missing = append(missing, kv[0])
		}
	}
	f.add(record.CodeSelectionPartial, ynode.Line(sel), t.ID,
		"%s: tool %q has a partial selection (missing or empty: %s); when, limits and cost go together or not at all, and a partial selection does not count",
		f.path, t.ID, strings.Join(missing, ", "))
}

// requires reads requires.{os,runtime,network}.
func (f *fileParser) requires(n *yaml.Node, t *record.Tool) {
	req := ynode.Get(n, "requires")
	if !ynode.IsMap(req) {
		return
	}
	r := &record.Requires{
		OS:      ynode.Strings(ynode.Get(req, "os")),
		Runtime: ynode.Strings(ynode.Get(req, "runtime")),
	}
	if b, ok := ynode.Bool(ynode.Get(req, "network")); ok {
		r.Network = &b
	}
	t.Requires = r
}

// remedies reads remedies[]: {host, tool? | none?}; none may be true or a reason.
func remedies(n *yaml.Node) []record.Remedy {
	var out []record.Remedy
	for _, it := range ynode.Items(n) {
		if !ynode.IsMap(it) {
			continue
		}
		r := record.Remedy{
			Host: ynode.Str(ynode.Get(it, "host")),
			Tool: ynode.Str(ynode.Get(it, "tool")),
		}
		if none := ynode.Get(it, "none"); none != nil {
			if b, ok := ynode.Bool(none); ok {
				if b {
					r.None = "true"
				}
			} else {
				r.None = strings.TrimSpace(ynode.Str(none))
			}
		}
		out = append(out, r)
	}
	return out
}

// maintains reads maintains[]: {source, artefact, format?}.
func maintains(n *yaml.Node) []record.Maintained {
	var out []record.Maintained
	for _, it := range ynode.Items(n) {
		if !ynode.IsMap(it) {
			continue
		}
		out = append(out, record.Maintained{
			Source:   ynode.Str(ynode.Get(it, "source")),
			Artefact: ynode.Str(ynode.Get(it, "artefact")),
			Format:   ynode.Str(ynode.Get(it, "format")),
		})
	}
	return out
}
