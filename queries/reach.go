package queries

import (
	"slices"
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
	// The dispatch graph over integer node ids: keys[id] is the node key,
	// adj[id] its neighbours sorted by key, witness[id] its witness (nil
	// when unreachable). hasOut marks nodes some edge leaves.
	ids     map[string]int32
	keys    []string
	adj     [][]int32
	hasOut  []bool
	witness [][]string
}

// Path returns a shortest chain of dispatch edges from one node key to
// another, or nil when there is none.
func (r *Reachability) Path(from, to string) []string {
	if from == to {
		return []string{from}
	}
	f, ok := r.ids[from]
	if !ok || !r.hasOut[f] {
		return nil
	}
	t, ok := r.ids[to]
	if !ok {
		return nil
	}
	prev := make([]int32, len(r.keys))
	for i := range prev {
		prev[i] = -1
	}
	prev[f] = f
	queue := []int32{f}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if n == t {
			var path []string
			for x := t; ; x = prev[x] {
				path = append(path, r.keys[x])
				if x == f {
					break
				}
			}
			slices.Reverse(path)
			return path
		}
		for _, m := range r.adj[n] {
			if prev[m] < 0 {
				prev[m] = n
				queue = append(queue, m)
			}
		}
	}
	return nil
}

// Witness returns the witness path of a node key (nil when unreachable).
func (r *Reachability) Witness(key string) []string {
	if id, ok := r.ids[key]; ok {
		return r.witness[id]
	}
	return nil
}

// hasEdge reports whether the dispatch graph has the edge a → b.
func (r *Reachability) hasEdge(a, b string) bool {
	x, okA := r.ids[a]
	y, okB := r.ids[b]
	return okA && okB && slices.Contains(r.adj[x], y)
}

// id interns a node key.
func (r *Reachability) id(key string) int32 {
	if id, ok := r.ids[key]; ok {
		return id
	}
	id := int32(len(r.keys))
	r.ids[key] = id
	r.keys = append(r.keys, key)
	r.adj = append(r.adj, nil)
	r.hasOut = append(r.hasOut, false)
	return id
}

