package queries

import (
	"cmp"
	"slices"
	"sort"
	"strings"
)

// index turns the raw subjects (sorted by subject, then graph) into typed
// entities.
func index(raws []*raw) *Snapshot { return link(decodeNodes(raws), nil) }

// splitFindings parts nodes (in order) into the stored findings and the
// others.
func splitFindings(all []*node) (others, findings []*node) {
	others = make([]*node, 0, len(all))
	for _, n := range all {
		if _, ok := n.main.(*Finding); ok {
			findings = append(findings, n)
		} else {
			others = append(others, n)
		}
	}
	return others, findings
}

// link turns decoded nodes (sorted by subject, then graph) into this
// snapshot's own typed entities, linked to each other: each entity is a
// copy of its node's template, since the analyses write their results into
// it and the nodes are shared with other snapshots. from, when not nil, is
// the snapshot this one updates: when the nodes have its shape
// (sameShape), its lookups are shared instead of made again.
func link(all []*node, from *Snapshot) *Snapshot {
	// Stored findings index nothing: kept out of the shape, a finding a
	// parser adds or drops (the edit that fixes it) keeps the others'
	// places.
	nodes, stored := splitFindings(all)
	var prev *lookups
	if from != nil && from.Profile == "" && sameShape(from.shape, nodes) {
		prev = from.lk
	}
	s := newSnapshot()
	s.nodes, s.shape = all, nodes
	lk := prev
	if lk == nil {
		lk = &lookups{}
		lk.count(nodes)
	}
	s.lk, s.ownLookups = lk, prev == nil
	c := lk.c
	s.Contracts = make(map[string]*Contract, c.contract)
	// Entities of a kind in one allocation each, in node order: they live
	// and die with the snapshot together, and 100k small allocations per
	// link were work for the allocator and the collector. The lookups
	// hold places in these slabs.
	s.srcSlab, s.actSlab = make([]Source, 0, c.src), make([]Activity, 0, c.act)
	s.skillSlab, s.toolSlab = make([]Skill, 0, c.skill), make([]Tool, 0, c.tool)
	s.procSlab, s.beanSlab = make([]Process, 0, c.proc), make([]Bean, 0, c.bean)
	// Pass 1: instances and sources.
	for _, n := range nodes {
		switch {
		case n.flags&fInstance != 0:
			if _, dup := s.instByDoc[n.iri]; !dup {
				in := new(Instance)
				*in = *n.inst
				s.Instances = append(s.Instances, in)
				s.instByDoc[in.IRI] = in
				s.instByName[in.Name] = in
			}
		case n.flags&fSource != 0:
			s.srcSlab = append(s.srcSlab, *n.src)
		}
	}
	if prev == nil {
		// The last of a run of equal IRIs (nodes are in IRI order).
		lk.sourceByIRI = make(map[string]int32, len(s.srcSlab))
		for k := range s.srcSlab {
			lk.sourceByIRI[s.srcSlab[k].IRI] = int32(k)
		}
	}
	// The k-th source node's entry is s.srcSlab[k]; a source node answers
	// the last of its run of equal IRIs, found without hashing again.
	k := 0
	for _, n := range nodes {
		if n.flags&fSource != 0 {
			var src *Source
			if n.flags&fInstance == 0 {
				last := k
				for last+1 < len(s.srcSlab) && s.srcSlab[last+1].IRI == n.iri {
					last++
				}
				src = &s.srcSlab[last]
				k++
			} else {
				src = s.sourceOf(n.iri)
			}
			doc := n.srcDoc
			in := s.instByDoc[doc]
			if in == nil {
				// An instance without a declaration node: name from the IRI.
				name := strings.TrimPrefix(doc, "urn:skillgraph:")
				in = &Instance{IRI: doc, Name: name}
				s.Instances = append(s.Instances, in)
				s.instByDoc[doc] = in
				s.instByName[name] = in
			}
			src.Instance = in
			if src.Parser == "declaration" && src.Path != "." {
				in.File = src.Path
			}
		}
	}
	// place is a node's instance and source file, with one lookup of its
	// graph (consecutive nodes are mostly of one file: the last is kept);
	// the lookups keep each node's source, so a snapshot sharing them
	// looks none up.
	var lastGraph string
	var lastSrc int32 = -1
	if prev == nil {
		lk.nodeSrc = make([]int32, len(nodes))
	}
	place := func(i int, n *node) (*Instance, *Source) {
		if prev == nil {
			if n.graph != lastGraph || lastSrc < 0 {
				lastGraph, lastSrc = n.graph, -1
				if k, ok := lk.sourceByIRI[n.graph]; ok {
					lastSrc = k
				}
			}
			lk.nodeSrc[i] = lastSrc
		}
		if k := lk.nodeSrc[i]; k >= 0 {
			return s.srcSlab[k].Instance, &s.srcSlab[k]
		}
		return s.instByDoc[docOf(n.iri)], nil
	}
	// The entities in two parts, Tools and processes (with the activities
	// and ports they need) and all the others: an Update that
	// shares the lookups writes nothing shared, so it links both at once.
	toolsPart := func() {
		if prev == nil {
			lk.ports = make(map[string]int32, c.port)
			lk.props = make(map[string]int32, c.prop)
			lk.lanes = make(map[string]int32, c.lane)
			lk.actByIRI = make(map[string]int32, c.act)
			lk.acts = make(map[[2]string][]int32, c.proc)
		}
		for i, n := range nodes {
			if n.flags&fActivity != 0 {
				if prev == nil {
					k := [2]string{n.actOwner, n.graph}
					lk.acts[k] = append(lk.acts[k], int32(len(s.actSlab)))
					lk.actByIRI[n.iri] = int32(len(s.actSlab))
					lk.actNode = append(lk.actNode, int32(i))
				}
				s.actSlab = append(s.actSlab, *n.act)
				s.actSlab[len(s.actSlab)-1].slab = int32(len(s.actSlab) - 1)
			}
			if prev != nil {
				continue
			}
			if n.flags&fPort != 0 {
				lk.ports[n.iri] = int32(i)
			}
			if n.flags&fProp != 0 {
				lk.props[n.iri] = int32(i)
			}
			if n.flags&fLane != 0 {
				lk.lanes[n.iri] = int32(i)
			}
		}
		if prev == nil {
			lk.steps = make([]stepTargets, len(s.actSlab))
			lk.flows = make([]flowOrdinals, c.proc)
			for _, as := range lk.acts {
				slices.SortStableFunc(as, func(a, b int32) int { return cmp.Compare(s.actSlab[a].Position, s.actSlab[b].Position) })
			}
		}
		// ports are a Tool's input and output ports, as places in the nodes:
		// the lookups keep them per Tool.
		ports := func(t int, m *toolNode) [2][]int32 {
			if prev != nil {
				return lk.toolPorts[t]
			}
			var ps [2][]int32
			for k, iris := range [2][]string{m.inputs, m.outpt} {
				for _, p := range iris {
					if i, ok := lk.ports[p]; ok {
						ps[k] = append(ps[k], i)
					}
				}
			}
			lk.toolPorts = append(lk.toolPorts, ps)
			return ps
		}

		for i, n := range nodes {
			switch m := n.main.(type) {
			case *toolNode:
				s.toolSlab = append(s.toolSlab, m.tool)
				t := &s.toolSlab[len(s.toolSlab)-1]
				t.slab = int32(len(s.toolSlab) - 1)
				t.Instance, t.Source = place(i, n)
				ps := ports(len(s.toolSlab)-1, m)
				t.Inputs, t.Outputs = portsAt(nodes, ps[0]), portsAt(nodes, ps[1])
				sortPorts(t.Inputs)
				sortPorts(t.Outputs)
			case *Process:
				s.procSlab = append(s.procSlab, *m)
				p := &s.procSlab[len(s.procSlab)-1]
				p.slab = int32(len(s.procSlab) - 1)
				if prev == nil {
					lk.procNode = append(lk.procNode, int32(i))
				}
				p.Instance, p.Source = place(i, n)
				as := lk.acts[[2]string{p.IRI, n.graph}]
				if len(as) > 0 {
					p.Activities = make([]*Activity, len(as))
				}
				for i, ai := range as {
					a := &s.actSlab[ai]
					p.Activities[i] = a
					a.Process = p
					a.ord = int32(i)
					// Looked up each time: the lane an activity names is what its
					// node says, not part of the shape.
					if li, ok := lk.lanes[a.LaneIRI]; ok {
						a.Lane = nodes[li].lane
					}
				}
			}
		}
	}
	var triages []*triageNode
	othersPart := func() {
		for i, n := range nodes {
			switch m := n.main.(type) {
			case *contractNode:
				c := new(Contract)
				*c = m.contract
				c.Properties = map[string]string{}
				for _, p := range m.props {
					if i, ok := lk.props[p]; ok {
						pr := nodes[i].prop
						c.Properties[pr.name] = pr.jsonType
					}
				}
				s.Contracts[c.IRI] = c
			case *Skill:
				s.skillSlab = append(s.skillSlab, *m)
				sk := &s.skillSlab[len(s.skillSlab)-1]
				sk.slab = int32(len(s.skillSlab) - 1)
				sk.Instance, sk.Source = place(i, n)
			case *Bean:
				s.beanSlab = append(s.beanSlab, *m)
				b := &s.beanSlab[len(s.beanSlab)-1]
				b.Instance, b.Source = place(i, n)
			case *ToolSkill:
				ts := new(ToolSkill)
				*ts = *m
				ts.Instance, ts.Source = place(i, n)
				s.ToolSkills = append(s.ToolSkills, ts)
			case *Server:
				sv := new(Server)
				*sv = *m
				sv.Instance, sv.Source = place(i, n)
				s.Servers = append(s.Servers, sv)
			case *Script:
				sc := new(Script)
				*sc = *m
				sc.Instance, _ = place(i, n)
				s.Scripts = append(s.Scripts, sc)
			case *triageNode:
				triages = append(triages, m) // applied after skills are indexed, below
			case hostEntity:
				in, src := place(i, n)
				m.link(s, in, src)
			}
		}
	}
	if prev == nil {
		toolsPart() // it fills the lookups, which othersPart reads
		othersPart()
	} else {
		done := make(chan struct{})
		go func() {
			defer close(done)
			toolsPart()
		}()
		othersPart()
		<-done
	}
	if prev == nil {
		lk.order(s)
	}
	s.Skills = inOrder(s.skillSlab, lk.skillOrder)
	s.Tools = inOrder(s.toolSlab, lk.toolOrder)
	s.Processes = inOrder(s.procSlab, lk.procOrder)
	s.Beans = inOrder(s.beanSlab, lk.beanOrder)
	s.Sources = inOrder(s.srcSlab, lk.sourceOrder)
	slices.SortStableFunc(s.ToolSkills, func(a, b *ToolSkill) int { return strings.Compare(a.Key, b.Key) })
	slices.SortStableFunc(s.Servers, func(a, b *Server) int { return strings.Compare(a.Name, b.Name) })
	sort.Slice(s.Instances, func(i, j int) bool { return s.Instances[i].Name < s.Instances[j].Name })
	if prev == nil {
		lk.index(s)
	}
	for i, p := range s.Processes {
		// Sorted by id: processes sharing one are adjacent.
		if (i > 0 && s.Processes[i-1].ID == p.ID) || (i+1 < len(s.Processes) && s.Processes[i+1].ID == p.ID) {
			p.dupOf = fileOf(p.Source)
		}
	}
	for _, tr := range triages {
		// Resolved like a reference, so a decision recorded before
		// skill IRIs carried the package still finds its skill.
		if sk := s.resolveSkill(s.instByDoc[docOf(tr.of)], tr.of); sk != nil {
			if sk.Triage == nil || tr.t.RecordedAt >= sk.Triage.RecordedAt {
				sk.Triage = tr.t
			}
		}
	}
	// The stored findings, in node order, before the ones linking makes.
	for _, n := range stored {
		f := *n.main.(*Finding)
		in := s.instByDoc[docOf(n.iri)]
		if src := s.sourceOf(n.graph); src != nil {
			in = src.Instance
		}
		if in != nil {
			f.Instance = in.Name
		}
		s.Findings = append(s.Findings, f)
	}
	s.duplicates(nodes, lk, prev == nil)
	s.ambiguousNames()
	return s
}

