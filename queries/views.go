package queries

import (
	"sort"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// This file holds the answers the API shows that are decisions, not
// field reads: the GraphQL resolvers call them instead of deciding.

// BothHalves reports whether a tier-A skill is also named by a person
// step: mechanism plus judgement (SPEC §5.1).
func (s *Skill) BothHalves() bool { return s.Tier == "A" && HasPersonStep(s) }

// ToolSkills lists the tool skills guiding the skill's Tools, each once,
// in the order of the Tools (SPEC §5.6).
func (s *Skill) ToolSkills() []*ToolSkill {
	seen := map[*ToolSkill]bool{}
	var out []*ToolSkill
	for _, t := range s.Tools {
		for _, g := range t.GuidedBy {
			if !seen[g] {
				seen[g] = true
				out = append(out, g)
			}
		}
	}
	return out
}

// Processes lists the processes with a step naming the skill, each once.
func (s *Skill) Processes() []*Process {
	seen := map[*Process]bool{}
	var out []*Process
	for _, a := range s.Steps {
		if !seen[a.Process] {
			seen[a.Process] = true
			out = append(out, a.Process)
		}
	}
	return out
}

// ToolsWithAlternatives lists the skill's Tools that have a derived
// alternative (SPEC §5.4).
func (s *Skill) ToolsWithAlternatives() []*Tool {
	var out []*Tool
	for _, t := range s.Tools {
		if len(t.Alternatives) > 0 {
			out = append(out, t)
		}
	}
	return out
}

// Requires lists the Tool's os and runtime requirements, and "network"
// when it needs the network.
func (t *Tool) Requires() []string {
	out := append(append([]string{}, t.OS...), t.Runtime...)
	if t.Network != nil && *t.Network {
		out = append(out, "network")
	}
	return out
}

// GatedTools lists the Tools gated by required tool skills (SPEC §5.6).
func (s *Snapshot) GatedTools() []*Tool {
	out := []*Tool{}
	for _, t := range s.Tools {
		if len(t.GatedBy) > 0 {
			out = append(out, t)
		}
	}
	return out
}

// NameCount is a name and how often it occurs.
type NameCount struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

func countsOf(m map[string]int) []NameCount {
	out := make([]NameCount, 0, len(m))
	for k, v := range m {
		out = append(out, NameCount{k, v})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// PackageCounts lists the skill packages with their number of skills, by
// name.
func (s *Snapshot) PackageCounts() []NameCount {
	n := map[string]int{}
	for _, sk := range s.Skills {
		if sk.Package != "" {
			n[sk.Package]++
		}
	}
	return countsOf(n)
}

// FindingCodeCounts lists the finding codes present with their number,
// by code.
func (s *Snapshot) FindingCodeCounts() []NameCount {
	n := map[string]int{}
	for _, f := range s.Findings {
		n[f.Code]++
	}
	return countsOf(n)
}

// ContractView is a skill's input contract as the API shows it.
type ContractView struct {
	Ref      string   `json:"ref"`
	Readable bool     `json:"readable"` // a contract file of the corpus was read
	External bool     `json:"external"` // an http(s) reference, never fetched
	Required []string `json:"required"`
}

// InputContract returns the skill's input contract, nil without one.
func (s *Snapshot) InputContract(sk *Skill) *ContractView {
	if sk.InputRef == "" {
		return nil
	}
	cv := &ContractView{Ref: sk.InputRef, Required: []string{}}
	if record.ContractExternal(sk.InputRef) {
		cv.External = true
		return cv
	}
	if c := s.Contracts[sk.InputIRI]; c != nil {
		cv.Readable = true
		if c.Required != nil {
			cv.Required = c.Required
		}
	}
	return cv
}