func (s *Snapshot) reachability(out *findings) {
	// Sized for every entity node (MCP listing nodes come on top): growing
	// the id table and its slices was a third of this analysis's
	// allocations at 10k skills.
	nodes := len(s.Skills) + len(s.Tools) + len(s.Processes) + len(s.actSlab)
	r := Reachability{ids: make(map[string]int32, nodes), keys: make([]string, 0, nodes),
		adj: make([][]int32, 0, nodes), hasOut: make([]bool, 0, nodes)}
	edge := func(a, b int32) {
		r.adj[a] = append(r.adj[a], b)
		r.hasOut[a] = true
	}
	// Each entity's key is made and interned once (keys are strings built
	// by concatenation: making them per edge was most of this analysis).
	skillID := make(map[*Skill]int32, len(s.Skills))
	for _, sk := range s.Skills {
		skillID[sk] = r.id(sk.Key())
	}
	toolID := make(map[*Tool]int32, len(s.Tools))
	for _, t := range s.Tools {
		toolID[t] = r.id(t.Key())
	}
	procID := make(map[*Process]int32, len(s.Processes))
	for _, p := range s.Processes {
		procID[p] = r.id(p.Key())
	}
	called := map[*Process]bool{}
	actID := make(map[*Activity]int32, len(s.actSlab))
	for _, p := range s.Processes {
		pid := procID[p]
		for _, a := range p.Activities {
			aid := r.id(a.Key())
			actID[a] = aid
			edge(pid, aid)
			if a.Calls != nil {
				edge(aid, procID[a.Calls])
				called[a.Calls] = true
			}
			for _, sk := range a.Skills {
				edge(aid, skillID[sk])
			}
		}
	}
	for _, sk := range s.Skills {
		for _, t := range sk.Tools {
			edge(skillID[sk], toolID[t])
		}
	}
	for _, t := range s.Tools {
		for _, p := range t.Subprocesses {
			edge(toolID[t], procID[p])
			called[p] = true
		}
	}
	roots := map[int32]bool{}
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
			key := r.id("mcp:" + sv.Name + "/" + name)
			ts := listed[[2]string{sv.Name, name}]
			// Under an exposure profile (SPEC §5.5) a listing is a root
			// only while the profile keeps its MCP Tool: a host that hides
			// the tool offers no such entry point.
			if s.Profile == "" || len(ts) > 0 {
				roots[key] = true
			}
			for _, t := range ts {
				edge(key, toolID[t])
				for _, a := range exposers[t] {
					edge(key, toolID[a])
				}
			}
		}
	}
	for _, in := range s.Instances {
		ep := in.Entrypoints
		if len(ep.Processes) > 0 {
			for _, id := range ep.Processes {
				if p := s.processIn(in, id); p != nil {
					roots[procID[p]] = true
				}
			}
		} else {
			for _, p := range s.Processes {
				if p.Instance == in && !called[p] {
					roots[procID[p]] = true
				}
			}
		}
		for _, id := range ep.Tools {
			if t := s.resolveToolID(in, id); t != nil {
				roots[toolID[t]] = true
			}
		}
		for _, tr := range ep.Triggers {
			if tr.Skill != "" {
				if sk := s.resolveSkillID(in, tr.Skill); sk != nil {
					key := r.id("trigger:" + tr.ID)
					edge(key, skillID[sk])
					roots[key] = true
				}
			}
			if tr.Tool != "" {
				if t := s.resolveToolID(in, tr.Tool); t != nil {
					key := r.id("trigger:" + tr.ID)
					edge(key, toolID[t])
					roots[key] = true
				}
			}
		}
	}
	// Neighbours in key order, once each: the walk below visits them in
	// that order, so witnesses are the same whatever order edges came in.
	for k, ns := range r.adj {
		if len(ns) > 1 {
			slices.SortFunc(ns, func(a, b int32) int { return strings.Compare(r.keys[a], r.keys[b]) })
			r.adj[k] = slices.Compact(ns)
		}
	}
	rootIDs := make([]int32, 0, len(roots))
	for k := range roots {
		rootIDs = append(rootIDs, k)
	}
	slices.SortFunc(rootIDs, func(a, b int32) int { return strings.Compare(r.keys[a], r.keys[b]) })
	for _, k := range rootIDs {
		r.Roots = append(r.Roots, r.keys[k])
	}
	// Multi-source BFS: the first visit is along a shortest chain.
	r.witness = make([][]string, len(r.keys))
	queue := append([]int32(nil), rootIDs...)
	for _, k := range rootIDs {
		r.witness[k] = []string{r.keys[k]}
	}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, m := range r.adj[n] {
			if r.witness[m] == nil {
				w := make([]string, len(r.witness[n])+1)
				copy(w, r.witness[n])
				w[len(w)-1] = r.keys[m]
				r.witness[m] = w
				queue = append(queue, m)
			}
		}
	}
	for _, p := range s.Processes {
		p.Witness = r.witness[procID[p]]
		p.Reachable = p.Witness != nil
		for _, a := range p.Activities {
			a.Witness = r.witness[actID[a]]
		}
		if !p.Reachable {
			r.UnreachableProcesses = append(r.UnreachableProcesses, p)
			out.add(s.finding(record.CodeProcessUnreachable, p.Source, p.Line, p.IRI,
				"process %s is reached by no entry point, call or Tool", p.ID))
		}
	}
	for _, t := range s.Tools {
		t.Witness = r.witness[toolID[t]]
		t.Reachable = t.Witness != nil
		if !t.Reachable {
			r.UnreachableTools = append(r.UnreachableTools, t)
			out.add(s.finding(record.CodeToolUnreachable, t.Source, t.Line, t.IRI,
				"tool %s is reached by no process, transport or trigger: a command nothing invokes", t.ID))
		}
		if !t.HasCommand() && (t.InProcess != "" || t.Manual) {
			r.ToolsWithoutCommand = append(r.ToolsWithoutCommand, t)
			how := "manual"
			if t.InProcess != "" {
				how = "inProcess"
			}
			out.add(s.finding(record.CodeToolNoCommand, t.Source, t.Line, t.IRI,
				"tool %s is only invoked %s: a mechanism with no command", t.ID, how))
		}
	}
	for _, sk := range s.Skills {
		sk.Witness = r.witness[skillID[sk]]
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
			out.add(s.finding(record.CodeCoveredNotReachable, sk.Source, sk.Line, sk.IRI,
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
		out.add(s.finding(record.CodeCallCycle, comp[0].Source, comp[0].Line, comp[0].IRI,
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
