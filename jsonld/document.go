package jsonld

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// ContextURL is the IRI of the skillgraph JSON-LD context; the offline
// loader serves it from the embedded copy.
const ContextURL = "https://w3id.org/skillgraph/context.jsonld"

// SourceMeta is the provenance of one source file (SPEC §3.3).
type SourceMeta struct {
	Path string
	// SHA256 is the SHA-256 of the file's bytes (SPEC §3.3), hex.
	SHA256 string
	// Digest is ingest's change-detection digest: the file hash salted
	// with what else the parse depends on (declaration, vocabulary, parser
	// version). An unchanged digest skips the file.
	Digest string
	Size   int64
	MTime  string
	Parser string
}

type node map[string]any

func (n node) set(k string, v any) {
	switch x := v.(type) {
	case string:
		if x == "" {
			return
		}
	case []string:
		if len(x) == 0 {
			return
		}
	case []any:
		if len(x) == 0 {
			return
		}
	case int:
		if x == 0 {
			return
		}
	case nil:
		return
	}
	n[k] = v
}

// jsonValue encodes a structured field as an rdf:JSON literal string.
// json-gold's @json canonicalisation fails on arrays ("Unexpected EOF"), so
// the value is encoded here; encoding/json sorts map keys, which keeps the
// literal deterministic; jsonLiteral orders wide objects so that
// json-gold's canonicalisation stays linear.
func jsonValue(v any) any {
	if v == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil || string(b) == "null" {
		return nil
	}
	return string(jsonLiteral(b))
}

// Document builds the JSON-LD document of one source file of instance in.
// The same records always give the same document.
func Document(in record.Instance, f record.File, meta SourceMeta) map[string]any {
	doc := in.DocIRI()
	src := SourceIRI(doc, f.Path)
	var g []any
	add := func(n node) {
		n["source"] = src
		g = append(g, map[string]any(n))
	}
	sf := node{"id": src, "type": "SourceFile", "path": f.Path, "parser": f.Parser, "instance": doc}
	sf.set("sha256", meta.SHA256)
	sf.set("digest", meta.Digest)
	sf.set("mtime", meta.MTime)
	if meta.Size > 0 {
		sf["size"] = meta.Size
	}
	g = append(g, map[string]any(sf))

	if f.Parser == "declaration" {
		add(instanceNode(in))
	}
	for _, s := range f.Skills {
		add(skillNode(doc, s))
		if s.Package != "" {
			add(node{"id": Mint(doc, "package", s.Package), "type": "Package", "name": s.Package})
			// A bare reference (`satisfies: [deploy]`) mints #skill/<id>:
			// that IRI is declared the same as each packaged skill of the
			// name, so a consumer of the export can follow it; two
			// packages of one name give it two sameAs (it is ambiguous).
			add(node{"id": Mint(doc, "skill", s.ID), "sameAs": SkillIRI(doc, s.Package, s.ID)})
		}
	}
	for _, t := range f.ToolSkills {
		add(toolSkillNode(doc, t))
	}
	for _, t := range f.Tools {
		for _, n := range toolNodes(doc, t) {
			add(n)
		}
	}
	for _, s := range f.Servers {
		n := node{"id": Mint(doc, "server", s.Name), "type": "McpServer", "name": s.Name, "line": s.Line}
		n.set("mcpName", sortedCopy(s.Tools))
		add(n)
	}
	stems := map[string]bool{}
	for _, p := range f.Processes {
		for _, n := range processNodes(doc, p) {
			add(n)
		}
		// Tool subprocesses and entry points name a process by file stem,
		// call activities may too: the stem's IRI is declared the same as
		// the (first) process of the file, so a consumer of the export can
		// follow sg:subprocess and sg:calls without skillgraph's rule.
		if p.Stem != "" && p.Stem != p.ID && !stems[p.Stem] {
			stems[p.Stem] = true
			add(node{"id": Mint(doc, "process", p.Stem), "sameAs": Mint(doc, "process", p.ID)})
		}
	}
	for _, b := range f.Beans {
		add(beanNode(doc, b))
	}
	for _, c := range f.Contracts {
		for _, n := range contractNodes(doc, c) {
			add(n)
		}
	}
	for _, sc := range f.Scripts {
		add(node{"id": Mint(doc, "script", sc.Key), "type": "PackageScript", "key": sc.Key, "command": sc.Command, "line": sc.Line})
	}
	for _, n := range hostNodes(doc, f) {
		add(n)
	}
	for i, fd := range f.Findings {
		n := node{"id": Mint(doc, "finding", f.Path+"/"+strconv.Itoa(i)), "type": "Finding",
			"code": fd.Code, "severity": string(fd.Severity), "message": fd.Message, "file": fd.File, "line": fd.Line}
		n.set("subject", fd.Subject)
		n.set("related", fd.Related)
		add(n)
	}
	return map[string]any{"@context": ContextURL, "@graph": g}
}

