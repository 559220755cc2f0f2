package queries

import (
	"cmp"
	"math"
	"slices"
	"sort"
	"sync"
)

// Step states of workflow coverage (SPEC §5.5).
const (
	StatePerformed = "performed"
	StateManual    = "manual"
	StateGap       = "gap"
)

// WorkflowStep is one skill-naming step and how it is done.
type WorkflowStep struct {
	Step     *Activity
	SkillRef string // the skill as named by the step
	Skill    *Skill // nil when the name resolves to no skill (a gap, or manual)
	State    string
}

// Workflow is the workflow coverage of one process, through the processes
// it calls (each callee counted once, cycles cut).
type Workflow struct {
	Process   *Process
	Performed int
	Manual    int
	Gap       int
	FirstGap  *WorkflowStep

	// Its steps are the segments walk.list[lo:hi], joined when first asked
	// for: a root's walk copied out for every workflow was most of the
	// analysis's allocations at 10k skills, and few requests read steps.
	walk   *workflowWalk
	lo, hi int32
	total  int
	once   sync.Once
	steps  []WorkflowStep
}

// Steps are the skill-naming steps in sequence-flow order, callees in
// place. Read-only: they are shared.
func (w *Workflow) Steps() []WorkflowStep {
	w.once.Do(func() {
		if w.total == 0 {
			return
		}
		w.steps = make([]WorkflowStep, 0, w.total)
		for _, r := range w.walk.list[w.lo:w.hi] {
			w.steps = append(w.steps, w.walk.segs[r.proc][r.seg].steps...)
		}
	})
	return w.steps
}

// Total is the number of skill-naming steps.
func (w *Workflow) Total() int { return w.total }

// Ratio is performed / skill-naming steps; 1 for a process naming none.
func (w *Workflow) Ratio() float64 {
	if w.total == 0 {
		return 1
	}
	return float64(w.Performed) / float64(w.total)
}

// performedBy reports whether a reachable, valid Tool performs the skill.
func performedBy(sk *Skill) bool {
	for _, t := range sk.Tools {
		if t.Reachable {
			return true
		}
	}
	return false
}

// flowOrder orders a process's activities along its sequence flows: a
// breadth-first walk from the nodes nothing flows into, document order
// breaking ties and placing nodes no flow reaches. Activities are counted
// by their place in p.Activities (ord, set when linking), so the walk
// needs no map of its own and looks each flow's target up once.
func flowOrder(p *Process, byIRI func(string) *Activity) []*Activity {
	n := len(p.Activities)
	incoming := make([]int32, n)
	seen := make([]bool, n)
	// succ[from[i]:from[i+1]] are the places of activity i's targets in
	// this process, in NextIRI order (duplicates kept, as the walk sees them).
	from := make([]int32, n+1)
	var succ []int32
	for i, a := range p.Activities {
		from[i] = int32(len(succ))
		for _, iri := range a.NextIRI {
			if b := byIRI(iri); b != nil && b.Process == p {
				succ = append(succ, b.ord)
				incoming[b.ord]++
			}
		}
	}
	from[n] = int32(len(succ))
	order := make([]*Activity, 0, n)
	queue := make([]int32, 0, n)
	for i := range p.Activities {
		if incoming[i] == 0 {
			queue = append(queue, int32(i))
			seen[i] = true
		}
	}
	unseen := 0 // every activity before it has been seen
	var next []int32
	for len(queue) > 0 || len(order) < n {
		if len(queue) == 0 {
			for seen[unseen] { // a loop with no entry: its first in document order
				unseen++
			}
			queue = append(queue, int32(unseen))
			seen[unseen] = true
		}
		i := queue[0]
		queue = queue[1:]
		order = append(order, p.Activities[i])
		next = next[:0]
		for _, j := range succ[from[i]:from[i+1]] {
			if !seen[j] {
				next = append(next, j)
			}
		}
		slices.SortFunc(next, func(x, y int32) int {
			return cmp.Compare(p.Activities[x].Position, p.Activities[y].Position)
		})
		for _, j := range next {
			seen[j] = true
			queue = append(queue, j)
		}
	}
	return order
}

// workflowSegment is a run of a process's skill-naming steps and the
// process called after them (nil at the end), in the order a workflow walk
// visits them.
type workflowSegment struct {
	steps []WorkflowStep
	calls *Process
}

// segRef is a segment of one walk: the process's place and the segment's.
type segRef struct{ proc, seg int32 }

