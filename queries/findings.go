package queries

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// compareFindings is the order of findings (by instance, file, line, code
// and message: the order check and the API list them in), ties kept in the
// order they were made: a typed comparison, not sort.SliceStable's
// reflective swaps of the 120-byte Finding.
func compareFindings(a, b Finding) int {
	if c := strings.Compare(a.Instance, b.Instance); c != 0 {
		return c
	}
	if c := strings.Compare(a.File, b.File); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Line, b.Line); c != 0 {
		return c
	}
	if c := strings.Compare(a.Code, b.Code); c != 0 {
		return c
	}
	return strings.Compare(a.Message, b.Message)
}

// sort orders one analysis's findings, on the goroutine that made them.
func (fs findings) sort() { slices.SortStableFunc(fs, compareFindings) }

// mergeFindings merges runs, each sorted, into one sorted list; of equal
// findings those of an earlier run come first, so the result is the
// stable sort of the runs joined in order.
func mergeFindings(runs []findings) []Finding {
	for len(runs) > 1 {
		next := runs[:0:0]
		for i := 0; i < len(runs); i += 2 {
			if i+1 == len(runs) {
				next = append(next, runs[i])
				continue
			}
			next = append(next, merge2(runs[i], runs[i+1]))
		}
		runs = next
	}
	if len(runs) == 0 {
		return nil
	}
	return runs[0]
}

// merge2 merges two sorted runs, a's first on ties.
func merge2(a, b findings) findings {
	if len(a) == 0 {
		return b
	}
	if len(b) == 0 {
		return a
	}
	out := make(findings, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if compareFindings(b[0], a[0]) < 0 {
			out, b = append(out, b[0]), b[1:]
		} else {
			out, a = append(out, a[0]), a[1:]
		}
	}
	return append(append(out, a...), b...)
}

// attachFindings gives each skill and Tool the findings about it, for the
// API: those whose subject is its IRI, and a parser's findings in its own
// file whose subject is its id (a parser knows the id, not the IRI the
// JSON-LD stage mints: "No finding names this skill" was shown on a skill
// with two findings in its SKILL.md).
func (s *Snapshot) attachFindings() {
	bySubject := make(map[string][]Finding, len(s.Findings))
	for _, f := range s.Findings {
		if f.Subject != "" {
			bySubject[f.Subject] = append(bySubject[f.Subject], f)
		}
	}
	for _, sk := range s.Skills {
		sk.Findings = ownFindings(bySubject, sk.IRI, sk.ID, sk.Source, sk.Instance)
	}
	for _, t := range s.Tools {
		t.Findings = bySubject[t.IRI]
	}
	for _, ts := range s.ToolSkills {
		// The parser names a tool skill by its key (tool-skill-invalid,
		// summary-over-cap, skill-variable-unresolved).
		ts.Findings = ownFindings(bySubject, ts.IRI, ts.Key, ts.Source, ts.Instance)
	}
}

// ownFindings is what bySubject holds about iri, plus the findings the
// parser wrote naming the entity by name (its id or key) in the entity's
// own file and instance, sorted when there are several. Without a source
// there is no file to match: only iri's.
func ownFindings(bySubject map[string][]Finding, iri, name string, src *Source, inst *Instance) []Finding {
	fs := bySubject[iri]
	if src == nil {
		return fs
	}
	for _, f := range bySubject[name] {
		if f.File == src.Path && f.Instance == nameOf(inst) {
			fs = append(fs, f)
		}
	}
	if len(fs) > 1 {
		fs = slices.Clone(fs)
		slices.SortStableFunc(fs, compareFindings)
	}
	return fs
}

// duplicates reports one IRI minted by two files (SPEC §4): both are kept.
// Nodes are sorted by subject, so the nodes of one IRI are adjacent; the
// lookups keep where such runs are (they depend on the nodes' shape only),
// so a snapshot sharing them does not compare every IRI again.
func (s *Snapshot) duplicates(nodes []*node) {
	var rs []*node
	for _, run := range s.lk.dups {
		rs = rs[:0]
		for _, k := range run {
			rs = append(rs, nodes[k])
		}
		s.duplicate(rs)
	}
}

// duplicate reports the nodes of one IRI, in graph order.
func (s *Snapshot) duplicate(rs []*node) {
	iri := rs[0].iri
	var files []string
	for _, r := range rs {
		files = append(files, fileOf(s.sourceOf(r.graph)))
	}
	second := rs[1]
	src := s.sourceOf(second.graph)
	line := second.line
	id := localKey(iri)
	switch {
	case second.flags&fTool != 0:
		s.add(s.finding(record.CodeToolDuplicateID, src, line, iri, "tool id %q is defined in %s", id, strings.Join(files, " and ")))
	case second.flags&fProcess != 0:
		s.add(s.finding(record.CodeProcessDuplicateID, src, line, iri, "process id %q is defined in %s", id, strings.Join(files, " and ")))
	default:
		s.add(s.finding(record.CodeDuplicateNode, src, line, iri, "%s is minted by %s; both are kept", iri, strings.Join(files, " and ")))
	}
}