// portsAt is the ports of the nodes at those places (nil for none).
func portsAt(nodes []*node, at []int32) []*Port {
	if len(at) == 0 {
		return nil
	}
	out := make([]*Port, len(at))
	for i, k := range at {
		out[i] = nodes[k].port
	}
	return out
}

// inOrder is pointers to slab's entries in the order given (places in
// slab).
func inOrder[T any](slab []T, order []int32) []*T {
	out := make([]*T, len(order))
	for i, k := range order {
		out[i] = &slab[k]
	}
	return out
}

// sortStable orders xs by key, ties in their current order: nothing to do
// when xs is in order already; else an unstable sort with the position as
// the last key, which is the stable order at a fraction of the comparisons
// slices.SortStableFunc makes (its insertion sorts and merges were 4% of an
// Update at 10k skills).
func sortStable[T any](xs []T, key func(T) string) {
	if slices.IsSortedFunc(xs, func(a, b T) int { return strings.Compare(key(a), key(b)) }) {
		return
	}
	ks := make([]keyedPos, len(xs))
	for i, x := range xs {
		ks[i] = keyedPos{key(x), int32(i)}
	}
	slices.SortFunc(ks, func(a, b keyedPos) int {
		if c := strings.Compare(a.key, b.key); c != 0 {
			return c
		}
		return cmp.Compare(a.pos, b.pos)
	})
	old := slices.Clone(xs)
	for i, k := range ks {
		xs[i] = old[k.pos]
	}
}

// keyedPos is a sort key and the place it was at.
type keyedPos struct {
	key string
	pos int32
}

// indexTools rebuilds the Tool lookups from s.Tools, for a view that
// keeps some of its Tools only (WithProfile): its lookups are its own,
// made by link without a previous snapshot's.
func (s *Snapshot) indexTools() {
	s.lk.indexTools(s.Tools)
	s.lk.reach = nil // made again from the Tools kept
}

func sortPorts(ps []*Port) {
	sort.Slice(ps, func(i, j int) bool { return ps[i].Position < ps[j].Position })
}