// workflowWalk is one walk from a root: the segments in the order it
// visits them. The workflows of the root and of the callees walked whole
// within it are ranges of it.
type workflowWalk struct {
	segs [][]workflowSegment // every process's segments
	list []segRef
	n    int // its place in workflowPlan.walks
}

// flowOf is flowOrder(p): kept by the lookups when they are this
// snapshot's own, taken from them when p's node is the one they were
// ordered for. The order depends only on the activities of p's graph and
// the lookups (which activity an IRI is, its process and place), so an
// unchanged graph's processes are not walked again.
func (s *Snapshot) flowOf(p *Process) []*Activity {
	lk, n := s.lk, s.shape[s.lk.procNode[p.slab]]
	if !s.ownLookups {
		if f := lk.flows[p.slab]; f.node == n {
			out := make([]*Activity, len(f.ords))
			for i, k := range f.ords {
				out[i] = p.Activities[k]
			}
			return out
		}
	}
	order := flowOrder(p, s.activityOf)
	if s.ownLookups {
		f := flowOrdinals{node: n, ords: make([]int32, len(order))}
		for i, a := range order {
			f.ords[i] = a.ord
		}
		lk.flows[p.slab] = f // each process once: its own slot, so no lock
	}
	return order
}

// flowOrdinals is a process's flow order as places in its Activities.
type flowOrdinals struct {
	node *node
	ords []int32
}

// workflowPlan is every process's workflow but the steps' states and the
// counts they give. It is made while reachability (which the states need)
// runs.
type workflowPlan struct {
	ws     []*Workflow      // of s.Processes[i]
	walks  []*workflowWalk  // every walk, each once
	arrays [][]WorkflowStep // every process's steps, which the segments are parts of
}

// planWorkflows orders every process's steps, cuts them at its calls and
// walks them from each process (SPEC §5.5). Each process's segments are
// resolved once: a step's state depends on the step and its skill only,
// not on which root's walk reaches it, so a process called from many roots
// is not resolved again per root.
func (s *Snapshot) planWorkflows() *workflowPlan {
	n := len(s.Processes)
	procIdx := make(map[*Process]int32, n)
	for i, p := range s.Processes {
		procIdx[p] = int32(i)
	}
	segs := make([][]workflowSegment, n)
	plan := &workflowPlan{}
	for i, p := range s.Processes {
		// One slice of steps per process; each segment is the run of it
		// up to a call, or to the end.
		var steps []WorkflowStep
		var cuts []int // where each call's segment ends
		var calls []*Process
		for _, a := range s.flowOf(p) {
			// The refs of stepRefs, without a slice per activity.
			for k := range a.SkillIRI {
				steps = append(steps, WorkflowStep{Step: a, SkillRef: a.skillNames[k], Skill: a.named[k]})
			}
			if len(a.SkillIRI) == 0 {
				for _, sk := range a.Skills { // implicit Camunda refs that resolved
					steps = append(steps, WorkflowStep{Step: a, SkillRef: sk.ID, Skill: sk})
				}
			}
			if a.Calls != nil {
				cuts, calls = append(cuts, len(steps)), append(calls, a.Calls)
			}
		}
		lo := 0
		for k, c := range cuts {
			segs[i] = append(segs[i], workflowSegment{steps: steps[lo:c:c], calls: calls[k]})
			lo = c
		}
		if lo < len(steps) || len(cuts) == 0 {
			segs[i] = append(segs[i], workflowSegment{steps: steps[lo:len(steps):len(steps)]})
		}
		if len(steps) > 0 {
			plan.arrays = append(plan.arrays, steps)
		}
	}
	// The walks depend on which process each segment calls and nothing
	// else: an edit that keeps every call (a description, a skill's
	// Tool) takes the previous snapshot's (incremental analyses, issue
	// #27: at 100k skills they were ≈ 40 MB and 0.2 CPU-s of every
	// Update, the roots' walks passing through the callees again).
	calls := callShape(segs, procIdx)
	shape := s.prevWalks(calls)
	if shape == nil {
		shape = walkCalls(calls, n)
	}
	s.walks = shape
	plan.walks = make([]*workflowWalk, len(shape.lists))
	for i, list := range shape.lists {
		plan.walks[i] = &workflowWalk{segs: segs, list: list, n: i}
	}
	plan.ws = make([]*Workflow, n)
	for q, part := range shape.parts {
		plan.ws[q] = &Workflow{Process: s.Processes[q], walk: plan.walks[part.walk], lo: part.lo, hi: part.hi}
	}
	return plan
}