// setRefLines stores the line of each reference as one JSON literal, so
// the snapshot can put a reference finding on the reference's own line.
func setRefLines(n node, r record.RefLines) {
	if len(r) > 0 {
		n["refLines"] = jsonValue(r)
	}
}

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}

func instanceNode(in record.Instance) node {
	n := node{"id": in.DocIRI(), "type": "Instance", "name": in.Name}
	n.set("title", in.Title)
	n.set("version", in.Version)
	n.set("description", in.Description)
	n.set("iriBase", in.IRIBase)
	n.set("canonicalUrl", in.CanonicalURL)
	n.set("needs", in.Needs)
	n.set("directories", jsonValue(in.Directories))
	n.set("entrypoints", jsonValue(in.Entrypoints))
	if len(in.Exempt) > 0 {
		n.set("exempt", jsonValue(in.Exempt))
	}
	if len(in.Profiles) > 0 {
		n.set("profiles", jsonValue(in.Profiles))
	}
	if len(in.SkillVariables) > 0 {
		n.set("skillVariables", jsonValue(in.SkillVariables))
	}
	setRefLines(n, in.Refs)
	n.set("corpusRoot", in.Root)
	return n
}

func skillNode(doc string, s record.Skill) node {
	n := node{"id": SkillIRI(doc, s.Package, s.ID), "type": "Skill", "key": s.ID, "flavour": s.Flavour, "line": s.Line}
	n.set("name", s.Name)
	n.set("title", s.Title)
	n.set("description", s.Description)
	if s.Package != "" {
		n["packageName"] = s.Package
		n["inPackage"] = Mint(doc, "package", s.Package)
	}
	if s.Input != "" {
		n["inputRef"] = s.Input
		n["inputContract"] = contractIRI(doc, s.Input)
		n.set("inputLine", s.InputLine)
	}
	if s.Output != "" {
		n["outputRef"] = s.Output
		n["outputContract"] = contractIRI(doc, s.Output)
		n.set("outputLine", s.OutputLine)
	}
	n.set("allowedTool", s.AllowedTools)
	n.set("mentionsTool", mentionedTools(doc, s.AllowedTools))
	n.set("license", s.License)
	n.set("compatibility", s.Compat)
	if len(s.Metadata) > 0 {
		n["metadata"] = jsonValue(s.Metadata)
	}
	n.set("include", s.Includes)
	n.set("resource", sortedCopy(s.Resources))
	if s.Plugin != "" && s.Package != "" {
		n["inPlugin"] = Mint(doc, "plugin", s.Package)
	}
	n["bodyLines"] = s.BodyLines
	if len(s.ShellBlocks) > 0 {
		n["shellBlock"] = s.ShellBlocks
	}
	if len(s.Commands) > 0 {
		n["proseCommand"] = jsonValue(s.Commands)
	}
	return n
}

// contractIRI is the IRI of a contract named by a skill: an https:// IRI as
// is, a path as a contract node of the instance.
func contractIRI(doc, ref string) string {
	if record.ContractExternal(ref) {
		return ref
	}
	return Mint(doc, "contract", ref)
}

func toolSkillNode(doc string, t record.ToolSkill) node {
	n := node{"id": Mint(doc, "toolskill", t.Key), "type": "ToolSkill", "key": t.Key, "line": t.Line,
		"toolSkillRequired": t.Required, "trigger": jsonValue(triggerJSON(t.Trigger))}
	n.set("title", t.Title)
	n.set("summary", t.Summary)
	n.set("phase", t.Phases)
	n["bodyBytes"] = t.BodyBytes
	n["bodyLines"] = t.BodyLines
	setRefLines(n, t.Refs)
	return n
}

