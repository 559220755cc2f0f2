package queries

import (
	"fmt"
	"sync"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// analyses are every analysis of a snapshot, in the order their findings
// are merged (compareFindings' ties keep it), each with what it reads and
// writes: runAnalyses starts one as soon as every earlier one that writes
// what it reads, or touches what it writes, is done, so independent
// analyses run at once and the answers do not depend on the schedule. A
// new analysis is one line here; one that is read by no other goes
// anywhere after the analyses whose facts it reads.
var analyses = []analysis{
	{"references", nil, facts(resolved), (*Snapshot).resolve},
	{"hosts", facts(resolved), facts(joined), (*Snapshot).linkHosts},
	{"entry points", facts(resolved, joined), nil, (*Snapshot).checkEntrypoints},
	{"instance names", facts(resolved, joined), nil, (*Snapshot).checkInstanceNames},
	{"beans", facts(resolved, joined), nil, (*Snapshot).checkBeans},
	{"triggers", facts(resolved, joined), facts(triggered), (*Snapshot).checkTriggers},
	{"coverage", facts(resolved, joined), facts(covered), (*Snapshot).coverage},
	{"swallowed tools", facts(resolved, joined, covered), nil, (*Snapshot).swallowedTools},
	{"alternatives", facts(resolved, joined, covered), facts(alternated), (*Snapshot).alternatives},
	{"reachability", facts(resolved, joined, covered), facts(reached), (*Snapshot).reachability},
	{"gating", facts(resolved, joined, triggered), facts(gated), (*Snapshot).gating},
	{"programs", facts(resolved, joined, covered), facts(programmed), (*Snapshot).programs},
	{"parity", facts(resolved, joined), facts(paired), (*Snapshot).parity},
	{"content safety", facts(resolved, joined), nil, (*Snapshot).contentSafety},
	{"workflow plan", facts(resolved, joined), facts(planned), (*Snapshot).planWorkflowsInto},
	{"workflows", facts(planned, covered, reached), facts(walked), (*Snapshot).workflowsFromPlan},
}

// fact is a part of a snapshot that one analysis writes and others read
// (entity fields, a snapshot's result): what orders two analyses.
type fact string

// The facts of the analyses above.
const (
	resolved   fact = "references resolved: the entities' targets and skills"
	joined     fact = "host components joined to plugins, marketplaces, servers and skills"
	triggered  fact = "tool skills' guided Tools and trigger matches"
	covered    fact = "coverage: skills' Tools, Tools' skills, s.Coverage"
	alternated fact = "alternatives: Tools' alternatives, s.Alternatives"
	reached    fact = "reachability: witnesses, s.Reach"
	gated      fact = "Tools' gating tool skills"
	programmed fact = "s.Programs"
	paired     fact = "Tools' MCP parity"
	planned    fact = "the workflow plan (s.plan)"
	walked     fact = "s.Workflows and their steps' states"
)

func facts(fs ...fact) []fact { return fs }

// analysis is one analysis: its name, the facts it reads and writes, and
// its run, which adds its findings to out.
type analysis struct {
	name          string
	reads, writes []fact
	run           func(s *Snapshot, out *findings)
}

// analyse runs every analysis (an Update under --watch waits for all of
// it) and joins their findings, after the ones linking made, in the
// list's order.
func (s *Snapshot) analyse() {
	linked := findings(s.Findings) // made while linking
	linked.sort()
	s.Findings = capFindings(mergeFindings(append([]findings{linked}, runAnalyses(s, analyses)...)))
	s.attachFindings()
	s.attachPluginFindings()
}

// runAnalyses runs each analysis of list on its own goroutine once the
// earlier ones it depends on (dependsOn) are done, and returns their
// findings, each sorted on the goroutine that made them, in list order.
func runAnalyses(s *Snapshot, list []analysis) []findings {
	outs := make([]findings, len(list))
	done := make([]chan struct{}, len(list))
	for i := range done {
		done[i] = make(chan struct{})
	}
	var wg sync.WaitGroup
	for i, a := range list {
		deps := dependsOn(list, i)
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer close(done[i])
			for _, d := range deps {
				<-done[d]
			}
			a.run(s, &outs[i])
			outs[i].sort()
		}()
	}
	wg.Wait()
	return outs
}

// dependsOn is the earlier analyses of list the i-th waits for: those that
// write a fact it reads or writes, or read one it writes.
func dependsOn(list []analysis, i int) []int {
	var deps []int
	a := list[i]
	for j, b := range list[:i] {
		if overlaps(b.writes, a.reads) || overlaps(b.writes, a.writes) || overlaps(b.reads, a.writes) {
			deps = append(deps, j)
		}
	}
	return deps
}

func overlaps(a, b []fact) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
}

// planWorkflowsInto keeps the workflow plan for workflowsFromPlan.
func (s *Snapshot) planWorkflowsInto(*findings) { s.plan = s.planWorkflows() }

// workflowsFromPlan computes the workflows from the plan, which is then
// dropped.
func (s *Snapshot) workflowsFromPlan(*findings) {
	s.workflows(s.plan)
	s.plan = nil
}

// findings collects one analysis's findings in the order it makes them.
type findings []Finding

func (fs *findings) add(f Finding) { *fs = append(*fs, f) }

func (s *Snapshot) add(f Finding) { s.Findings = append(s.Findings, f) }

func fileOf(src *Source) string {
	if src == nil {
		return ""
	}
	return src.Path
}

func nameOf(in *Instance) string {
	if in == nil {
		return ""
	}
	return in.Name
}

func (s *Snapshot) finding(code string, src *Source, line int, subject, format string, args ...any) Finding {
	f := Finding{Code: code, Severity: record.SeverityOf(code), Message: fmt.Sprintf(format, args...), File: fileOf(src), Line: max(line, 1), Subject: subject}
	if src != nil {
		f.Instance = nameOf(src.Instance)
	}
	return f
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
