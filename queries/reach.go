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
	// when unreachable). hasOut marks nodes some edge leaves. The entity
	// nodes' ids are base's, shared by the snapshots of one shape; MCP
	// listings and triggers are interned after them, in extra.
	base    *reachBase
	extra   map[string]int32
	keys    []string
	adj     [][]int32
	hasOut  []bool
	witness [][]string
	reused  bool // the walk was the previous snapshot's (sameWalk)
}

// Path returns a shortest chain of dispatch edges from one node key to
// another, or nil when there is none.
func (r *Reachability) Path(from, to string) []string {
	if from == to {
		return []string{from}
	}
	f, ok := r.lookup(from)
	if !ok || !r.hasOut[f] {
		return nil
	}
	t, ok := r.lookup(to)
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
	if id, ok := r.lookup(key); ok {
		return r.witness[id]
	}
	return nil
}

// hasEdge reports whether the dispatch graph has the edge a → b.
func (r *Reachability) hasEdge(a, b string) bool {
	x, okA := r.lookup(a)
	y, okB := r.lookup(b)
	return okA && okB && slices.Contains(r.adj[x], y)
}

// lookup is the id of a node key.
func (r *Reachability) lookup(key string) (int32, bool) {
	if r.base != nil {
		if id, ok := r.base.ids[key]; ok {
			return id, true
		}
	}
	id, ok := r.extra[key]
	return id, ok
}

// id interns a node key that is no entity's (an MCP listing, a trigger).
func (r *Reachability) id(key string) int32 {
	if id, ok := r.lookup(key); ok {
		return id
	}
	id := int32(len(r.keys))
	r.extra[key] = id
	r.keys = append(r.keys, key)
	r.adj = append(r.adj, nil)
	r.hasOut = append(r.hasOut, false)
	return id
}

// reachBase is the entity nodes of the dispatch graph of one shape of
// nodes: their keys, interned in key order, so that ordering ids orders
// keys. It depends only on the entities' keys, so the snapshots sharing
// lookups share it (making each key and interning it was half of this
// analysis at 10k skills); read-only once made.
type reachBase struct {
	ids  map[string]int32
	keys []string
	// The ids of s.Skills[i], s.Tools[i], s.Processes[i], and of
	// s.Processes[i].Activities[j] at act[actStart[i]+j].
	skill, tool, proc, act, actStart []int32
}

// newReachBase interns the keys of every skill, Tool, process and
// activity of s. Two entities of one key (a duplicate id) are one node.
func newReachBase(s *Snapshot) *reachBase {
	keys := make([]string, 0, len(s.Skills)+len(s.Tools)+len(s.Processes)+len(s.actSlab))
	for _, sk := range s.Skills {
		keys = append(keys, sk.Key())
	}
	for _, t := range s.Tools {
		keys = append(keys, t.Key())
	}
	for _, p := range s.Processes {
		keys = append(keys, p.Key())
		for _, a := range p.Activities {
			keys = append(keys, a.Key())
		}
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	b := &reachBase{ids: make(map[string]int32, len(keys)), keys: slices.Clip(keys)}
	for i, k := range keys {
		b.ids[k] = int32(i)
	}
	b.skill = make([]int32, len(s.Skills))
	for i, sk := range s.Skills {
		b.skill[i] = b.ids[sk.Key()]
	}
	b.tool = make([]int32, len(s.Tools))
	for i, t := range s.Tools {
		b.tool[i] = b.ids[t.Key()]
	}
	b.proc, b.actStart = make([]int32, len(s.Processes)), make([]int32, len(s.Processes))
	for i, p := range s.Processes {
		b.proc[i], b.actStart[i] = b.ids[p.Key()], int32(len(b.act))
		for _, a := range p.Activities {
			b.act = append(b.act, b.ids[a.Key()])
		}
	}
	return b
}

// reachability computes the dispatch graph and each entity's witness
// (SPEC §5.3): the entities' edges, the entry points, one walk from all of
// them, the witnesses and unreachable entities recorded, the call cycles.
func (s *Snapshot) reachability(out *findings) {
	if s.lk.reach == nil {
		// Made by the first analysis of the lookups' own snapshot, before
		// the snapshot is handed out (and so before another shares them).
		s.lk.reach = newReachBase(s)
	}
	r := newReachability(s.lk.reach)
	called := s.dispatchEdges(r)
	var prev *Reachability
	if p := s.prev; p != nil && p.lk == s.lk {
		prev = &p.Reach
	}
	r.walk(s.entryRoots(r, called), prev)
	s.recordWitnesses(r, out)
	s.callCycles(out)
	s.Reach = *r
}

// newReachability is the dispatch graph of base's entity nodes, with no
// edge yet. keys is base's until the first listing or trigger is interned
// (then copied: base is shared).
func newReachability(base *reachBase) *Reachability {
	return &Reachability{base: base, extra: map[string]int32{}, keys: base.keys,
		adj: make([][]int32, len(base.keys)), hasOut: make([]bool, len(base.keys))}
}

// edge adds the dispatch edge a → b.
func (r *Reachability) edge(a, b int32) {
	r.adj[a] = append(r.adj[a], b)
	r.hasOut[a] = true
}

// dispatchEdges gives each entity its node and adds the edges between
// entities: a process to its steps, a step to the process it calls and
// its skills, a skill to its valid Tools, a Tool to its subprocesses. It
// returns the processes something calls (no default roots).
func (s *Snapshot) dispatchEdges(r *Reachability) map[*Process]bool {
	base := r.base
	for i, sk := range s.Skills {
		sk.rid = base.skill[i]
	}
	for i, t := range s.Tools {
		t.rid = base.tool[i]
	}
	for i, p := range s.Processes {
		p.rid = base.proc[i]
		for j, a := range p.Activities {
			a.rid = base.act[int(base.actStart[i])+j]
		}
	}
	called := map[*Process]bool{}
	for _, p := range s.Processes {
		for _, a := range p.Activities {
			r.edge(p.rid, a.rid)
			if a.Calls != nil {
				r.edge(a.rid, a.Calls.rid)
				called[a.Calls] = true
			}
			for _, sk := range a.Skills {
				r.edge(a.rid, sk.rid)
			}
		}
	}
	for _, sk := range s.Skills {
		for _, t := range sk.Tools {
			r.edge(sk.rid, t.rid)
		}
	}
	for _, t := range s.Tools {
		for _, p := range t.Subprocesses {
			r.edge(t.rid, p.rid)
			called[p] = true
		}
	}
	return called
}

// entryRoots are the nodes every walk starts from (SPEC §5.3): MCP
// listings (with edges to the Tools they expose), each instance's entry
// processes (its declared ones, else every process nothing calls), entry
// Tools and triggers, and the agent-host components.
func (s *Snapshot) entryRoots(r *Reachability, called map[*Process]bool) map[int32]bool {
	roots := map[int32]bool{}
	s.listingRoots(r, roots)
	for _, in := range s.Instances {
		ep := in.Entrypoints
		if len(ep.Processes) > 0 {
			for _, id := range ep.Processes {
				if p := s.processIn(in, id); p != nil {
					roots[p.rid] = true
				}
			}
		} else {
			for _, p := range s.Processes {
				if p.Instance == in && !called[p] {
					roots[p.rid] = true
				}
			}
		}
		for _, id := range ep.Tools {
			if t := s.resolveToolID(in, id); t != nil {
				roots[t.rid] = true
			}
		}
		for _, tr := range ep.Triggers {
			if tr.Skill != "" {
				if sk := s.resolveSkillID(in, tr.Skill); sk != nil {
					key := r.id("trigger:" + tr.ID)
					r.edge(key, sk.rid)
					roots[key] = true
				}
			}
			if tr.Tool != "" {
				if t := s.resolveToolID(in, tr.Tool); t != nil {
					key := r.id("trigger:" + tr.ID)
					r.edge(key, t.rid)
					roots[key] = true
				}
			}
		}
	}
	s.hostRoots(r, roots, r.edge)
	return roots
}

// listingRoots adds each MCP listing's tools as roots: a listing reaches
// its MCP Tools and the authored Tools they expose; both indexed once,
// not searched per listing (O(listings × Tools²) at 10k skills).
func (s *Snapshot) listingRoots(r *Reachability, roots map[int32]bool) {
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
				r.edge(key, t.rid)
				for _, a := range exposers[t] {
					r.edge(key, a.rid)
				}
			}
		}
	}
}

