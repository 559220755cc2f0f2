package queries

import (
	"cmp"
	"reflect"
	"slices"
	"strings"
)

// Skill returns the skill with that id ("package/name" also works), or nil.
func (s *Snapshot) Skill(id string) *Skill {
	if sk := at(s.skillSlab, s.lk.by[kSkill].byID, id); sk != nil {
		return sk
	}
	if pkg, name, ok := strings.Cut(id, "/"); ok {
		for _, sk := range s.Skills {
			if sk.ID == name && sk.Package == pkg {
				return sk
			}
		}
	}
	return nil
}

// Tool returns the tool with that id, or nil.
func (s *Snapshot) Tool(id string) *Tool { return at(s.toolSlab, s.lk.by[kTool].byID, id) }

// Process returns the process with that process/@id or file stem, or nil.
func (s *Snapshot) Process(id string) *Process {
	if p := at(s.procSlab, s.lk.by[kProcess].byID, id); p != nil {
		return p
	}
	for _, p := range s.Processes {
		if p.Stem == id {
			return p
		}
	}
	return nil
}

// Bean returns the bean with that id, or nil.
func (s *Snapshot) Bean(id string) *Bean { return at(s.beanSlab, s.lk.by[kBean].byID, id) }

// Instance returns the instance of that name, or nil.
func (s *Snapshot) Instance(name string) *Instance { return s.instByName[name] }

// lookups index a snapshot's entities by key, as places in its slabs
// (node order), and hold the sorted orders of the entity lists. They are
// made from the nodes alone (buildLookups) and depend only on their shape
// (sameShape): the next snapshot of an edit that keeps every key and place
// shares them instead of hashing every IRI again (issue #14: making them
// was a third of linking at 10k skills; lookupsFor is where that is
// decided). Read-only once made, but for a profile view's own
// (indexTools) and the caches the lookups' own snapshot fills (steps,
// flows, reach).
type lookups struct {
	c lookupCounts

	// by is each kind's lookups by IRI and id (entityKey declares them).
	by [nKinds]keyed

	sourceByIRI         map[string]int32 // the last source node of an IRI
	actByIRI            map[string]int32 // the last activity node of an IRI
	ports, props, lanes map[string]int32 // places in the nodes, the last of an IRI
	acts                map[[2]string][]int32
	nodeSrc             []int32      // each node's source in the slab, -1 for none
	toolPorts           [][2][]int32 // each Tool's input and output ports, places in the nodes
	dups                [][]int32    // runs of typed nodes of one IRI (places in the nodes)

	skillByPkg  map[[3]string]int32
	skillByName map[[2]string]int32
	// skillAmbig: the skills (in IRI order) of each bare name that two or
	// more packages of one instance define; a bare reference to one of
	// these resolves only within the referrer's own package (issue 23.1).
	skillAmbig map[[2]string][]int32
	procByStem map[[2]string]int32

	sourceOrder []int32

	reach    *reachBase     // made by the first reachability over these lookups
	actNode  []int32        // each activity's place in the nodes
	steps    []stepTargets  // each activity's, resolved by the lookups' own snapshot
	procNode []int32        // each process's place in the nodes
	flows    []flowOrdinals // each process's flow order, by the lookups' own snapshot
}

// kind is an entity kind with lookups by IRI and id and a list sorted by
// id.
type kind uint8

const (
	kSkill kind = iota
	kTool
	kProcess
	kBean
	nKinds
)

// entityKey is the kind of a node's entity and its IRI and id, for the
// kinds looked up by both: the one place a kind's lookups are declared (a
// new kind is a constant above and a case here; buildLookups then makes
// its places, order and maps, and lk.by[k] answers them).
func entityKey(n *node) (k kind, iri, id string, ok bool) {
	switch m := n.main.(type) {
	case *Skill:
		return kSkill, m.IRI, m.ID, true
	case *toolNode:
		return kTool, m.tool.IRI, m.tool.ID, true
	case *Process:
		return kProcess, m.IRI, m.ID, true
	case *Bean:
		return kBean, m.IRI, m.ID, true
	}
	return 0, "", "", false
}

// keyed is one kind's lookups: its entities' places in the nodes (the
// k-th is the kind's k-th slab entry), those places in stable id order,
// and the first entity of an IRI and of an id in that order.
type keyed struct {
	nodes       []int32
	order       []int32
	byIRI, byID map[string]int32
}

