package queries

import (
	"math"
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
// breaking ties and placing nodes no flow reaches.
func flowOrder(p *Process, byIRI map[string]*Activity) []*Activity {
	incoming := map[*Activity]int{}
	for _, a := range p.Activities {
		for _, n := range a.NextIRI {
			if b := byIRI[n]; b != nil && b.Process == p {
				incoming[b]++
			}
		}
	}
	seen := map[*Activity]bool{}
	var order []*Activity
	var queue []*Activity
	for _, a := range p.Activities {
		if incoming[a] == 0 {
			queue = append(queue, a)
			seen[a] = true
		}
	}
	for len(queue) > 0 || len(order) < len(p.Activities) {
		if len(queue) == 0 {
			for _, a := range p.Activities { // a loop with no entry
				if !seen[a] {
					queue = append(queue, a)
					seen[a] = true
					break
				}
			}
		}
		a := queue[0]
		queue = queue[1:]
		order = append(order, a)
		next := make([]*Activity, 0, len(a.NextIRI))
		for _, n := range a.NextIRI {
			if b := byIRI[n]; b != nil && b.Process == p && !seen[b] {
				next = append(next, b)
			}
		}
		sort.Slice(next, func(i, j int) bool { return next[i].Position < next[j].Position })
		for _, b := range next {
			seen[b] = true
			queue = append(queue, b)
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

func (s *Snapshot) workflows() {
	// Each process's segments are resolved once: a step's state depends on
	// the step and its skill only, not on which root's walk reaches it, so
	// a process called from many roots is not resolved again per root.
	procIdx := make(map[*Process]int, len(s.Processes))
	for i, p := range s.Processes {
		procIdx[p] = i
	}
	segs := make([][]workflowSegment, len(s.Processes))
	own := make([][]WorkflowStep, len(s.Processes)) // all own steps, for a process calling nothing
	for i, p := range s.Processes {
		callsAny := false
		for _, a := range flowOrder(p, s.actByIRI) {
			var sg workflowSegment
			for _, ref := range s.stepRefs(a) {
				sk := ref.skill
				st := WorkflowStep{Step: a, SkillRef: ref.name, Skill: sk, State: StateGap}
				switch {
				case sk != nil && performedBy(sk):
					st.State = StatePerformed
				case a.Automation() == "person":
					st.State = StateManual
				}
				sg.steps = append(sg.steps, st)
				own[i] = append(own[i], st)
			}
			sg.calls = a.Calls
			callsAny = callsAny || a.Calls != nil
			if len(sg.steps) > 0 || sg.calls != nil {
				segs[i] = append(segs[i], sg)
			}
		}
		if callsAny {
			own[i] = nil
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
