package queries

import (
	"reflect"
	"slices"
	"strings"
)

// Skill returns the skill with that id ("package/name" also works), or nil.
func (s *Snapshot) Skill(id string) *Skill {
	if sk := at(s.skillSlab, s.lk.skillByID, id); sk != nil {
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
func (s *Snapshot) Tool(id string) *Tool { return at(s.toolSlab, s.lk.toolByID, id) }

// Process returns the process with that process/@id or file stem, or nil.
func (s *Snapshot) Process(id string) *Process {
	if p := at(s.procSlab, s.lk.procByID, id); p != nil {
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
func (s *Snapshot) Bean(id string) *Bean { return at(s.beanSlab, s.lk.beanByID, id) }

// Instance returns the instance of that name, or nil.
func (s *Snapshot) Instance(name string) *Instance { return s.instByName[name] }

// lookups index a snapshot's entities by key, as places in its slabs
// (node order), and hold the sorted orders of the entity lists. They
// depend only on the shape of the nodes (sameShape): the next snapshot of
// an edit that keeps every key and place shares them instead of hashing
// every IRI again (issue #14: making them was a third of linking at 10k
// skills). Read-only once link has made them, but for a profile view's own
// (indexTools).
type lookups struct {
	c lookupCounts

	sourceByIRI         map[string]int32 // the last source node of an IRI
	actByIRI            map[string]int32 // the last activity node of an IRI
	ports, props, lanes map[string]int32 // places in the nodes, the last of an IRI
	acts                map[[2]string][]int32
	nodeSrc             []int32      // each node's source in the slab, -1 for none
	toolPorts           [][2][]int32 // each Tool's input and output ports, places in the nodes
	dups                [][]int32    // runs of typed nodes of one IRI (places in the nodes)

	skillByIRI, skillByID map[string]int32 // the first of a key in id order
	skillByPkg            map[[3]string]int32
	skillByName           map[[2]string]int32
	// skillAmbig: the skills (in IRI order) of each bare name that two or
	// more packages of one instance define; a bare reference to one of
	// these resolves only within the referrer's own package (issue 23.1).
	skillAmbig          map[[2]string][]int32
	toolByIRI, toolByID map[string]int32
	procByIRI, procByID map[string]int32
	procByStem          map[[2]string]int32
	beanByIRI, beanByID map[string]int32

	skillOrder, toolOrder, procOrder, beanOrder, sourceOrder []int32

	reach    *reachBase     // made by the first reachability over these lookups
	actNode  []int32        // each activity's place in the nodes
	steps    []stepTargets  // each activity's, resolved by the lookups' own snapshot
	procNode []int32        // each process's place in the nodes
	flows    []flowOrdinals // each process's flow order, by the lookups' own snapshot
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

// order sorts each entity kind: stable sorts, one order whatever the
// algorithm, ties in node order.
func (lk *lookups) order(s *Snapshot) {
	lk.skillOrder = sortedBy(s.skillSlab, func(x *Skill) string { return x.ID })
	lk.toolOrder = sortedBy(s.toolSlab, func(x *Tool) string { return x.ID })
	lk.procOrder = sortedBy(s.procSlab, func(x *Process) string { return x.ID })
	lk.beanOrder = sortedBy(s.beanSlab, func(x *Bean) string { return x.ID })
	lk.sourceOrder = sortedBy(s.srcSlab, func(x *Source) string { return x.IRI })
}

// sortedBy is the places of slab's entries in stable key order.
func sortedBy[T any](slab []T, key func(*T) string) []int32 {
	order := make([]int32, len(slab))
	for i := range order {
		order[i] = int32(i)
	}
	sortStable(order, func(i int32) string { return key(&slab[i]) })
	return order
}

// index fills the lookups by key from the sorted entities: each answers
// the first entity of a key in sorted order (of two nodes sharing an id, a
// duplicate finding, the first wins). Filled from the last entity to the
// first, each key is written once per entity instead of looked up and
// then written.
func (lk *lookups) index(s *Snapshot) {
	c := lk.c
	lk.skillByIRI, lk.skillByID = make(map[string]int32, c.skill), make(map[string]int32, c.skill)
	lk.skillByPkg, lk.skillByName = make(map[[3]string]int32, c.skill), make(map[[2]string]int32, c.skill)
	for i := len(s.Skills) - 1; i >= 0; i-- {
		sk, at := s.Skills[i], lk.skillOrder[i]
		lk.skillByIRI[sk.IRI] = at
		lk.skillByID[sk.ID] = at
		if sk.Instance != nil {
			lk.skillByPkg[[3]string{sk.Instance.IRI, sk.Package, sk.ID}] = at
			lk.skillByName[[2]string{sk.Instance.IRI, sk.ID}] = at
		}
	}
	lk.skillAmbig = nil
	for i := 0; i < len(s.Skills); {
		j := i + 1
		for j < len(s.Skills) && s.Skills[j].ID == s.Skills[i].ID {
			j++
		}
		if j-i > 1 {
			lk.indexAmbiguous(s, i, j)
		}
		i = j
	}
	lk.indexTools(s.Tools)
	lk.procByIRI, lk.procByID = make(map[string]int32, c.proc), make(map[string]int32, c.proc)
	lk.procByStem = make(map[[2]string]int32, c.proc)
	for i := len(s.Processes) - 1; i >= 0; i-- {
		p, at := s.Processes[i], lk.procOrder[i]
		lk.procByIRI[p.IRI] = at
		lk.procByID[p.ID] = at
		if p.Instance != nil && p.Stem != "" {
			lk.procByStem[[2]string{p.Instance.IRI, p.Stem}] = at
		}
	}
	lk.beanByIRI, lk.beanByID = make(map[string]int32, c.bean), make(map[string]int32, c.bean)
	for i := len(s.Beans) - 1; i >= 0; i-- {
		b, at := s.Beans[i], lk.beanOrder[i]
		lk.beanByIRI[b.IRI] = at
		lk.beanByID[b.ID] = at
	}
}

// indexAmbiguous records the bare names of the skills s.Skills[i:j] (one
// id) that name two skills (two IRIs) in one instance.
func (lk *lookups) indexAmbiguous(s *Snapshot, i, j int) {
	byKey := map[[2]string][]int32{}
	var keys [][2]string
	for k := i; k < j; k++ {
		sk := s.Skills[k]
		if sk.Instance == nil {
			continue
		}
		key := [2]string{sk.Instance.IRI, sk.ID}
		at := lk.skillOrder[k]
		if !slices.ContainsFunc(byKey[key], func(o int32) bool { return s.skillSlab[o].IRI == sk.IRI }) {
			if byKey[key] == nil {
				keys = append(keys, key)
			}
			byKey[key] = append(byKey[key], at)
		}
	}
	for _, key := range keys {
		if at := byKey[key]; len(at) > 1 {
			slices.SortStableFunc(at, func(a, b int32) int { return strings.Compare(s.skillSlab[a].IRI, s.skillSlab[b].IRI) })
			if lk.skillAmbig == nil {
				lk.skillAmbig = map[[2]string][]int32{}
			}
			lk.skillAmbig[key] = at
		}
	}
}

// indexTools fills the Tool lookups from tools (sorted by id), the first
// of a key winning as in index.
func (lk *lookups) indexTools(tools []*Tool) {
	lk.toolByIRI, lk.toolByID = make(map[string]int32, len(tools)), make(map[string]int32, len(tools))
	for i := len(tools) - 1; i >= 0; i-- {
		t := tools[i]
		lk.toolByIRI[t.IRI] = t.slab
		lk.toolByID[t.ID] = t.slab
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