// walk records the roots in key order and each node's witness: a
// multi-source breadth-first walk, so the first visit is along a shortest
// chain. Neighbours are put in key order, once each, first: the walk
// visits them in that order, so witnesses are the same whatever order
// edges came in (every edge ends at an entity, whose ids are in key
// order). When prev (the dispatch graph of the snapshot this one updates)
// has the same nodes, edges and roots, the walk is its walk: its
// witnesses are taken instead of walked again (sameWalk).
func (r *Reachability) walk(roots map[int32]bool, prev *Reachability) {
	for k, ns := range r.adj {
		if len(ns) > 1 {
			slices.Sort(ns)
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
	if r.sameWalk(prev) {
		// Read-only once made, like every witness the entities share.
		r.Roots, r.witness, r.reused = prev.Roots, prev.witness, true
		return
	}
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
}

// sameWalk reports whether prev's walk is this graph's: the walk depends
// only on the node keys (ids in key order), each node's sorted neighbours
// and the roots, so when all three are equal so is every witness. The
// check is a comparison of ids, far cheaper than the walk, which makes a
// witness per reachable node. Called with r's neighbours sorted and its
// roots recorded.
func (r *Reachability) sameWalk(prev *Reachability) bool {
	if prev == nil || prev.base != r.base || len(prev.keys) != len(r.keys) || len(prev.adj) != len(r.adj) ||
		!slices.Equal(prev.Roots, r.Roots) {
		return false
	}
	// The base's keys are one shared slice: only the interned listings
	// and triggers after them can differ.
	if !slices.Equal(prev.keys[len(r.base.keys):], r.keys[len(r.base.keys):]) {
		return false
	}
	for i, ns := range r.adj {
		if !slices.Equal(ns, prev.adj[i]) {
			return false
		}
	}
	return true
}

// recordWitnesses writes each entity's witness and whether it is
// reachable, lists the unreachable ones and reports them.
func (s *Snapshot) recordWitnesses(r *Reachability, out *findings) {
	s.hostWitnesses(r)
	for _, p := range s.Processes {
		p.Witness = r.witness[p.rid]
		p.Reachable = p.Witness != nil
		for _, a := range p.Activities {
			a.Witness = r.witness[a.rid]
		}
		if !p.Reachable {
			r.UnreachableProcesses = append(r.UnreachableProcesses, p)
			out.add(s.finding(record.CodeProcessUnreachable, p.Source, p.Line, p.IRI,
				"process %s is reached by no entry point, call or Tool", p.ID))
		}
	}
	for _, t := range s.Tools {
		t.Witness = r.witness[t.rid]
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
		sk.Witness = r.witness[sk.rid]
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
}

// callCycles reports every cycle in the call graph, once.
func (s *Snapshot) callCycles(out *findings) {
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
