package queries

import (
	"fmt"
	"sort"
	"strings"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// analyse resolves references and runs every analysis, in dependency order.
func (s *Snapshot) analyse() {
	s.resolve()
	s.checkReferences()
	s.checkBeans()
	s.checkTriggers()
	s.coverage()
	s.alternatives()
	s.reachability()
	s.workflows()
	s.gating()
	s.programs()
	s.sortFindings()
}

func (s *Snapshot) add(f Finding) { s.Findings = append(s.Findings, f) }

func fileOf(src *Source) string {
	if src == nil {
		return ""
	}
	return src.Path
}

func nameOf(in *Instance) string {
	if in == nil {
		return ""
	}
	return in.Name
}

func (s *Snapshot) finding(code string, src *Source, line int, subject, format string, args ...any) Finding {
	f := Finding{Code: code, Severity: record.SeverityOf(code), Message: fmt.Sprintf(format, args...), File: fileOf(src), Line: max(line, 1), Subject: subject}
	if src != nil {
		f.Instance = nameOf(src.Instance)
	}
	return f
}

// resolve links every stored reference to its entity.
func (s *Snapshot) resolve() {
	for _, t := range s.Tools {
		for _, iri := range t.SatisfiesIRI {
			if sk := s.resolveSkill(t.Instance, iri); sk != nil {
				t.Satisfies = append(t.Satisfies, sk)
			}
		}
		for _, iri := range t.SubprocIRI {
			if p := s.resolveProcess(t.Instance, iri); p != nil {
				t.Subprocesses = append(t.Subprocesses, p)
			}
		}
	}
	for _, p := range s.Processes {
		for _, a := range p.Activities {
			for _, iri := range a.SkillIRI {
				if sk := s.resolveSkill(p.Instance, iri); sk != nil {
					a.Skills = append(a.Skills, sk)
					sk.Steps = append(sk.Steps, a)
				}
			}
			// A Camunda task type or topic names a skill only when one
			// of that id exists.
			if len(a.Skills) == 0 {
				for _, ref := range a.ImplicitRefs {
					if sk := s.resolveSkillID(p.Instance, ref); sk != nil {
						a.Skills = append(a.Skills, sk)
						sk.Steps = append(sk.Steps, a)
					}
				}
			}
			if a.CallsIRI != "" {
				a.Calls = s.resolveProcess(p.Instance, a.CallsIRI)
			}
		}
	}
	for _, b := range s.Beans {
		if b.ParentIRI != "" {
			b.Parent = s.resolveBean(b.Instance, b.ParentIRI)
		}
		for _, iri := range b.BlockingIRI {
			if o := s.resolveBean(b.Instance, iri); o != nil {
				b.Blocking = append(b.Blocking, o)
			}
		}
	}
	// An authored Tool whose invoke.mcp names a listed MCP tool is the same
	// mechanism as the MCP-derived Tool.
	mcpTools := map[string][]*Tool{}
	for _, t := range s.Tools {
		if t.Origin == "mcp" {
			mcpTools[t.McpName] = append(mcpTools[t.McpName], t)
		}
	}
	for _, t := range s.Tools {
		if t.Origin == "mcp" || t.McpTool == "" {
			continue
		}
		for _, m := range mcpTools[t.McpTool] {
			if t.McpServer == "" || t.McpServer == m.Server {
				t.ExposedBy = append(t.ExposedBy, m)
			}
		}
	}
}

// checkReferences reports dangling references between files.
func (s *Snapshot) checkReferences() {
	for _, t := range s.Tools {
		for _, iri := range t.SatisfiesIRI {
			if s.resolveSkill(t.Instance, iri) == nil {
				s.add(s.finding(record.CodeSatisfiesUnknownSkill, t.Source, t.Line, t.IRI,
					"tool %s satisfies %q, which is no skill", t.ID, localKey(iri)))
			}
		}
		for _, iri := range t.SubprocIRI {
			if s.resolveProcess(t.Instance, iri) == nil {
				s.add(s.finding(record.CodeSubprocessUnknownProcess, t.Source, t.Line, t.IRI,
					"tool %s names subprocess %q, which is no process", t.ID, localKey(iri)))
			}
		}
		for _, iri := range t.RemedyIRI {
			if s.resolveTool(t.Instance, iri) == nil {
				s.add(s.finding(record.CodeRemedyUnknownTool, t.Source, t.Line, t.IRI,
					"tool %s names remedy tool %q, which is no tool", t.ID, localKey(iri)))
			}
		}
	}
	for _, p := range s.Processes {
		for _, a := range p.Activities {
			for i, iri := range a.SkillIRI {
				if s.resolveSkill(p.Instance, iri) == nil {
					ref := localKey(iri)
					if i < len(a.SkillRefs) {
						ref = localKey(iri)
					}
					s.add(s.finding(record.CodeSkillRefUnknown, p.Source, a.Line, a.IRI,
						"step %s of %s names skill %q, which is no skill", a.ID, p.ID, ref))
				}
			}
			if a.CallsIRI != "" && a.Calls == nil {
				s.add(s.finding(record.CodeCallUnknownProcess, p.Source, a.Line, a.IRI,
					"call activity %s of %s calls %q, which is no process", a.ID, p.ID, a.CalledElement))
			}
		}
	}
}

// beanParentTypes lists the parent types each bean type allows.
var beanParentTypes = map[string][]string{
	"milestone": {},
	"epic":      {"milestone"},
	"feature":   {"milestone", "epic"},
	"task":      {"milestone", "epic", "feature"},
	"bug":       {"milestone", "epic", "feature"},
}

func (s *Snapshot) checkBeans() {
	for _, b := range s.Beans {
		if b.ParentIRI != "" && b.Parent == nil && b.ParentRef != b.ID {
			s.add(s.finding(record.CodeBeanParentUnknown, b.Source, b.Line, b.IRI,
				"bean %s names parent %q, which is no bean", b.ID, b.ParentRef))
		}
		for _, iri := range b.BlockingIRI {
			if s.resolveBean(b.Instance, iri) == nil {
				s.add(s.finding(record.CodeBeanBlockingUnknown, b.Source, b.Line, b.IRI,
					"bean %s is blocking %q, which is no bean", b.ID, localKey(iri)))
			}
		}
		if b.Parent != nil && b.Parent != b {
			allowed, known := beanParentTypes[b.Type]
			_, parentKnown := beanParentTypes[b.Parent.Type]
			if known && parentKnown && !contains(allowed, b.Parent.Type) {
				want := "no parent"
				if len(allowed) > 0 {
					want = "a parent of type " + strings.Join(allowed, " or ")
				}
				s.add(s.finding(record.CodeBeanParentType, b.Source, b.Line, b.IRI,
					"bean %s is a %s under %s, a %s; a %s takes %s", b.ID, b.Type, b.Parent.ID, b.Parent.Type, b.Type, want))
			}
		}
	}
	// Cycles, once per cycle; self-links are the parser's bean-self-link.
	parentEdges := func(b *Bean) []*Bean {
		if b.Parent != nil && b.Parent != b {
			return []*Bean{b.Parent}
		}
		return nil
	}
	blockEdges := func(b *Bean) []*Bean {
		var out []*Bean
		for _, o := range b.Blocking {
			if o != b {
				out = append(out, o)
			}
		}
		return out
	}
	for _, kind := range []struct {
		name  string
		edges func(*Bean) []*Bean
	}{{"parent", parentEdges}, {"blocking", blockEdges}} {
		for _, comp := range sccs(s.Beans, kind.edges) {
			if len(comp) < 2 {
				continue
			}
			var ids, files []string
			for _, b := range comp {
				ids = append(ids, b.ID)
				files = append(files, fileOf(b.Source))
			}
			first := comp[0]
			s.add(s.finding(record.CodeBeanCycle, first.Source, first.Line, first.IRI,
				"%s cycle between beans %s (files %s)", kind.name, strings.Join(ids, ", "), strings.Join(files, ", ")))
		}
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// sccs returns the strongly connected components of the graph over nodes,
// each sorted by id, in a deterministic order (Tarjan).
func sccs[T interface{ comparable }](nodes []T, edges func(T) []T) [][]T {
	index := map[T]int{}
	low := map[T]int{}
	on := map[T]bool{}
	var stack []T
	var out [][]T
	n := 0
	var strong func(v T)
	strong = func(v T) {
		index[v], low[v] = n, n
		n++
		stack = append(stack, v)
		on[v] = true
		for _, w := range edges(v) {
			if _, seen := index[w]; !seen {
				strong(w)
				low[v] = min(low[v], low[w])
			} else if on[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			var comp []T
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				on[w] = false
				comp = append(comp, w)
				if w == v {
					break
				}
			}
			out = append(out, comp)
		}
	}
	for _, v := range nodes {
		if _, seen := index[v]; !seen {
			strong(v)
		}
	}
	for _, c := range out {
		sort.Slice(c, func(i, j int) bool { return idOf(c[i]) < idOf(c[j]) })
	}
	return out
}

func idOf(v any) string {
	switch x := v.(type) {
	case *Bean:
		return x.ID
	case *Process:
		return x.ID
	}
	return ""
}

// checkTriggers matches tool-skill trigger leaves against the graph.
func (s *Snapshot) checkTriggers() {
	servers := map[string]bool{}
	for _, sv := range s.Servers {
		servers[sv.Name] = true
	}
	for _, ts := range s.ToolSkills {
		var live, dead []string
		seen := map[*Tool]bool{}
		var walk func(m map[string]any)
		walk = func(m map[string]any) {
			if name, ok := m["tool"].(string); ok {
				var hits []*Tool
				for _, t := range s.Tools {
					if t.ID == name || (t.Origin == "mcp" && t.McpName == name) {
						hits = append(hits, t)
					}
				}
				if len(hits) > 0 {
					live = append(live, "tool: "+name)
				} else {
					dead = append(dead, "tool: "+name)
				}
				for _, t := range hits {
					if !seen[t] {
						seen[t] = true
						ts.Guides = append(ts.Guides, t)
					}
				}
			}
			if name, ok := m["mcp_server"].(string); ok {
				if servers[name] {
					live = append(live, "mcp_server: "+name)
					for _, t := range s.Tools {
						if t.Origin == "mcp" && t.Server == name && !seen[t] {
							seen[t] = true
							ts.Guides = append(ts.Guides, t)
						}
					}
				} else {
					dead = append(dead, "mcp_server: "+name)
				}
			}
			for _, k := range []string{"any_of", "all_of"} {
				if xs, ok := m[k].([]any); ok {
					for _, x := range xs {
						if c, ok := x.(map[string]any); ok {
							walk(c)
						}
					}
				}
			}
		}
		walk(ts.Trigger)
		for _, t := range ts.Guides {
			t.GuidedBy = append(t.GuidedBy, ts)
		}
		switch {
		case len(dead) > 0 && len(live) > 0:
			s.add(s.finding(record.CodeTriggerDanglingTools, ts.Source, ts.Line, ts.IRI,
				"tool skill %s: trigger leaves %s match nothing while %s are live (name drift?)",
				ts.Key, strings.Join(dead, ", "), strings.Join(live, ", ")))
		case len(dead) > 0:
			s.add(s.finding(record.CodeTriggerInert, ts.Source, ts.Line, ts.IRI,
				"tool skill %s: no trigger leaf matches anything (%s)", ts.Key, strings.Join(dead, ", ")))
		}
	}
}

func (s *Snapshot) sortFindings() {
	sort.SliceStable(s.Findings, func(i, j int) bool {
		a, b := s.Findings[i], s.Findings[j]
		if a.Instance != b.Instance {
			return a.Instance < b.Instance
		}
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Code != b.Code {
			return a.Code < b.Code
		}
		return a.Message < b.Message
	})
	// Attach to skills and tools for the API.
	bySubject := map[string][]Finding{}
	for _, f := range s.Findings {
		if f.Subject != "" {
			bySubject[f.Subject] = append(bySubject[f.Subject], f)
		}
	}
	for _, sk := range s.Skills {
		sk.Findings = bySubject[sk.IRI]
	}
	for _, t := range s.Tools {
		t.Findings = bySubject[t.IRI]
	}
}

// duplicates reports one IRI minted by two files (SPEC §4): both are kept.
func (s *Snapshot) duplicates(raws []*raw) {
	byIRI := map[string][]*raw{}
	for _, r := range raws {
		if len(r.types) == 0 || r.is("Package") || r.is("SourceFile") || r.is("Instance") {
			continue
		}
		byIRI[r.iri] = append(byIRI[r.iri], r)
	}
	iris := make([]string, 0, len(byIRI))
	for iri, rs := range byIRI {
		if len(rs) > 1 {
			iris = append(iris, iri)
		}
	}
	sort.Strings(iris)
	for _, iri := range iris {
		rs := byIRI[iri]
		var files []string
		for _, r := range rs {
			files = append(files, fileOf(s.sourceByIRI[r.graph]))
		}
		second := rs[1]
		src := s.sourceByIRI[second.graph]
		line := second.int(sg + "line")
		id := localKey(iri)
		switch {
		case second.is("Tool"):
			s.add(s.finding(record.CodeToolDuplicateID, src, line, iri, "tool id %q is defined in %s", id, strings.Join(files, " and ")))
		case second.is("Skill"):
			s.add(s.finding(record.CodeSkillNameAmbiguous, src, line, iri,
				"skill name %q is defined in %s; use package/name to disambiguate", id, strings.Join(files, " and ")))
		case second.is("Process"):
			s.add(s.finding(record.CodeProcessDuplicateID, src, line, iri, "process id %q is defined in %s", id, strings.Join(files, " and ")))
		default:
			s.add(s.finding(record.CodeDuplicateNode, src, line, iri, "%s is minted by %s; both are kept", iri, strings.Join(files, " and ")))
		}
	}
}