func triggerJSON(t record.Trigger) map[string]any {
	m := map[string]any{}
	switch {
	case t.Tool != "":
		m["tool"] = t.Tool
	case t.McpServer != "":
		m["mcp_server"] = t.McpServer
	case t.AnyOf != nil:
		var xs []any
		for _, c := range t.AnyOf {
			xs = append(xs, triggerJSON(c))
		}
		m["any_of"] = xs
	case t.AllOf != nil:
		var xs []any
		for _, c := range t.AllOf {
			xs = append(xs, triggerJSON(c))
		}
		m["all_of"] = xs
	}
	return m
}

func toolNodes(doc string, t record.Tool) []node {
	id := Mint(doc, "tool", t.ID)
	n := node{"id": id, "type": "Tool", "key": t.ID, "origin": t.Origin, "line": t.Line}
	n.set("title", t.Title)
	n.set("description", t.Description)
	var sat []string
	for _, s := range t.Satisfies {
		sat = append(sat, Mint(doc, "skill", s))
	}
	n.set("satisfies", sat)
	n.set("satisfiesRef", t.Satisfies)
	if t.Install != nil {
		n["install"] = jsonValue(t.Install)
	}
	if t.Invoke.Shell != nil {
		n["invokeShell"] = jsonValue(t.Invoke.Shell)
	}
	n.set("invokeContainer", t.Invoke.Container)
	n.set("invokeMcpServer", t.Invoke.McpServer)
	n.set("invokeMcpTool", t.Invoke.McpTool)
	n.set("invokeInProcess", t.Invoke.InProcess)
	if t.Invoke.Manual {
		n["invokeManual"] = true
	}
	if s := t.Selection; s != nil {
		n.set("selectionWhen", s.When)
		n.set("selectionLimits", s.Limits)
		n.set("selectionCost", s.Cost)
	}
	if r := t.Requires; r != nil {
		n.set("requiresOS", r.OS)
		n.set("requiresRuntime", r.Runtime)
		if r.Network != nil {
			n["requiresNetwork"] = *r.Network
		}
	}
	if len(t.Remedies) > 0 {
		n["remedies"] = jsonValue(t.Remedies)
		var rt []string
		for _, r := range t.Remedies {
			if r.Tool != "" {
				rt = append(rt, Mint(doc, "tool", r.Tool))
			}
		}
		n.set("remedyTool", rt)
	}
	if len(t.Maintains) > 0 {
		n["maintains"] = jsonValue(t.Maintains)
	}
	n.set("renders", t.Renders)
	n.set("subprocessRef", t.Subprocesses)
	var subs []string
	for _, p := range t.Subprocesses {
		subs = append(subs, Mint(doc, "process", p))
	}
	n.set("subprocess", subs)
	if t.ReadOnly != nil {
		n["readOnly"] = *t.ReadOnly
	}
	for _, k := range []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"} {
		if v, ok := t.Annotations[k]; ok {
			n[k] = v
		}
	}
	n.set("server", t.Server)
	n.set("mcpName", t.McpName)
	if t.OutputSchema {
		n["mcpOutputSchema"] = true
	}
	if t.Server != "" {
		n["exposedBy"] = Mint(doc, "server", t.Server)
	}
	if len(t.Extra) > 0 {
		n["extra"] = jsonValue(t.Extra)
	}
	setRefLines(n, t.Refs)
	out := []node{n}
	var ins, outs []string
	for i, p := range t.Inputs {
		pn := portNode(PortIRI(doc, t.ID, "in", p.Name), p, i)
		ins = append(ins, pn["id"].(string))
		out = append(out, pn)
	}
	for i, p := range t.Outputs {
		pn := portNode(PortIRI(doc, t.ID, "out", p.Name), p, i)
		outs = append(outs, pn["id"].(string))
		out = append(out, pn)
	}
	n.set("hasInput", ins)
	n.set("hasOutput", outs)
	return out
}

func portNode(iri string, p record.Port, i int) node {
	n := node{"id": iri, "type": "Port", "name": p.Name, "required": p.Required, "position": i}
	if p.TypeIRI != "" {
		n["portType"] = p.TypeIRI
	}
	n.set("jsonType", p.JSONType)
	if p.Repeated {
		n["repeated"] = true
	}
	n.set("arg", p.Arg)
	n.set("description", p.Description)
	n.set("render", p.Render)
	n.set("line", p.Line)
	return n
}

