package queries

import (
	"fmt"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// analyse resolves references and runs every analysis, in dependency
// order, on two goroutines where the order allows (an Update under --watch
// waits for all of it): coverage and reachability on one; the checks, the
// workflow plan, gating and (once coverage is known) alternatives and
// programs on the other; then the workflow states, which need both. Each analysis writes its
// own fields of the entities and its own findings; the findings are
// joined in one fixed order, so the answers do not depend on the schedule.
func (s *Snapshot) analyse() {
	var res, hosts findings
	s.resolve(&res)
	s.linkHosts(&hosts) // before reachability: an agent's skills are its edges
	hosts.sort()
	var entry, inst, beans, triggers, cov, alt, reach, gate, progs, parity findings
	linked := findings(s.Findings) // made while linking
	covered := make(chan struct{})
	done := make(chan struct{})
	var plan *workflowPlan
	go func() {
		defer close(done)
		linked.sort()
		res.sort()
		s.checkEntrypoints(&entry)
		s.checkInstanceNames(&inst)
		s.checkBeans(&beans)
		s.checkTriggers(&triggers)
		plan = s.planWorkflows()
		s.gating(&gate)
		s.parity(&parity)
		<-covered
		s.alternatives(&alt)
		s.programs(&progs)
		for _, fs := range []findings{entry, inst, beans, triggers, gate, alt, progs, parity} {
			fs.sort()
		}
	}()
	s.coverage(&cov)
	close(covered)
	s.reachability(&reach)
	for _, fs := range []findings{cov, reach} {
		fs.sort()
	}
	<-done
	s.workflows(plan)
	// Joined in the order the analyses ran one after another before
	// (compareFindings' ties keep that order).
	s.Findings = capFindings(mergeFindings([]findings{linked, res, hosts, entry, inst, beans, triggers, cov, alt, reach, gate, progs, parity}))
	s.attachFindings()
	s.attachPluginFindings()
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
