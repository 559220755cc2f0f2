package queries

import (
	"sort"
	"strconv"
	"strings"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// Alternatives are the derived substitutable Tools (SPEC §5.4).
type Alternatives struct {
	Groups           []Group
	MissingSelection []*Tool
	Complementary    []Group
}

// Group is a set of Tools for one skill.
type Group struct {
	Skill *Skill
	Tools []*Tool
}

// Signature is the part of a Tool that decides substitutability: sorted
// inputs (name, type, required), outputs (name, type), renders and
// maintains. "" for a Tool with no inputs and no outputs.
func (t *Tool) Signature() string {
	if len(t.Inputs) == 0 && len(t.Outputs) == 0 {
		return ""
	}
	var in, out []string
	for _, p := range t.Inputs {
		in = append(in, p.Name+"\x1f"+p.TypeIRI+"\x1f"+strconv.FormatBool(p.Required))
	}
	for _, p := range t.Outputs {
		out = append(out, p.Name+"\x1f"+p.TypeIRI)
	}
	sort.Strings(in)
	sort.Strings(out)
	r := append([]string(nil), t.Renders...)
	sort.Strings(r)
	m := append([]string(nil), t.MaintainsRaw...)
	sort.Strings(m)
	return strings.Join(in, "\x1e") + "\x1d" + strings.Join(out, "\x1e") + "\x1d" + strings.Join(r, "\x1e") + "\x1d" + strings.Join(m, "\x1e")
}

func (s *Snapshot) alternatives(out *findings) {
	var a Alternatives
	alt := map[*Tool]map[*Tool]bool{}
	// Each Tool's signature once: a Tool valid for many skills was
	// signed again for each (half of this analysis at 1k skills).
	sigOf := make(map[*Tool]string, len(s.Tools))
	signature := func(t *Tool) string {
		sig, ok := sigOf[t]
		if !ok {
			sig = t.Signature()
			sigOf[t] = sig
		}
		return sig
	}
	for _, sk := range s.Skills {
		bySig := map[string][]*Tool{}
		for _, t := range sk.Tools {
			if sig := signature(t); sig != "" {
				bySig[sig] = append(bySig[sig], t)
			}
		}
		sigs := make([]string, 0, len(bySig))
		for sig, ts := range bySig {
			if len(ts) > 1 {
				sigs = append(sigs, sig)
			}
		}
		// By first Tool id, then the signature: a Tool id defined twice
		// (tool-duplicate-id) can head two groups, and map order must not
		// decide which comes first.
		sort.Slice(sigs, func(i, j int) bool {
			if a, b := bySig[sigs[i]][0].ID, bySig[sigs[j]][0].ID; a != b {
				return a < b
			}
			return sigs[i] < sigs[j]
		})
		for _, sig := range sigs {
			ts := uniqueTools(bySig[sig])
			if len(ts) < 2 {
				continue
			}
			a.Groups = append(a.Groups, Group{Skill: sk, Tools: ts})
			for _, x := range ts {
				for _, y := range ts {
					if x != y {
						if alt[x] == nil {
							alt[x] = map[*Tool]bool{}
						}
						alt[x][y] = true
					}
				}
			}
		}
		if len(sigs) == 0 && len(uniqueTools(sk.Tools)) > 1 {
			a.Complementary = append(a.Complementary, Group{Skill: sk, Tools: uniqueTools(sk.Tools)})
		}
	}
	for _, t := range s.Tools {
		for o := range alt[t] {
			t.Alternatives = append(t.Alternatives, o)
		}
		sort.Slice(t.Alternatives, func(i, j int) bool { return toolBefore(t.Alternatives[i], t.Alternatives[j]) })
		if len(t.Alternatives) > 0 && !t.HasSelection() {
			a.MissingSelection = append(a.MissingSelection, t)
			out.add(s.finding(record.CodeAlternativeWithoutSelection, t.Source, t.Line, t.IRI,
				"tool %s has alternatives (%s) but no complete selection {when, limits, cost}: an agent cannot choose",
				t.ID, toolIDs(t.Alternatives)))
		}
	}
	s.Alternatives = a
}

// toolBefore orders Tools by id, then (one id defined twice) by file and
// line, so that the order never depends on a map's.
func toolBefore(a, b *Tool) bool {
	if a.ID != b.ID {
		return a.ID < b.ID
	}
	if fa, fb := fileOf(a.Source), fileOf(b.Source); fa != fb {
		return fa < fb
	}
	return a.Line < b.Line
}

// uniqueTools dedupes by id: a tool id defined twice (tool-duplicate-id)
// is one mechanism in a group.
func uniqueTools(ts []*Tool) []*Tool {
	seen := map[string]bool{}
	var out []*Tool
	for _, t := range ts {
		if !seen[t.ID] {
			seen[t.ID] = true
			out = append(out, t)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}
