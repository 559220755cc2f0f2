package queries

import (
	"cmp"
	"slices"
	"sort"
	"strings"
)

// index turns the raw subjects (sorted by subject, then graph) into typed
// entities.
func index(raws []*raw) *Snapshot { return link(decodeNodes(raws)) }

// link turns decoded nodes (sorted by subject, then graph) into this
// snapshot's own typed entities, linked to each other: each entity is a
// copy of its node's template, since the analyses write their results into
// it and the nodes are shared with other snapshots.
func link(nodes []*node) *Snapshot {
	s := newSnapshot()
	s.nodes = nodes
	// Counted first so every map and slice is made at its size: growing
	// them (rehashing every IRI) was a third of linking at 10k skills.
	var c struct{ src, port, prop, act, lane, skill, tool, proc, bean, contract int }
	for _, n := range nodes {
		c.src += n.flags.count(fSource)
		c.port += n.flags.count(fPort)
		c.prop += n.flags.count(fProp)
		c.act += n.flags.count(fActivity)
		c.lane += n.flags.count(fLane)
		switch n.main.(type) {
		case *Skill:
			c.skill++
		case *toolNode:
			c.tool++
		case *Process:
			c.proc++
		case *Bean:
			c.bean++
		case *contractNode:
			c.contract++
		}
	}
	s.Sources, s.sourceByIRI = make([]*Source, 0, c.src), make(map[string]*Source, c.src)
	s.actByIRI = make(map[string]*Activity, c.act)
	s.Skills, s.Tools = make([]*Skill, 0, c.skill), make([]*Tool, 0, c.tool)
	s.Processes, s.Beans = make([]*Process, 0, c.proc), make([]*Bean, 0, c.bean)
	s.Contracts = make(map[string]*Contract, c.contract)
	s.skillByIRI, s.skillByID = make(map[string]*Skill, c.skill), make(map[string]*Skill, c.skill)
	s.skillByPkg, s.skillByName = make(map[[3]string]*Skill, c.skill), make(map[[2]string]*Skill, c.skill)
	s.procByIRI, s.procByID = make(map[string]*Process, c.proc), make(map[string]*Process, c.proc)
	s.procByStem = make(map[[2]string]*Process, c.proc)
	s.beanByIRI, s.beanByID = make(map[string]*Bean, c.bean), make(map[string]*Bean, c.bean)
	// Entities of a kind in one allocation each: they live and die with the
	// snapshot together, and 100k small allocations per link were work for
	// the allocator and the collector.
	srcSlab, actSlab := make([]Source, c.src), make([]Activity, c.act)
	skillSlab, toolSlab := make([]Skill, c.skill), make([]Tool, c.tool)
	procSlab, beanSlab := make([]Process, c.proc), make([]Bean, c.bean)
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
			src := &srcSlab[len(s.Sources)]
			*src = *n.src
			s.Sources = append(s.Sources, src)
			s.sourceByIRI[src.IRI] = src
		}
	}
	// s.Sources is in node order yet: the k-th source node's entry is
	// s.Sources[k], and the map answers the last of a run of equal IRIs
	// (adjacent, nodes are in IRI order), found without hashing again.
	k := 0
	for _, n := range nodes {
		if n.flags&fSource != 0 {
			var src *Source
			if n.flags&fInstance == 0 {
				last := k
				for last+1 < len(s.Sources) && s.Sources[last+1].IRI == n.iri {
					last++
				}
				src = s.Sources[last]
				k++
			} else {
				src = s.sourceByIRI[n.iri]
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
	// graph (consecutive nodes are mostly of one file: the last is kept).
	var lastGraph string
	var lastSrc *Source
	place := func(n *node) (*Instance, *Source) {
		if n.graph != lastGraph || lastSrc == nil {
			lastGraph, lastSrc = n.graph, s.sourceByIRI[n.graph]
		}
		if lastSrc != nil {
			return lastSrc.Instance, lastSrc
		}
		return s.instByDoc[docOf(n.iri)], nil
	}
	ports := make(map[string]*Port, c.port)
	props := make(map[string]contractProp, c.prop)
	acts := make(map[[2]string][]*Activity, c.proc)
	lanes := make(map[string]string, c.lane)
	for _, n := range nodes {
		if n.flags&fPort != 0 {
			ports[n.iri] = n.port
		}
		if n.flags&fProp != 0 {
			props[n.iri] = n.prop
		}
		if n.flags&fActivity != 0 {
			a := &actSlab[0]
			actSlab = actSlab[1:]
			*a = *n.act
			k := [2]string{n.actOwner, n.graph}
			acts[k] = append(acts[k], a)
			s.actByIRI[a.IRI] = a
		}
		if n.flags&fLane != 0 {
			lanes[n.iri] = n.lane
		}
	}
	var triages []*triageNode
	for _, n := range nodes {
		switch m := n.main.(type) {
		case *Skill:
			sk := &skillSlab[len(s.Skills)]
			*sk = *m
			sk.Instance, sk.Source = place(n)
			s.Skills = append(s.Skills, sk)
		case *toolNode:
			t := &toolSlab[len(s.Tools)]
			*t = m.tool
			t.Instance, t.Source = place(n)
			for _, p := range m.inputs {
				if pt := ports[p]; pt != nil {
					t.Inputs = append(t.Inputs, pt)
				}
			}
			for _, p := range m.outpt {
				if pt := ports[p]; pt != nil {
					t.Outputs = append(t.Outputs, pt)
				}
			}
			sortPorts(t.Inputs)
			sortPorts(t.Outputs)
			s.Tools = append(s.Tools, t)
		case *Process:
			p := &procSlab[len(s.Processes)]
			*p = *m
			p.Instance, p.Source = place(n)
			p.Activities = acts[[2]string{p.IRI, n.graph}]
			sort.Slice(p.Activities, func(i, j int) bool { return p.Activities[i].Position < p.Activities[j].Position })
			for i, a := range p.Activities {
				a.Process = p
				a.ord = int32(i)
				a.Lane = lanes[a.LaneIRI]
			}
			s.Processes = append(s.Processes, p)
		case *Bean:
			b := &beanSlab[len(s.Beans)]
			*b = *m
			b.Instance, b.Source = place(n)
			s.Beans = append(s.Beans, b)
		case *contractNode:
			c := new(Contract)
			*c = m.contract
			c.Properties = map[string]string{}
			for _, p := range m.props {
				if pr, ok := props[p]; ok {
					c.Properties[pr.name] = pr.jsonType
				}
			}
			s.Contracts[c.IRI] = c
		case *ToolSkill:
			ts := new(ToolSkill)
			*ts = *m
			ts.Instance, ts.Source = place(n)
			s.ToolSkills = append(s.ToolSkills, ts)
		case *Server:
			sv := new(Server)
			*sv = *m
			sv.Instance, sv.Source = place(n)
			s.Servers = append(s.Servers, sv)
		case *Finding:
			f := *m
			if in, _ := place(n); in != nil {
				f.Instance = in.Name
			}
			s.Findings = append(s.Findings, f)
		case *Script:
			sc := new(Script)
			*sc = *m
			sc.Instance, _ = place(n)
			s.Scripts = append(s.Scripts, sc)
		case *triageNode:
			triages = append(triages, m) // applied after skills are indexed, below
		}
	}
	// Stable sorts: one order whatever the algorithm, ties in node order.
	// Nodes are in IRI order, and an id is the end of its IRI, so a kind
	// is often in id order already: checking costs one pass, a stable sort
	// of 10k skills several.
	sortStable(s.Skills, func(x *Skill) string { return x.ID })
	sortStable(s.Tools, func(x *Tool) string { return x.ID })
	sortStable(s.Processes, func(x *Process) string { return x.ID })
	sortStable(s.Beans, func(x *Bean) string { return x.ID })
	slices.SortStableFunc(s.ToolSkills, func(a, b *ToolSkill) int { return strings.Compare(a.Key, b.Key) })
	slices.SortStableFunc(s.Servers, func(a, b *Server) int { return strings.Compare(a.Name, b.Name) })
	sort.Slice(s.Instances, func(i, j int) bool { return s.Instances[i].Name < s.Instances[j].Name })
	sort.Slice(s.Sources, func(i, j int) bool { return s.Sources[i].IRI < s.Sources[j].IRI })
	// Lookups answer the first entity of a key in sorted order (of two
	// nodes sharing an id, a duplicate finding, the first wins): filled
	// from the last entity to the first, each key is written once per
	// entity instead of looked up and then written.
	for i := len(s.Skills) - 1; i >= 0; i-- {
		sk := s.Skills[i]
		s.skillByIRI[sk.IRI] = sk
		s.skillByID[sk.ID] = sk
		if sk.Instance != nil {
			s.skillByPkg[[3]string{sk.Instance.IRI, sk.Package, sk.ID}] = sk
			s.skillByName[[2]string{sk.Instance.IRI, sk.ID}] = sk
		}
	}
	s.indexTools()
	for i := len(s.Processes) - 1; i >= 0; i-- {
		p := s.Processes[i]
		s.procByIRI[p.IRI] = p
		s.procByID[p.ID] = p
		// Sorted by id: processes sharing one are adjacent.
		if (i > 0 && s.Processes[i-1].ID == p.ID) || (i+1 < len(s.Processes) && s.Processes[i+1].ID == p.ID) {
			p.dupOf = fileOf(p.Source)
		}
		if p.Instance != nil && p.Stem != "" {
			s.procByStem[[2]string{p.Instance.IRI, p.Stem}] = p
		}
	}
	for i := len(s.Beans) - 1; i >= 0; i-- {
		b := s.Beans[i]
		s.beanByIRI[b.IRI] = b
		s.beanByID[b.ID] = b
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
	s.duplicates(nodes)
	s.ambiguousNames()
	return s
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

// indexTools (re)builds the Tool lookups from s.Tools.
func (s *Snapshot) indexTools() {
	s.toolByIRI, s.toolByID = make(map[string]*Tool, len(s.Tools)), make(map[string]*Tool, len(s.Tools))
	for i := len(s.Tools) - 1; i >= 0; i-- { // the first of a key wins (see link)
		t := s.Tools[i]
		s.toolByIRI[t.IRI] = t
		s.toolByID[t.ID] = t
	}
}

func sortPorts(ps []*Port) {
	sort.Slice(ps, func(i, j int) bool { return ps[i].Position < ps[j].Position })
}
