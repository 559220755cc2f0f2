package queries

import (
	"context"
	"sync"
	"time"

	"github.com/cayleygraph/quad"

	"github.com/skillgraph/skillgraph/graph"
)

// Snapshot is the in-memory index of one graph version with every analysis
// computed. It is immutable once built: readers share it without locks and
// a new version replaces it atomically.
type Snapshot struct {
	Version    int64
	Instances  []*Instance
	Sources    []*Source
	Skills     []*Skill // sorted by id
	Tools      []*Tool  // sorted by id
	Processes  []*Process
	Beans      []*Bean
	ToolSkills []*ToolSkill
	Servers    []*Server
	Scripts    []*Script
	Contracts  map[string]*Contract
	Findings   []Finding // sorted by instance, file, line, code, message (sortFindings)

	Coverage     Coverage
	Reach        Reachability
	Alternatives Alternatives

	// nodes are the decoded subjects of this version, sorted by subject
	// then graph: shared with the next version for the graphs that did
	// not change, and linked again for profile views (SPEC §5.5).
	nodes     []*node
	profileMu sync.Mutex
	profiled  map[string]*Snapshot
	Profile   string // the exposure profile this view is under, "" for all Tools
	// BuiltAt is when this snapshot was built from the store.
	BuiltAt time.Time

	Workflows []*Workflow
	Programs  []*Program

	instByName  map[string]*Instance
	instByDoc   map[string]*Instance
	skillByIRI  map[string]*Skill
	skillByID   map[string]*Skill
	toolByIRI   map[string]*Tool
	toolByID    map[string]*Tool
	procByIRI   map[string]*Process
	procByID    map[string]*Process
	beanByIRI   map[string]*Bean
	beanByID    map[string]*Bean
	actByIRI    map[string]*Activity
	skillByPkg  map[[3]string]*Skill   // instance IRI, package, name
	skillByName map[[2]string]*Skill   // instance IRI, bare name: the first of its packages
	procByStem  map[[2]string]*Process // instance IRI, file stem
	sourceByIRI map[string]*Source
}

// Build reads the store's current graph version and computes every analysis.
func Build(ctx context.Context, st *graph.Store) (*Snapshot, error) {
	raws, v, err := readAll(ctx, st)
	if err != nil {
		return nil, err
	}
	s := index(raws)
	s.Version = v
	s.BuiltAt = time.Now().UTC()
	s.analyse()
	return s, nil
}

// Update returns the snapshot of the next graph version from this one and
// the changes that produced it, without reading the store back: only the
// changed graphs are regrouped and decoded, the nodes of every other graph
// are shared with this snapshot, then the entities are linked and the
// analyses run again. It gives the same answers as Build on the updated
// store; this snapshot is not modified (readers may still hold it).
func (s *Snapshot) Update(changes []graph.Change, version int64) *Snapshot {
	changed := make([]string, 0, len(changes))
	g := newGrouper()
	for _, c := range changes {
		changed = append(changed, c.Graph)
		if c.Delete {
			continue
		}
		for _, q := range c.Quads {
			q.Label = quad.IRI(c.Graph)
			g.add(q)
		}
	}
	n := link(replaceGraphs(s.nodes, changed, decodeNodes(g.raws())))
	n.Version = version
	n.BuiltAt = time.Now().UTC()
	n.analyse()
	return n
}

func newSnapshot() *Snapshot {
	return &Snapshot{
		Contracts: map[string]*Contract{}, instByName: map[string]*Instance{}, instByDoc: map[string]*Instance{},
		skillByIRI: map[string]*Skill{}, skillByID: map[string]*Skill{}, toolByIRI: map[string]*Tool{},
		toolByID: map[string]*Tool{}, procByIRI: map[string]*Process{}, procByID: map[string]*Process{},
		beanByIRI: map[string]*Bean{}, beanByID: map[string]*Bean{}, actByIRI: map[string]*Activity{},
		skillByPkg: map[[3]string]*Skill{}, skillByName: map[[2]string]*Skill{}, procByStem: map[[2]string]*Process{},
		sourceByIRI: map[string]*Source{},
	}
}
