package queries

import (
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
	out := make([]*Workflow, 0, len(s.Processes))
	visited := make([]int, len(s.Processes)) // the stamp of the last walk that visited it
	for i, p := range s.Processes {
		w := &Workflow{Process: p}
		if own[i] != nil || len(segs[i]) == 0 {
			// Calling nothing: the workflow is the process's own steps
			// (shared, read-only).
			w.Steps = own[i][:len(own[i]):len(own[i])]
		} else {
			// Two walks: the first counts the steps, so the second fills
			// one slice of the right size (the workflows of 10k skills hold
			// about 1.5M steps; growing them by appending doubled that).
			n, stamp := 0, 2*i+1
			var walk func(q int)
			walk = func(q int) {
				if visited[q] == stamp {
					return // a callee counts once; cycles are cut
				}
				visited[q] = stamp
				for _, sg := range segs[q] {
					if w.Steps == nil {
						n += len(sg.steps)
					} else {
						w.Steps = append(w.Steps, sg.steps...)
					}
					if sg.calls != nil {
						walk(procIdx[sg.calls])
					}
				}
			}
			walk(i)
			if n > 0 {
				w.Steps, stamp = make([]WorkflowStep, 0, n), 2*i+2
				walk(i)
			}
		}
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
