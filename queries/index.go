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
// the snapshot this one updates: lookupsFor shares its lookups when the
// nodes have its shape; linking reads the lookups the same way either way.
func link(all []*node, from *Snapshot) *Snapshot {
	// Stored findings index nothing: kept out of the shape, a finding a
	// parser adds or drops (the edit that fixes it) keeps the others'
	// places.
	nodes, stored := splitFindings(all)
	s := newSnapshot()
	s.nodes, s.shape = all, nodes
	s.lk, s.ownLookups = lookupsFor(nodes, from)
	lk := s.lk
	c := lk.c
	s.Contracts = make(map[string]*Contract, c.contract)
	// Entities of a kind in one allocation each, in node order: they live
	// and die with the snapshot together, and 100k small allocations per
	// link were work for the allocator and the collector. The lookups
	// hold places in these slabs.
	s.srcSlab, s.actSlab = make([]Source, 0, c.src), make([]Activity, 0, c.act)
	s.skillSlab, s.toolSlab = make([]Skill, 0, c.skill), make([]Tool, 0, c.tool)
	s.procSlab, s.beanSlab = make([]Process, 0, c.proc), make([]Bean, 0, c.bean)
	s.linkSources(nodes)
	// Tools and processes (with the activities and ports they need) and
	// all the other entities write disjoint parts of the snapshot and only
	// read the lookups: linked at once.
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.linkTools(nodes)
	}()
	triages := s.linkOthers(nodes)
	<-done
	s.Skills = inOrder(s.skillSlab, lk.by[kSkill].order)
	s.Tools = inOrder(s.toolSlab, lk.by[kTool].order)
	s.Processes = inOrder(s.procSlab, lk.by[kProcess].order)
	s.Beans = inOrder(s.beanSlab, lk.by[kBean].order)
	s.Sources = inOrder(s.srcSlab, lk.sourceOrder)
	slices.SortStableFunc(s.ToolSkills, func(a, b *ToolSkill) int { return strings.Compare(a.Key, b.Key) })
	slices.SortStableFunc(s.Servers, func(a, b *Server) int { return strings.Compare(a.Name, b.Name) })
	sort.Slice(s.Instances, func(i, j int) bool { return s.Instances[i].Name < s.Instances[j].Name })
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
	s.duplicates(nodes)
	s.ambiguousNames()
	return s
}

// linkSources links the instances and the source files, each source to
// the instance it names (made from its IRI when no declaration node
// states it).
func (s *Snapshot) linkSources(nodes []*node) {
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
	for _, n := range nodes {
		if n.flags&fSource == 0 {
			continue
		}
		// A source node answers the last entry of its IRI.
		src := s.sourceOf(n.iri)
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
		if src == nil {
			continue // a declaration node stating SourceFile with no source entry of its IRI
		}
		src.Instance = in
		if src.Parser == "declaration" && src.Path != "." {
			in.File = src.Path
		}
	}
}

// place is the node at i's instance and source file: the lookups keep
// each node's source.
func (s *Snapshot) place(i int, n *node) (*Instance, *Source) {
	if k := s.lk.nodeSrc[i]; k >= 0 {
		return s.srcSlab[k].Instance, &s.srcSlab[k]
	}
	return s.instByDoc[docOf(n.iri)], nil
}

// linkTools links the activities, the Tools with their ports and the
// processes with their activities and lanes.
func (s *Snapshot) linkTools(nodes []*node) {
	lk := s.lk
	for _, n := range nodes {
		if n.flags&fActivity != 0 {
			s.actSlab = append(s.actSlab, *n.act)
			s.actSlab[len(s.actSlab)-1].slab = int32(len(s.actSlab) - 1)
		}
	}
	for i, n := range nodes {
		switch m := n.main.(type) {
		case *toolNode:
			s.toolSlab = append(s.toolSlab, m.tool)
			t := &s.toolSlab[len(s.toolSlab)-1]
			t.slab = int32(len(s.toolSlab) - 1)
			t.Instance, t.Source = s.place(i, n)
			ps := lk.toolPorts[t.slab]
			t.Inputs, t.Outputs = portsAt(nodes, ps[0]), portsAt(nodes, ps[1])
			sortPorts(t.Inputs)
			sortPorts(t.Outputs)
		case *Process:
			s.procSlab = append(s.procSlab, *m)
			p := &s.procSlab[len(s.procSlab)-1]
			p.slab = int32(len(s.procSlab) - 1)
			p.Instance, p.Source = s.place(i, n)
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

// linkOthers links every entity linkTools does not, and returns the
// triage decisions (applied once the skills are indexed).
func (s *Snapshot) linkOthers(nodes []*node) []*triageNode {
	var triages []*triageNode
	for i, n := range nodes {
		switch m := n.main.(type) {
		case *contractNode:
			c := new(Contract)
			*c = m.contract
			c.Properties = map[string]string{}
			for _, p := range m.props {
				if i, ok := s.lk.props[p]; ok {
					pr := nodes[i].prop
					c.Properties[pr.name] = pr.jsonType
				}
			}
			s.Contracts[c.IRI] = c
		case *Skill:
			s.skillSlab = append(s.skillSlab, *m)
			sk := &s.skillSlab[len(s.skillSlab)-1]
			sk.slab = int32(len(s.skillSlab) - 1)
			sk.Instance, sk.Source = s.place(i, n)
		case *Bean:
			s.beanSlab = append(s.beanSlab, *m)
			b := &s.beanSlab[len(s.beanSlab)-1]
			b.Instance, b.Source = s.place(i, n)
		case *ToolSkill:
			ts := new(ToolSkill)
			*ts = *m
			ts.Instance, ts.Source = s.place(i, n)
			s.ToolSkills = append(s.ToolSkills, ts)
		case *Server:
			sv := new(Server)
			*sv = *m
			sv.Instance, sv.Source = s.place(i, n)
			s.Servers = append(s.Servers, sv)
		case *Script:
			sc := new(Script)
			*sc = *m
			sc.Instance, _ = s.place(i, n)
			s.Scripts = append(s.Scripts, sc)
		case *triageNode:
			triages = append(triages, m)
		case hostEntity:
			in, src := s.place(i, n)
			m.link(s, in, src)
		}
	}
	return triages
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