// walkShape is every workflow walk, as places: what walkCalls makes of
// the processes' calls, kept with the calls so that the next snapshot can
// take it when its calls are the same.
type walkShape struct {
	calls []int32    // callShape
	lists [][]segRef // each walk's segments, read-only: shared by snapshots
	parts []walkPart // each process's workflow: the range of a walk
}

// walkPart is a process's workflow as a range of one walk.
type walkPart struct {
	walk   int32
	lo, hi int32
}

// callShape is, process by process, its number of segments followed by
// each segment's callee (a place in s.Processes, -1: none).
func callShape(segs [][]workflowSegment, procIdx map[*Process]int32) []int32 {
	n := len(segs)
	for _, ss := range segs {
		n += len(ss)
	}
	out := make([]int32, 0, n)
	for _, ss := range segs {
		out = append(out, int32(len(ss)))
		for _, sg := range ss {
			c := int32(-1)
			if sg.calls != nil {
				c = procIdx[sg.calls]
			}
			out = append(out, c)
		}
	}
	return out
}

// prevWalks is the walks of the snapshot this one updates when its calls
// are these, else nil.
func (s *Snapshot) prevWalks(calls []int32) *walkShape {
	if s.prev == nil || s.prev.walks == nil || !slices.Equal(s.prev.walks.calls, calls) {
		return nil
	}
	return s.prev.walks
}

// walkCalls walks n processes' segments by their calls (callShape). A
// process's workflow is the steps of a walk from it. Within a caller's
// walk, a callee's part is exactly the callee's own workflow when nothing
// of it was skipped for having been visited before the callee was
// entered: then the callee's workflow is that part of the caller's walk
// rather than a walk of its own. Processes nothing calls are walked
// first, so most workflows are parts of theirs.
func walkCalls(calls []int32, n int) *walkShape {
	segCalls := make([][]int32, n) // each process's segments' callees
	for q, at := 0, 0; q < n; q++ {
		k := int(calls[at])
		segCalls[q] = calls[at+1 : at+1+k]
		at += 1 + k
	}
	isCalled := make([]bool, n)
	for _, cs := range segCalls {
		for _, c := range cs {
			if c >= 0 {
				isCalled[c] = true
			}
		}
	}
	order := make([]int, 0, n)
	for i := range n {
		if !isCalled[i] {
			order = append(order, i)
		}
	}
	for i := range n {
		if isCalled[i] {
			order = append(order, i)
		}
	}
	shape := &walkShape{calls: calls, parts: make([]walkPart, n)}
	done := make([]bool, n)
	visited := make([]int, n) // the stamp of the last walk that visited it
	entry := make([]int, n)   // its place in the entry order of that walk
	stamp := 0
	for _, i := range order {
		if done[i] {
			continue
		}
		stamp++
		w := int32(len(shape.lists))
		var list []segRef
		entered := 0
		// visit walks q and returns the smallest entry place of a process
		// it skipped (a callee counts once; cycles are cut).
		var visit func(q int) int
		visit = func(q int) int {
			visited[q], entry[q] = stamp, entered
			entered++
			start, lo := len(list), math.MaxInt
			for k, c := range segCalls[q] {
				list = append(list, segRef{int32(q), int32(k)})
				if c < 0 {
					continue
				}
				if visited[c] == stamp {
					lo = min(lo, entry[c])
				} else {
					lo = min(lo, visit(int(c)))
				}
			}
			if !done[q] && lo >= entry[q] {
				done[q] = true
				shape.parts[q] = walkPart{walk: w, lo: int32(start), hi: int32(len(list))}
			}
			return lo
		}
		visit(i)
		shape.lists = append(shape.lists, slices.Clip(list))
	}
	return shape
}

// segCount is what one segment's steps add to a workflow's counts.
type segCount struct {
	performed, manual, gap int32
	firstGap               int32 // its first gap step, -1 for none
}