// lookupCounts are the entities of each kind, counted first so every map
// and slice is made at its size: growing them (rehashing every IRI) was a
// third of linking at 10k skills.
type lookupCounts struct{ src, port, prop, act, lane, skill, tool, proc, bean, contract int }

func (lk *lookups) count(nodes []*node) {
	c := &lk.c
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
}

// lookupsFor is the one place a snapshot's lookups are shared: those of
// from (the snapshot this one updates) when the nodes keep its shape, else
// made from the nodes; own says they were made for this snapshot, whose
// analyses then fill their caches. A profile view's are its own
// (indexTools changes them).
func lookupsFor(nodes []*node, from *Snapshot) (lk *lookups, own bool) {
	if from != nil && from.Profile == "" && sameShape(from.shape, nodes) {
		return from.lk, false
	}
	return buildLookups(nodes), true
}

// buildLookups makes the lookups of nodes (sorted by subject, then graph;
// stored findings left out) from the nodes alone: every place is a place
// in the nodes or in a kind's slab, which link fills in node order, so
// the lookups index any snapshot linked from nodes of this shape.
func buildLookups(nodes []*node) *lookups {
	lk := &lookups{}
	lk.count(nodes)
	c := lk.c
	lk.sourceByIRI = make(map[string]int32, c.src)
	lk.ports = make(map[string]int32, c.port)
	lk.props = make(map[string]int32, c.prop)
	lk.lanes = make(map[string]int32, c.lane)
	lk.actByIRI = make(map[string]int32, c.act)
	lk.acts = make(map[[2]string][]int32, c.proc)
	var srcNodes []int32 // the source slab's nodes
	for i, n := range nodes {
		at := int32(i)
		// A source that is also an instance declaration is no entry of
		// the source slab (link's first pass).
		if n.flags&fSource != 0 && n.flags&fInstance == 0 {
			lk.sourceByIRI[n.iri] = int32(len(srcNodes))
			srcNodes = append(srcNodes, at)
		}
		if n.flags&fActivity != 0 {
			k := [2]string{n.actOwner, n.graph}
			lk.acts[k] = append(lk.acts[k], int32(len(lk.actNode)))
			lk.actByIRI[n.iri] = int32(len(lk.actNode))
			lk.actNode = append(lk.actNode, at)
		}
		if n.flags&fPort != 0 {
			lk.ports[n.iri] = at
		}
		if n.flags&fProp != 0 {
			lk.props[n.iri] = at
		}
		if n.flags&fLane != 0 {
			lk.lanes[n.iri] = at
		}
		if k, _, _, ok := entityKey(n); ok {
			lk.by[k].nodes = append(lk.by[k].nodes, at)
		}
		if _, ok := n.main.(*Process); ok {
			lk.procNode = append(lk.procNode, at)
		}
	}
	for _, as := range lk.acts {
		slices.SortStableFunc(as, func(a, b int32) int {
			return cmp.Compare(nodes[lk.actNode[a]].act.Position, nodes[lk.actNode[b]].act.Position)
		})
	}
	lk.steps = make([]stepTargets, len(lk.actNode))
	lk.flows = make([]flowOrdinals, c.proc)
	lk.nodeSrc = make([]int32, len(nodes))
	for i, n := range nodes {
		lk.nodeSrc[i] = -1
		if k, ok := lk.sourceByIRI[n.graph]; ok {
			lk.nodeSrc[i] = k
		}
	}
	for _, i := range lk.by[kTool].nodes {
		m := nodes[i].main.(*toolNode)
		var ps [2][]int32
		for k, iris := range [2][]string{m.inputs, m.outpt} {
			for _, p := range iris {
				if at, ok := lk.ports[p]; ok {
					ps[k] = append(ps[k], at)
				}
			}
		}
		lk.toolPorts = append(lk.toolPorts, ps)
	}
	lk.sourceOrder = sortedBy(srcNodes, func(i int32) string { return nodes[i].src.IRI })
	for k := range lk.by {
		lk.by[k].index(nodes)
	}
	inst := instancesOf(nodes, lk, srcNodes)
	lk.indexSkills(nodes, inst)
	lk.procByStem = make(map[[2]string]int32, c.proc)
	kp := &lk.by[kProcess]
	for i := len(kp.order) - 1; i >= 0; i-- {
		at := kp.order[i]
		n := kp.nodes[at]
		if doc, ok := inst(n); ok {
			if p := nodes[n].main.(*Process); p.Stem != "" {
				lk.procByStem[[2]string{doc, p.Stem}] = at
			}
		}
	}
	lk.dups = duplicateRuns(nodes)
	return lk
}

