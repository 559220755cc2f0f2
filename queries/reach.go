package queries

import (
	"sort"
	"strings"

	"github.com/skillgraph/skillgraph/ingest/record"
	"github.com/skillgraph/skillgraph/jsonld"
)

// Reachability is the dispatch-graph report (SPEC §5.3).
type Reachability struct {
	Roots                []string
	CoveredNotReachable  []*Skill
	UnreachableTools     []*Tool
	ToolsWithoutCommand  []*Tool
	UnreachableProcesses []*Process
	// adj is the dispatch graph by node key, neighbours sorted.
	adj     map[string][]string
	witness map[string][]string
}

// Path returns a shortest chain of dispatch edges from one node key to
// another, or nil when there is none.
func (r *Reachability) Path(from, to string) []string {
	if _, ok := r.adj[from]; !ok && from != to {
		return nil
	}
	prev := map[string]string{from: ""}
	queue := []string{from}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if n == to {
			var path []string
			for x := to; x != ""; x = prev[x] {
				path = append(path, x)
				if x == from {
					break
				}
			}
			for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
				path[i], path[j] = path[j], path[i]
			}
			return path
		}
		for _, m := range r.adj[n] {
			if _, seen := prev[m]; !seen {
				prev[m] = n
				queue = append(queue, m)
			}
		}
	}
	return nil
}

// Witness returns the witness path of a node key (nil when unreachable).
func (r *Reachability) Witness(key string) []string { return r.witness[key] }