func processNodes(doc string, p record.Process) []node {
	pid := Mint(doc, "process", p.ID)
	n := node{"id": pid, "type": "Process", "key": p.ID, "stem": p.Stem, "line": p.Line}
	n.set("title", p.Name)
	out := []node{n}
	next := map[string][]string{}
	for _, f := range p.Flows {
		next[f.Source] = append(next[f.Source], ActivityIRI(doc, p.ID, f.Target))
	}
	for _, l := range p.Lanes {
		ln := node{"id": Mint(doc, "lane", p.ID+"/"+l.ID), "type": "Lane", "key": l.ID, "partOf": pid}
		ln.set("laneName", l.Name)
		out = append(out, ln)
	}
	for i, a := range p.Activities {
		an := node{"id": ActivityIRI(doc, p.ID, a.ID), "type": "Activity", "key": a.ID, "element": a.Element,
			"partOf": pid, "line": a.Line, "position": i}
		an.set("title", a.Name)
		var sk, refs, implicit []string
		for _, s := range a.Skills {
			if s.Implicit {
				// Resolved against the graph later: it names a skill only
				// when one of that id exists.
				implicit = append(implicit, s.Ref)
				continue
			}
			sk = append(sk, Mint(doc, "skill", s.Ref))
			refs = append(refs, s.Ref)
		}
		an.set("namesSkill", sk)
		an.set("skillRef", refs)
		an.set("implicitSkillRef", implicit)
		an.set("noSkillReason", a.NoSkillReason)
		if a.Called != "" {
			an["calledElement"] = a.Called
			if a.CalledDynamic {
				an["callDynamic"] = true
			} else {
				an["calls"] = Mint(doc, "process", a.Called)
			}
		}
		if a.Lane != "" {
			an["inLane"] = Mint(doc, "lane", p.ID+"/"+a.Lane)
		}
		if a.Parent != "" {
			an["parentRef"] = a.Parent
		}
		if len(a.Beans) > 0 {
			an["beanRef"] = a.Beans
			var bs []string
			for _, b := range a.Beans {
				bs = append(bs, Mint(doc, "bean", b))
			}
			an["mentions"] = bs
		}
		an.set("documentation", a.Documentation)
		setRefLines(an, a.Refs)
		an.set("next", next[a.ID])
		out = append(out, an)
	}
	return out
}

func beanNode(doc string, b record.Bean) node {
	n := node{"id": Mint(doc, "bean", b.ID), "type": "Bean", "key": b.ID, "line": b.Line}
	n.set("title", b.Title)
	n.set("status", b.Status)
	n.set("beanType", b.Type)
	n.set("priority", b.Priority)
	n.set("tag", b.Tags)
	n.set("createdAt", b.CreatedAt)
	n.set("updatedAt", b.UpdatedAt)
	if b.Parent != "" {
		n["parent"] = Mint(doc, "bean", b.Parent)
		n["parentRef"] = b.Parent
		n.set("parentLine", b.ParentLine)
	}
	var bl []string
	for _, x := range b.Blocking {
		bl = append(bl, Mint(doc, "bean", x))
	}
	n.set("blocking", bl)
	n.set("blockingRef", b.Blocking)
	n.set("blockingLine", b.BlockingLine)
	var bb []string
	for _, x := range b.BlockedBy {
		bb = append(bb, Mint(doc, "bean", x))
	}
	n.set("blockedBy", bb)
	n.set("mentionRef", b.Mentions)
	setRefLines(n, b.Refs)
	return n
}

func contractNodes(doc string, c record.Contract) []node {
	id := Mint(doc, "contract", c.Path)
	n := node{"id": id, "type": "Contract", "path": c.Path}
	n.set("requiredName", sortedCopy(c.Required))
	out := []node{n}
	var props []string
	names := make([]string, 0, len(c.Properties))
	for k := range c.Properties {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		pid := id + "/property/" + Escape(k)
		props = append(props, pid)
		pn := node{"id": pid, "type": "ContractProperty", "name": k}
		pn.set("jsonType", c.Properties[k])
		out = append(out, pn)
	}
	n.set("hasProperty", props)
	return out
}

// mentionedTools mints the weak mentionsTool edges of allowed-tools entries
// (SPEC §2.1b): the Tool each entry names, the part before a parenthesised
// argument pattern (Bash(git:*) names Bash). The snapshot links the edge
// when a Tool of that id exists; otherwise it names a host tool.
func mentionedTools(doc string, allowed []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, a := range allowed {
		name, _, _ := strings.Cut(strings.TrimSpace(a), "(")
		if name = strings.TrimSpace(name); name != "" && !seen[name] {
			seen[name] = true
			out = append(out, Mint(doc, "tool", name))
		}
	}
	return out
}
