package queries

import (
	"context"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

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
	// Agent-host components (SPEC §1.3), linked in hosts.go.
	Plugins      []*Plugin
	Marketplaces []*Marketplace
	Commands     []*Command
	Agents       []*Agent
	Hooks        []*Hook
	McpServers   []*McpServerConfig
	entries      []*MarketplaceEntry
	Findings     []Finding // sorted by instance, file, line, code, message (compareFindings)

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
	plan      *workflowPlan // between the workflow plan and the workflows (analyses)
	walks     *walkShape    // the workflow walks, which the next snapshot may take (planWorkflows)

	instByName map[string]*Instance
	instByDoc  map[string]*Instance
	srcPkg     map[*Source]string // packageOf, made on first use
	srcPkgOnce sync.Once
	lk         *lookups // indexes into the slabs, shared by snapshots of one shape
	// prev is the snapshot this one updates, while its analyses run: an
	// analysis that proves its inputs unchanged takes prev's result
	// (incremental analyses, issue #27). Dropped when they are done, so a
	// snapshot never holds its predecessors.
	prev       *Snapshot
	shape      []*node // nodes but the stored findings: what lk's node places index
	ownLookups bool    // lk was made for this snapshot: its analyses fill lk's caches

	// The entities of each kind in node order: the lists above point into
	// them, the lookups give places in them.
	srcSlab   []Source
	actSlab   []Activity
	skillSlab []Skill
	toolSlab  []Tool
	procSlab  []Process
	beanSlab  []Bean
}

// Build reads the store's current graph version and computes every analysis.
func Build(ctx context.Context, st *graph.Store) (*Snapshot, error) {
	nodes, v, err := readNodes(ctx, st)
	if err != nil {
		return nil, err
	}
	s := link(nodes, nil)
	s.Version = v
	s.BuiltAt = time.Now().UTC()
	s.analyse()
	return s, nil
}

// Update returns the snapshot of the next graph version from this one and
// the changes that produced it, without reading the store back: only the
// changed graphs are regrouped and decoded, the nodes of every other graph
// are shared with this snapshot, then the entities are linked (with this
// snapshot's lookups when the changes kept every key in its place) and the
// analyses run again. It gives the same answers as Build on the updated
// store; this snapshot is not modified (readers may still hold it).
func (s *Snapshot) Update(changes []graph.Change, version int64) *Snapshot {
	changed := make([]string, 0, len(changes))
	for _, c := range changes {
		changed = append(changed, c.Graph)
	}
	nodes := replaceGraphs(s.nodes, changed, decodeChanges(changes))
	n := link(nodes, s)
	n.Version = version
	n.BuiltAt = time.Now().UTC()
	n.prev = s
	n.analyse()
	n.prev = nil
	return n
}

// parallelGraphs is how many changed graphs an Update decodes on one
// goroutine per CPU from: an edit's few graphs are decoded where they are.
const parallelGraphs = 64

// decodeChanges is the nodes of the changed graphs, grouped and decoded
// graph by graph as a full read does (readNodes), in node order (subject,
// then graph). Many graphs (a cold start's first Update is every graph of
// the corpus: 1.1 CPU-s at 10k skills, on one core while the other
// waited) are decoded on one goroutine per CPU, each taking the next graph
// and sorting what it decoded; the sorted runs are then merged.
func decodeChanges(changes []graph.Change) []*node {
	if len(changes) < parallelGraphs {
		return decodeChangesOn(changes, 1)
	}
	return decodeChangesOn(changes, runtime.GOMAXPROCS(0))
}

// decodeChangesOn is decodeChanges on that many goroutines (≤ 1: on this
// one).
func decodeChangesOn(changes []graph.Change, workers int) []*node {
	var next atomic.Int64
	// run decodes the next graph not taken until none is left, and
	// returns what it decoded, sorted.
	run := func() []*node {
		var mine []*node
		for {
			i := int(next.Add(1)) - 1
			if i >= len(changes) {
				break
			}
			if c := changes[i]; !c.Delete {
				mine = append(mine, decodeNodes(groupGraph(c.Graph, c.Quads))...)
			}
		}
		slices.SortFunc(mine, compareNodes)
		return mine
	}
	if workers <= 1 {
		return run()
	}
	runs := make([][]*node, workers)
	var wg sync.WaitGroup
	for w := range runs {
		wg.Go(func() { runs[w] = run() })
	}
	wg.Wait()
	return mergeNodes(runs)
}

// mergeNodes merges sorted runs of nodes into one sorted list (few runs:
// the least head is found by looking at each).
func mergeNodes(runs [][]*node) []*node {
	n := 0
	for _, r := range runs {
		n += len(r)
	}
	out := make([]*node, 0, n)
	for len(out) < n {
		least := -1
		for i, r := range runs {
			if len(r) > 0 && (least < 0 || compareNodes(r[0], runs[least][0]) < 0) {
				least = i
			}
		}
		out = append(out, runs[least][0])
		runs[least] = runs[least][1:]
	}
	return out
}

func newSnapshot() *Snapshot {
	return &Snapshot{instByName: map[string]*Instance{}, instByDoc: map[string]*Instance{}}
}