func (s *Snapshot) reachability() {
	r := Reachability{adj: map[string][]string{}, witness: map[string][]string{}}
	edge := func(a, b string) { r.adj[a] = append(r.adj[a], b) }
	called := map[*Process]bool{}
	for _, p := range s.Processes {
		for _, a := range p.Activities {
			edge(p.Key(), a.Key())
			if a.Calls != nil {
				edge(a.Key(), a.Calls.Key())
				called[a.Calls] = true
			}
			for _, sk := range a.Skills {
				edge(a.Key(), sk.Key())
			}
		}
	}
	for _, sk := range s.Skills {
		for _, t := range sk.Tools {
			edge(sk.Key(), t.Key())
		}
	}
	for _, t := range s.Tools {
		for _, p := range t.Subprocesses {
			edge(t.Key(), p.Key())
			called[p] = true
		}
	}
	roots := map[string]bool{}
	// A listing reaches its MCP Tools and the authored Tools they expose;
	// both indexed once, not searched per listing (O(listings × Tools²)
	// at 10k skills).
	listed := s.mcpToolsByListing()
	exposers := map[*Tool][]*Tool{}
	for _, a := range s.Tools {
		for _, m := range a.ExposedBy {
			exposers[m] = append(exposers[m], a)
		}
	}
	for _, sv := range s.Servers {
		for _, name := range sv.Tools {
			key := "mcp:" + sv.Name + "/" + name
			ts := listed[[2]string{sv.Name, name}]
			// Under an exposure profile (SPEC §5.5) a listing is a root
			// only while the profile keeps its MCP Tool: a host that hides
			// the tool offers no such entry point.
			if s.Profile == "" || len(ts) > 0 {
				roots[key] = true
			}
			for _, t := range ts {
				edge(key, t.Key())
				for _, a := range exposers[t] {
					edge(key, a.Key())
				}
			}
		}
	}
	for _, in := range s.Instances {
		ep := in.Entrypoints
		if len(ep.Processes) > 0 {
			for _, id := range ep.Processes {
				if p := s.processIn(in, id); p != nil {
					roots[p.Key()] = true
				}
			}
		} else {
			for _, p := range s.Processes {
				if p.Instance == in && !called[p] {
					roots[p.Key()] = true
				}
			}
		}
		for _, id := range ep.Tools {
			if t := s.resolveToolID(in, id); t != nil {
				roots[t.Key()] = true
			}
		}
		for _, tr := range ep.Triggers {
			key := "trigger:" + tr.ID
			if tr.Skill != "" {
				if sk := s.resolveSkillID(in, tr.Skill); sk != nil {
					edge(key, sk.Key())
					roots[key] = true
				}
			}
			if tr.Tool != "" {
				if t := s.resolveToolID(in, tr.Tool); t != nil {
					edge(key, t.Key())
					roots[key] = true
				}
			}
		}
	}
	for k, ns := range r.adj {
		sort.Strings(ns)
		r.adj[k] = dedupe(ns)
	}
	for k := range roots {
		r.Roots = append(r.Roots, k)
	}
	sort.Strings(r.Roots)
	// Multi-source BFS: the first visit is along a shortest chain.
	queue := append([]string(nil), r.Roots...)
	for _, k := range r.Roots {
		r.witness[k] = []string{k}
	}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, m := range r.adj[n] {
			if _, seen := r.witness[m]; !seen {
				w := make([]string, len(r.witness[n])+1)
				copy(w, r.witness[n])
				w[len(w)-1] = m
				r.witness[m] = w
				queue = append(queue, m)
			}
		}
	}
	for _, p := range s.Processes {
		p.Witness = r.witness[p.Key()]
		p.Reachable = p.Witness != nil
		for _, a := range p.Activities {
			a.Witness = r.witness[a.Key()]
		}
		if !p.Reachable {
			r.UnreachableProcesses = append(r.UnreachableProcesses, p)
			s.add(s.finding(record.CodeProcessUnreachable, p.Source, p.Line, p.IRI,
				"process %s is reached by no entry point, call or Tool", p.ID))
		}
	}
	for _, t := range s.Tools {
		t.Witness = r.witness[t.Key()]
		t.Reachable = t.Witness != nil
		if !t.Reachable {
			r.UnreachableTools = append(r.UnreachableTools, t)
			s.add(s.finding(record.CodeToolUnreachable, t.Source, t.Line, t.IRI,
				"tool %s is reached by no process, transport or trigger: a command nothing invokes", t.ID))
		}
		if !t.HasCommand() && (t.InProcess != "" || t.Manual) {
			r.ToolsWithoutCommand = append(r.ToolsWithoutCommand, t)
			how := "manual"
			if t.InProcess != "" {
				how = "inProcess"
			}
			s.add(s.finding(record.CodeToolNoCommand, t.Source, t.Line, t.IRI,
				"tool %s is only invoked %s: a mechanism with no command", t.ID, how))
		}
	}
	for _, sk := range s.Skills {
		sk.Witness = r.witness[sk.Key()]
		if sk.Witness == nil {
			// Reached through one of its valid Tools by another route.
			for _, t := range sk.Tools {
				if t.Witness != nil && (sk.Witness == nil || len(t.Witness) < len(sk.Witness)) {
					sk.Witness = t.Witness
				}
			}
		}
		sk.Reachable = sk.Witness != nil
		if sk.Covered && !sk.Reachable {
			r.CoveredNotReachable = append(r.CoveredNotReachable, sk)
			s.add(s.finding(record.CodeCoveredNotReachable, sk.Source, sk.Line, sk.IRI,
				"skill %s is covered by %s, but no process, transport or trigger reaches it or its Tools", sk.ID, toolIDs(sk.Tools)))
		}
	}
	// Every cycle in the call graph, once.
	callEdges := func(p *Process) []*Process {
		var out []*Process
		for _, a := range p.Activities {
			if a.Calls != nil {
				out = append(out, a.Calls)
			}
		}
		return out
	}
	for _, comp := range sccs(s.Processes, callEdges) {
		self := len(comp) == 1 && contains(processIDs(callEdges(comp[0])), comp[0].ID)
		if len(comp) < 2 && !self {
			continue
		}
		ids := processIDs(comp)
		s.add(s.finding(record.CodeCallCycle, comp[0].Source, comp[0].Line, comp[0].IRI,
			"call cycle between processes %s; it is followed once and never looped on", strings.Join(ids, " → ")))
	}
	s.Reach = r
}

func processIDs(ps []*Process) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.ID)
	}
	return out
}

func dedupe(xs []string) []string {
	out := xs[:0]
	for i, x := range xs {
		if i == 0 || x != xs[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// processIn finds a process of an instance (or the ones it needs) by file
// stem or process/@id.
func (s *Snapshot) processIn(in *Instance, id string) *Process {
	if in == nil {
		return nil
	}
	return s.resolveProcess(in, jsonld.Mint(in.IRI, "process", id))
}

// mcpToolsByListing indexes the MCP Tools counted by (server, MCP name),
// in Tool order.
func (s *Snapshot) mcpToolsByListing() map[[2]string][]*Tool {
	out := map[[2]string][]*Tool{}
	for _, t := range s.Tools {
		if t.Origin == "mcp" {
			k := [2]string{t.Server, t.McpName}
			out[k] = append(out[k], t)
		}
	}
	return out
}
