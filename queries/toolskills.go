package queries

import (
	"fmt"
	"slices"
	"strings"
)

// The tool-skill registry view (issue 23.10; the tool-skill document:
// load_tool_skill lists the registered keys, resync prints them, the
// per-phase catalogue carries each skill's summary, sorted by key so the
// prompt prefix stays byte-stable, and required skills carry a
// "(required — load before use)" marker).

// RequiredMarker is the marker a required tool skill's catalogue entry
// carries in every phase but review (review has no load_tool_skill, so
// nothing is enforced there).
const RequiredMarker = "(required — load before use)"

// Phases are the phases a tool skill may be catalogued in, in turn order.
var Phases = []string{"plan", "execute", "review", "subagent"}

// SummaryBytes is the UTF-8 size of the summary: what the skill costs in
// every turn of a phase that catalogues it.
func (ts *ToolSkill) SummaryBytes() int { return len(ts.Summary) }

// Gates are the Tools a required tool skill gates: those its trigger's
// leaves name, once the whole trigger matches (gating.go).
func (ts *ToolSkill) Gates() []*Tool {
	if !ts.Required || !ts.Matches {
		return nil
	}
	return ts.Guides
}

// InPhase reports whether the skill declares phase.
func (ts *ToolSkill) InPhase(phase string) bool { return slices.Contains(ts.Phases, phase) }

// CatalogueEntry is one line of a phase's tool-skill catalogue.
type CatalogueEntry struct {
	ToolSkill *ToolSkill
	Line      string // as the prompt carries it, without the newline
	Bytes     int    // UTF-8 bytes of the line and its newline
	Marked    bool   // carries the required marker
}

// Catalogue is the preview of a phase's tool-skill catalogue: the skills
// catalogued in it, sorted by key, and the bytes they cost every turn.
type Catalogue struct {
	Phase   string
	Entries []CatalogueEntry
	Bytes   int
}

// Catalogue previews the catalogue of phase on this graph's surface: a tool
// skill is catalogued when its phases include phase and its trigger matches
// the surface (every Tool, MCP tool and server of the graph, as the plan
// phase's full catalogue sees them; a narrower execute or sub-agent surface
// can only drop entries). Each entry is "- <key>: <summary>", with the
// required marker appended outside review. An unknown phase is an error.
func (s *Snapshot) Catalogue(phase string) (Catalogue, error) {
	if !slices.Contains(Phases, phase) {
		return Catalogue{}, fmt.Errorf("phase %q is not one of %s", phase, strings.Join(Phases, ", "))
	}
	c := Catalogue{Phase: phase, Entries: []CatalogueEntry{}}
	for _, ts := range s.ToolSkills {
		if !ts.InPhase(phase) || !ts.Matches {
			continue
		}
		e := CatalogueEntry{ToolSkill: ts, Line: "- " + ts.Key + ": " + ts.Summary}
		if ts.Required && phase != "review" {
			e.Line += " " + RequiredMarker
			e.Marked = true
		}
		e.Bytes = len(e.Line) + 1
		c.Entries = append(c.Entries, e)
		c.Bytes += e.Bytes
	}
	// s.ToolSkills is sorted by key already; keep the rule here, where the
	// byte-stability is promised.
	slices.SortStableFunc(c.Entries, func(a, b CatalogueEntry) int { return strings.Compare(a.ToolSkill.Key, b.ToolSkill.Key) })
	return c, nil
}