// workflows computes each process's workflow coverage from its plan, once
// reachability is known: a step is performed when a reachable, valid Tool
// performs its skill (SPEC §5.5). Each workflow's counts are differences
// of its walk's running counts, and its first gap the walk's next gap
// from where it starts.
func (s *Snapshot) workflows(plan *workflowPlan) {
	for _, steps := range plan.arrays {
		for k := range steps {
			st := &steps[k]
			switch {
			case st.Skill != nil && performedBy(st.Skill):
				st.State = StatePerformed
			case st.Step.Automation() == "person":
				st.State = StateManual
			default:
				st.State = StateGap
			}
		}
	}
	if len(plan.walks) == 0 {
		s.Workflows = []*Workflow{}
		return
	}
	segs := plan.walks[0].segs
	counts := make([][]segCount, len(segs))
	for q, ss := range segs {
		counts[q] = make([]segCount, len(ss))
		for k, sg := range ss {
			c := segCount{firstGap: -1}
			for j := range sg.steps {
				switch sg.steps[j].State {
				case StatePerformed:
					c.performed++
				case StateManual:
					c.manual++
				default:
					if c.gap == 0 {
						c.firstGap = int32(j)
					}
					c.gap++
				}
			}
			counts[q][k] = c
		}
	}
	// Per walk: running counts before each of its segments, and the next
	// segment from each place on that holds a gap; then the counts of the
	// workflows that are parts of it. The two arrays are the length of
	// the walk and are reused walk after walk: one per walk, kept until
	// the end, was the analysis's largest allocation at 100k skills
	// (≈ 60 MB per Update; the roots' walks pass through the callees).
	type running struct{ performed, manual, gap, total int }
	var (
		pre  []running
		next []int32
	)
	for i, group := range workflowsByWalk(plan) {
		walk := plan.walks[i]
		pre = slices.Grow(pre[:0], len(walk.list)+1)[:len(walk.list)+1]
		next = slices.Grow(next[:0], len(walk.list)+1)[:len(walk.list)+1]
		pre[0], next[len(walk.list)] = running{}, -1
		for k, r := range walk.list {
			c, p := counts[r.proc][r.seg], pre[k]
			pre[k+1] = running{p.performed + int(c.performed), p.manual + int(c.manual), p.gap + int(c.gap),
				p.total + len(segs[r.proc][r.seg].steps)}
		}
		for k := len(walk.list) - 1; k >= 0; k-- {
			next[k] = next[k+1]
			if r := walk.list[k]; counts[r.proc][r.seg].gap > 0 {
				next[k] = int32(k)
			}
		}
		for _, w := range group {
			a, b := pre[w.lo], pre[w.hi]
			w.Performed, w.Manual, w.Gap, w.total = b.performed-a.performed, b.manual-a.manual, b.gap-a.gap, b.total-a.total
			if g := next[w.lo]; g >= 0 && g < w.hi {
				r := w.walk.list[g]
				w.FirstGap = &segs[r.proc][r.seg].steps[counts[r.proc][r.seg].firstGap]
			}
		}
	}
	out := slices.Clone(plan.ws)
	// Worst first: lowest ratio, then most gaps, then id.
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if ra, rb := a.Ratio(), b.Ratio(); ra != rb {
			return ra < rb
		}
		if a.Gap != b.Gap {
			return a.Gap > b.Gap
		}
		return a.Process.ID < b.Process.ID
	})
	s.Workflows = out
}

// workflowsByWalk is the plan's workflows grouped by the walk they are
// parts of (group i: walk i's), in the plan's order within each group.
func workflowsByWalk(plan *workflowPlan) [][]*Workflow {
	start := make([]int, len(plan.walks)+1)
	for _, w := range plan.ws {
		start[w.walk.n+1]++
	}
	for i := range plan.walks {
		start[i+1] += start[i]
	}
	all := make([]*Workflow, len(plan.ws))
	fill := slices.Clone(start)
	for _, w := range plan.ws {
		all[fill[w.walk.n]] = w
		fill[w.walk.n]++
	}
	groups := make([][]*Workflow, len(plan.walks))
	for i := range groups {
		groups[i] = all[start[i]:start[i+1]:start[i+1]]
	}
	return groups
}

type stepRef struct {
	name  string
	skill *Skill
}

// stepRefs lists every skill a step names, resolved or not: a step naming a
// skill that does not exist is still a step nothing performs.
func (s *Snapshot) stepRefs(a *Activity) []stepRef {
	var out []stepRef
	for i, iri := range a.SkillIRI {
		out = append(out, stepRef{name: localKey(iri), skill: a.named[i]})
	}
	if len(a.SkillIRI) == 0 {
		for _, sk := range a.Skills { // implicit Camunda refs that resolved
			out = append(out, stepRef{name: sk.ID, skill: sk})
		}
	}
	return out
}
