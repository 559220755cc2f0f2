package queries

import (
	"cmp"
	"slices"
	"sort"
	"strings"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// sortFindings orders the findings by instance, file, line, code and
// message (the order check and the API list them in) and attaches each to
// the skill or Tool it concerns.
func (s *Snapshot) sortFindings() {
	// A typed comparison, not sort.SliceStable's reflective swaps of the
	// 120-byte Finding: the same stable order at half the cost.
	slices.SortStableFunc(s.Findings, func(a, b Finding) int {
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
	})
	// Attach to skills and tools for the API.
	bySubject := make(map[string][]Finding, len(s.Findings))
	for _, f := range s.Findings {
		if f.Subject != "" {
			bySubject[f.Subject] = append(bySubject[f.Subject], f)
		}
	}
	for _, sk := range s.Skills {
		sk.Findings = bySubject[sk.IRI]
	}
	for _, t := range s.Tools {
		t.Findings = bySubject[t.IRI]
	}
}

// duplicates reports one IRI minted by two files (SPEC §4): both are kept.
// Nodes are sorted by subject, so the nodes of one IRI are adjacent.
func (s *Snapshot) duplicates(nodes []*node) {
	var rs []*node
	for i := 0; i < len(nodes); {
		j := i + 1
		for j < len(nodes) && nodes[j].iri == nodes[i].iri {
			j++
		}
		if j-i > 1 {
			rs = rs[:0]
			for _, n := range nodes[i:j] {
				if n.flags&fDupCandidate != 0 {
					rs = append(rs, n)
				}
			}
			if len(rs) > 1 {
				s.duplicate(rs)
			}
		}
		i = j
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
		files = append(files, fileOf(sk.Source))
	}
	for _, sk := range sks[1:] {
		s.add(s.finding(record.CodeSkillNameAmbiguous, sk.Source, sk.Line, sk.IRI,
			"skill name %q is defined in %s; use package/name to disambiguate", sk.ID, strings.Join(files, " and ")))
	}
}
