package queries

import (
	"fmt"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// analyse resolves references and runs every analysis, in dependency order.
func (s *Snapshot) analyse() {
	s.resolve()
	s.checkEntrypoints()
	s.checkInstanceNames()
	s.checkBeans()
	s.checkTriggers()
	s.coverage()
	s.alternatives()
	s.reachability()
	s.workflows()
	s.gating()
	s.programs()
	s.sortFindings()
}

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