// index sorts the kind's entities by id (stable: ties in node order) and
// fills its maps: each key answers the first entity of that key in that
// order (of two nodes sharing an id, a duplicate finding, the first
// wins). Filled from the last entity to the first, each key is written
// once per entity instead of looked up and then written.
func (kd *keyed) index(nodes []*node) {
	kd.order = sortedBy(kd.nodes, func(i int32) string { _, _, id, _ := entityKey(nodes[i]); return id })
	kd.byIRI, kd.byID = make(map[string]int32, len(kd.order)), make(map[string]int32, len(kd.order))
	for i := len(kd.order) - 1; i >= 0; i-- {
		at := kd.order[i]
		_, iri, id, _ := entityKey(nodes[kd.nodes[at]])
		kd.byIRI[iri] = at
		kd.byID[id] = at
	}
}

// instancesOf is the IRI of the instance link gives a node (false for
// none): its source file's (which names its instance; an instance without
// a declaration node is made for it), else the instance of its document,
// when one is declared or named by a source.
func instancesOf(nodes []*node, lk *lookups, srcNodes []int32) func(at int32) (string, bool) {
	srcInst := make([]string, len(srcNodes)) // each source entry's instance
	docs := map[string]bool{}
	for _, n := range nodes {
		if n.flags&fInstance != 0 {
			docs[n.iri] = true
		}
		if n.flags&fSource != 0 {
			docs[n.srcDoc] = true
			if k, ok := lk.sourceByIRI[n.iri]; ok {
				srcInst[k] = n.srcDoc // the last source node of the IRI names it
			}
		}
	}
	return func(at int32) (string, bool) {
		if k := lk.nodeSrc[at]; k >= 0 {
			return srcInst[k], true
		}
		doc := docOf(nodes[at].iri)
		return doc, docs[doc]
	}
}

// indexSkills fills the skill lookups by package and bare name within an
// instance, and the ambiguous bare names.
func (lk *lookups) indexSkills(nodes []*node, inst func(int32) (string, bool)) {
	ks := &lk.by[kSkill]
	lk.skillByPkg, lk.skillByName = make(map[[3]string]int32, len(ks.order)), make(map[[2]string]int32, len(ks.order))
	skill := func(at int32) *Skill { return nodes[ks.nodes[at]].main.(*Skill) }
	for i := len(ks.order) - 1; i >= 0; i-- {
		at := ks.order[i]
		if doc, ok := inst(ks.nodes[at]); ok {
			sk := skill(at)
			lk.skillByPkg[[3]string{doc, sk.Package, sk.ID}] = at
			lk.skillByName[[2]string{doc, sk.ID}] = at
		}
	}
	lk.skillAmbig = nil
	for i := 0; i < len(ks.order); {
		j := i + 1
		for j < len(ks.order) && skill(ks.order[j]).ID == skill(ks.order[i]).ID {
			j++
		}
		if j-i > 1 {
			lk.indexAmbiguous(ks.order[i:j], skill, func(at int32) (string, bool) { return inst(ks.nodes[at]) })
		}
		i = j
	}
}

// indexAmbiguous records the bare names of the skills at those places
// (one id, in id order) that name two skills (two IRIs) in one instance.
func (lk *lookups) indexAmbiguous(places []int32, skill func(int32) *Skill, inst func(int32) (string, bool)) {
	byKey := map[[2]string][]int32{}
	var keys [][2]string
	for _, at := range places {
		doc, ok := inst(at)
		if !ok {
			continue
		}
		sk := skill(at)
		key := [2]string{doc, sk.ID}
		if !slices.ContainsFunc(byKey[key], func(o int32) bool { return skill(o).IRI == sk.IRI }) {
			if byKey[key] == nil {
				keys = append(keys, key)
			}
			byKey[key] = append(byKey[key], at)
		}
	}
	for _, key := range keys {
		if at := byKey[key]; len(at) > 1 {
			slices.SortStableFunc(at, func(a, b int32) int { return strings.Compare(skill(a).IRI, skill(b).IRI) })
			if lk.skillAmbig == nil {
				lk.skillAmbig = map[[2]string][]int32{}
			}
			lk.skillAmbig[key] = at
		}
	}
}

