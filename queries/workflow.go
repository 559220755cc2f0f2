package queries

import (
	"cmp"
	"math"
	"slices"
	"sort"
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
	Steps     []WorkflowStep // in sequence-flow order, callees in place
	Performed int
	Manual    int
	Gap       int
	FirstGap  *WorkflowStep
}

// Total is the number of skill-naming steps.
func (w *Workflow) Total() int { return len(w.Steps) }

// Ratio is performed / skill-naming steps; 1 for a process naming none.
func (w *Workflow) Ratio() float64 {
	if len(w.Steps) == 0 {
		return 1
	}
	return float64(w.Performed) / float64(len(w.Steps))
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

// workflowSegment is one activity's own skill-naming steps and the process
// it calls, in the order a workflow walk visits them.
type workflowSegment struct {
	steps []WorkflowStep
	calls *Process
}

// flowOf is flowOrder(p): kept by the lookups when they are this
// snapshot's own, taken from them when p's node is the one they were
// ordered for. The order depends only on the activities of p's graph and
// the lookups (which activity an IRI is, its process and place), so an
// unchanged graph's processes are not walked again.
func (s *Snapshot) flowOf(p *Process) []*Activity {
	lk, n := s.lk, s.nodes[s.lk.procNode[p.slab]]
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

// workflowPlan is every process's workflow but the steps' states: each
// process's skill-naming steps in flow order, callees in place. It is
// made while reachability (which the states need) runs.
type workflowPlan struct {
	ws     []*Workflow      // of s.Processes[i], steps without their states yet
	arrays [][]WorkflowStep // every array the workflows' steps are in, each once
}

// planWorkflows orders and segments every process's steps and walks them
// (SPEC §5.5). Each process's segments are resolved once: a step's state
// depends on the step and its skill only, not on which root's walk reaches
// it, so a process called from many roots is not resolved again per root.
func (s *Snapshot) planWorkflows() *workflowPlan {
	procIdx := make(map[*Process]int, len(s.Processes))
	for i, p := range s.Processes {
		procIdx[p] = i
	}
	segs := make([][]workflowSegment, len(s.Processes))
	own := make([][]WorkflowStep, len(s.Processes)) // all own steps, for a process calling nothing
	plan := &workflowPlan{}
	var bounds [][2]int // each segment's steps in the process's slice
	for i, p := range s.Processes {
		// One slice of steps per process; its segments are parts of it
		// (a process calling nothing has it as its workflow).
		var steps []WorkflowStep
		bounds = bounds[:0]
		callsAny := false
		for _, a := range s.flowOf(p) {
			lo := len(steps)
			step := func(name string, sk *Skill) {
				steps = append(steps, WorkflowStep{Step: a, SkillRef: name, Skill: sk})
			}
			// The refs of stepRefs, without a slice per activity.
			for k := range a.SkillIRI {
				step(a.skillNames[k], a.named[k])
			}
			if len(a.SkillIRI) == 0 {
				for _, sk := range a.Skills { // implicit Camunda refs that resolved
					step(sk.ID, sk)
				}
			}
			callsAny = callsAny || a.Calls != nil
			if len(steps) > lo || a.Calls != nil {
				segs[i] = append(segs[i], workflowSegment{calls: a.Calls})
				bounds = append(bounds, [2]int{lo, len(steps)})
			}
		}
		for k, b := range bounds {
			if b[1] > b[0] {
				segs[i][k].steps = steps[b[0]:b[1]:b[1]]
			}
		}
		if !callsAny {
			own[i] = steps
		}
		if len(steps) > 0 {
			plan.arrays = append(plan.arrays, steps)
		}
	}
	// A process's workflow is the steps of a walk from it. Within a
	// caller's walk, a callee's part is exactly the callee's own workflow
	// when nothing of it was skipped for having been visited before the
	// callee was entered: then the callee's workflow is that part of the
	// caller's steps, shared (read-only) rather than walked and copied
	// again. Processes nothing calls are walked first, so most workflows
	// are parts of theirs.
	n := len(s.Processes)
	ws := make([]*Workflow, n)
	isCalled := make([]bool, n)
	for i := range segs {
		for _, sg := range segs[i] {
			if sg.calls != nil {
				isCalled[procIdx[sg.calls]] = true
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
	visited := make([]int, n) // the stamp of the last walk that visited it
	entry := make([]int, n)   // its place in the entry order of that walk
	stamp := 0
	for _, i := range order {
		if ws[i] != nil {
			continue
		}
		if own[i] != nil || len(segs[i]) == 0 {
			// Calling nothing: the workflow is the process's own steps.
			ws[i] = &Workflow{Process: s.Processes[i], Steps: own[i][:len(own[i]):len(own[i])]}
			continue
		}
		// The first walk counts the steps, so the second fills one slice
		// that never moves (the parts handed to callees point into it).
		stamp++
		total := 0
		var count func(q int)
		count = func(q int) {
			visited[q] = stamp
			for _, sg := range segs[q] {
				total += len(sg.steps)
				if c := sg.calls; c != nil && visited[procIdx[c]] != stamp {
					count(procIdx[c])
				}
			}
		}
		count(i)
		stamp++
		steps := make([]WorkflowStep, 0, total)
		if total > 0 {
			plan.arrays = append(plan.arrays, steps[:total])
		}
		entered := 0
		// fill walks q and returns the smallest entry place of a process
		// it skipped (a callee counts once; cycles are cut).
		var fill func(q int) int
		fill = func(q int) int {
			visited[q], entry[q] = stamp, entered
			entered++
			start, lo := len(steps), math.MaxInt
			for _, sg := range segs[q] {
				steps = append(steps, sg.steps...)
				if sg.calls == nil {
					continue
				}
				if c := procIdx[sg.calls]; visited[c] == stamp {
					lo = min(lo, entry[c])
				} else {
					lo = min(lo, fill(c))
				}
			}
			if ws[q] == nil && lo >= entry[q] {
				var part []WorkflowStep
				if len(steps) > start {
					part = steps[start:len(steps):len(steps)]
				}
				ws[q] = &Workflow{Process: s.Processes[q], Steps: part}
			}
			return lo
		}
		fill(i)
	}
	plan.ws = ws
	return plan
}

// workflows computes each process's workflow coverage from its plan, once
// reachability is known: a step is performed when a reachable, valid Tool
// performs its skill (SPEC §5.5).
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
	ws, n := plan.ws, len(plan.ws)
	out := make([]*Workflow, 0, n)
	for _, w := range ws {
		for k := range w.Steps {
			switch w.Steps[k].State {
			case StatePerformed:
				w.Performed++
			case StateManual:
				w.Manual++
			default:
				w.Gap++
				if w.FirstGap == nil {
					w.FirstGap = &w.Steps[k]
				}
			}
		}
		out = append(out, w)
	}
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