// ambiguousNames reports a bare skill name defined by two packages of one
// instance (SPEC §2.1a): the skills are distinct nodes, a bare reference
// resolves to the first in IRI order, and package/name disambiguates.
func (s *Snapshot) ambiguousNames() {
	// s.Skills is sorted by id, so the skills of one bare name are
	// adjacent: only a run of two or more is grouped by instance (a map
	// per run, in first-seen order), not every skill of the snapshot.
	var keys []string
	byInst := map[string][]*Skill{}
	for i := 0; i < len(s.Skills); {
		j := i + 1
		for j < len(s.Skills) && s.Skills[j].ID == s.Skills[i].ID {
			j++
		}
		if j-i > 1 {
			keys = keys[:0]
			clear(byInst)
			for _, sk := range s.Skills[i:j] {
				if sk.Instance == nil {
					continue
				}
				k := sk.Instance.IRI
				rs := byInst[k]
				if len(rs) == 0 {
					keys = append(keys, k)
				}
				if len(rs) == 0 || rs[len(rs)-1].IRI != sk.IRI {
					byInst[k] = append(rs, sk)
				}
			}
			for _, k := range keys {
				s.ambiguousName(byInst[k])
			}
		}
		i = j
	}
}

// ambiguousName reports the skills of one bare name in one instance.
func (s *Snapshot) ambiguousName(sks []*Skill) {
	if len(sks) < 2 {
		return
	}
	sort.SliceStable(sks, func(i, j int) bool { return sks[i].IRI < sks[j].IRI })
	var files []string
	for _, sk := range sks {
		sk.shared = true
		files = append(files, fileOf(sk.Source))
	}
	for _, sk := range sks[1:] {
		s.add(s.finding(record.CodeSkillNameAmbiguous, sk.Source, sk.Line, sk.IRI,
			"skill name %q is defined in %s; use package/name to disambiguate", sk.ID, strings.Join(files, " and ")))
	}
}

// capFindings bounds the findings a snapshot lists (issue #28 row 14), as
// ingest bounds those it stores: at most record.MaxFindingsPerFile per
// file, the most severe kept, with one findings-truncated saying how many
// were dropped; once record.MaxFindingsPerRun are listed, each further
// file lists only that summary. fs is sorted (compareFindings) and stays
// so. A summary ingest stored is kept and not counted: it says what the
// parse dropped, this one what the analyses added beyond the bound.
func capFindings(fs []Finding) []Finding {
	if len(fs) <= record.MaxFindingsPerFile {
		return fs // the common case: nothing to group
	}
	// At most what came in (a capped file keeps fewer and one notice):
	// sized once (grown by appends, this list was ≈ 20 MB of every Update
	// at 100k skills), and one buffer for the files it caps.
	out := make([]Finding, 0, len(fs))
	var counted []record.Finding
	budget := record.MaxFindingsPerRun
	for start := 0; start < len(fs); {
		end := start + 1
		for end < len(fs) && fs[end].Instance == fs[start].Instance && fs[end].File == fs[start].File {
			end++
		}
		group := fs[start:end]
		start = end
		n := 0
		for _, f := range group {
			if f.Code != record.CodeFindingsTruncated {
				n++
			}
		}
		limit := min(record.MaxFindingsPerFile, budget)
		if n <= limit {
			out = append(out, group...)
			budget -= n
			continue
		}
		// The reason only for a file it caps: made for every file, it
		// was half of this function's time at 100k skills.
		why := fmt.Sprintf("a snapshot lists at most %d of one file", record.MaxFindingsPerFile)
		if budget < record.MaxFindingsPerFile {
			why = fmt.Sprintf("a snapshot lists at most %d in all", record.MaxFindingsPerRun)
		}
		budget -= limit
		mark := len(out)
		counted = counted[:0]
		for _, f := range group {
			if f.Code == record.CodeFindingsTruncated {
				out = append(out, f)
				continue
			}
			counted = append(counted, record.Finding{Code: f.Code, Severity: f.Severity, Message: f.Message, File: f.File, Line: f.Line, Subject: f.Subject})
		}
		for _, f := range record.CapFindings(counted, group[0].File, limit, why) {
			out = append(out, Finding{Code: f.Code, Severity: f.Severity, Message: f.Message, File: f.File, Line: f.Line, Subject: f.Subject, Instance: group[0].Instance})
		}
		slices.SortStableFunc(out[mark:], compareFindings) // the summary is on line 1
	}
	if cap(out) > 2*len(out) {
		return slices.Clone(out) // the snapshot keeps it: not twice its size
	}
	return out
}