// duplicateRuns is the runs of two or more typed nodes of one IRI
// (places in the nodes), which the duplicate findings report.
func duplicateRuns(nodes []*node) [][]int32 {
	dups := [][]int32{}
	var run []int32
	for i := 0; i < len(nodes); {
		j := i + 1
		for j < len(nodes) && nodes[j].iri == nodes[i].iri {
			j++
		}
		if j-i > 1 {
			run = run[:0]
			for k := i; k < j; k++ {
				if nodes[k].flags&fDupCandidate != 0 {
					run = append(run, int32(k))
				}
			}
			if len(run) > 1 {
				dups = append(dups, slices.Clone(run))
			}
		}
		i = j
	}
	return dups
}

// sortedBy is places (indexes) in stable key order.
func sortedBy(places []int32, key func(int32) string) []int32 {
	order := make([]int32, len(places))
	for i := range order {
		order[i] = int32(i)
	}
	sortStable(order, func(i int32) string { return key(places[i]) })
	return order
}

// indexTools fills the Tool lookups from tools (sorted by id), the first
// of a key winning as in index.
func (lk *lookups) indexTools(tools []*Tool) {
	kt := &lk.by[kTool]
	kt.byIRI, kt.byID = make(map[string]int32, len(tools)), make(map[string]int32, len(tools))
	for i := len(tools) - 1; i >= 0; i-- {
		t := tools[i]
		kt.byIRI[t.IRI] = t.slab
		kt.byID[t.ID] = t.slab
	}
}

// at is the entity of slab at the place m gives key, or nil.
func at[K comparable, T any](slab []T, m map[K]int32, key K) *T {
	if i, ok := m[key]; ok {
		return &slab[i]
	}
	return nil
}

// sourceOf is the source file of that IRI (a graph's), or nil.
func (s *Snapshot) sourceOf(iri string) *Source { return at(s.srcSlab, s.lk.sourceByIRI, iri) }

// activityOf is the activity of that IRI, or nil.
func (s *Snapshot) activityOf(iri string) *Activity { return at(s.actSlab, s.lk.actByIRI, iri) }

// sameShape reports whether next has the nodes of prev in the same places
// with the same keys, so that the lookups of prev index next's entities
// too: an edit that changes what a file says but not what it defines (the
// usual one under --watch). Nodes shared by both are the same pointer; only
// the replaced ones are compared.
func sameShape(prev, next []*node) bool {
	if len(prev) != len(next) {
		return false
	}
	for i, a := range prev {
		if b := next[i]; a != b && !sameKeys(a, b) {
			return false
		}
	}
	return true
}

// sameKeys reports whether two nodes give link the same keys and places:
// everything the lookups are made from. Instance declarations are never
// the same shape (instances are linked by name and document, rarely
// edited); values read from the node itself each time (ports, contract
// properties, lanes) need not be equal.
func sameKeys(a, b *node) bool {
	if a.iri != b.iri || a.graph != b.graph || a.flags != b.flags || a.flags&fInstance != 0 {
		return false
	}
	if a.flags&fSource != 0 && (a.srcDoc != b.srcDoc || a.src.Path != b.src.Path || a.src.Parser != b.src.Parser) {
		return false
	}
	if a.flags&fActivity != 0 && (a.actOwner != b.actOwner || a.act.Position != b.act.Position) {
		return false
	}
	// The entity kind, then the keys of the kinds that have them.
	if reflect.TypeOf(a.main) != reflect.TypeOf(b.main) {
		return false
	}
	switch x := a.main.(type) {
	case *Skill:
		y := b.main.(*Skill)
		return x.ID == y.ID && x.Package == y.Package
	case *toolNode:
		y := b.main.(*toolNode)
		// The port IRIs too: the lookups keep each Tool's ports.
		return x.tool.ID == y.tool.ID && slices.Equal(x.inputs, y.inputs) && slices.Equal(x.outpt, y.outpt)
	case *Process:
		y := b.main.(*Process)
		return x.ID == y.ID && x.Stem == y.Stem
	case *Bean:
		return x.ID == b.main.(*Bean).ID
	}
	return true
}
