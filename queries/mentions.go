package queries

import (
	"strings"

	"github.com/skillgraph/skillgraph/jsonld"
)

// linkMentions resolves the weak mentions (issue 23.7): a skill's
// allowed-tools entries (SPEC §2.1b: a weak mentionsTool edge, not a
// binding) to the Tools whose id the entry names, and the names a bean's
// body mentions (SPEC §2.6) to the skills, Tools and processes they name,
// each in the referrer's instance scope as its other references are. A
// name that names nothing stays a name (Bean.Mentions): a mention is not a
// reference, so it is no finding.
func (s *Snapshot) linkMentions() {
	for _, sk := range s.Skills {
		seen := map[*Tool]bool{}
		for _, iri := range sk.MentionsToolIRI {
			if t := s.resolveTool(sk.Instance, iri); t != nil && !seen[t] {
				seen[t] = true
				sk.MentionsTools = append(sk.MentionsTools, t)
			}
		}
	}
	for _, b := range s.Beans {
		if b.Instance == nil {
			continue
		}
		for _, name := range b.Mentions {
			if sk := s.resolveSkillID(b.Instance, name); sk != nil && !containsPtr(b.MentionsSkills, sk) {
				b.MentionsSkills = append(b.MentionsSkills, sk)
			}
			if t := s.resolveToolID(b.Instance, name); t != nil && !containsPtr(b.MentionsTools, t) {
				b.MentionsTools = append(b.MentionsTools, t)
			}
			if p := s.resolveProcess(b.Instance, jsonld.Mint(b.Instance.IRI, "process", strings.TrimSuffix(name, ".bpmn"))); p != nil && !containsPtr(b.MentionsProcesses, p) {
				b.MentionsProcesses = append(b.MentionsProcesses, p)
			}
		}
	}
}

// containsPtr reports whether xs holds x.
func containsPtr[T any](xs []*T, x *T) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
