package queries

import (
	"sort"
	"strings"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// gateBodyLimit is the body size over which a server-wide required tool
// skill is too wide a gate (SPEC §5.6).
const gateBodyLimit = 2 << 10

// gating records, per Tool, the required tool skills that gate it, and
// reports server-wide gates with heavy bodies.
func (s *Snapshot) gating(out *findings) {
	s.checkProfiles(out)
	for _, ts := range s.ToolSkills {
		if !ts.Required {
			continue
		}
		// The tool-skill document: "an all_of skill only gates when its
		// full trigger matches the session's surface"; once it does, the
		// Tools of each leaf are gated.
		if ts.Matches {
			for _, t := range ts.Guides {
				t.GatedBy = append(t.GatedBy, ts)
			}
		}
		if s.Profile == "" && hasServerLeaf(ts.Trigger) && ts.BodyBytes > gateBodyLimit {
			out.add(s.finding(record.CodeGateTooWide, ts.Source, ts.Line, ts.IRI,
				"required tool skill %s is triggered by a whole MCP server and its body is %d bytes (over %d): every tool of the server pays for loading it",
				ts.Key, ts.BodyBytes, gateBodyLimit))
		}
	}
	for _, t := range s.Tools {
		sort.Slice(t.GatedBy, func(i, j int) bool { return t.GatedBy[i].Key < t.GatedBy[j].Key })
	}
}

func hasServerLeaf(m map[string]any) bool {
	if _, ok := m["mcp_server"].(string); ok {
		return true
	}
	for _, k := range []string{"any_of", "all_of"} {
		if xs, ok := m[k].([]any); ok {
			for _, x := range xs {
				if c, ok := x.(map[string]any); ok && hasServerLeaf(c) {
					return true
				}
			}
		}
	}
	return false
}

// Program is a command that shell Tools run (SPEC §5.7).
type Program struct {
	Name    string
	Dynamic bool // the first argv word contains a parameter
	Tools   []*Tool
	Skills  []*Skill // skills that break if the program is missing
	// Installed: some Tool installs it, or it is a path of the repository;
	// never for a dynamic program, whose name is not known.
	Installed bool
}

// program is the first argv word of a shell Tool.
func (t *Tool) program() (string, bool) {
	if len(t.Shell) == 0 {
		return "", false
	}
	w := t.Shell[0]
	return w, strings.Contains(w, "$")
}

// installWords are the words of every Tool's install object: a program is
// installed when some Tool's install names it. Made once per analysis
// rather than splitting every install object again for each program
// (programs × Tools: a fifth of an Update's CPU at 1k skills).
func installWords(ts []*Tool) map[string]bool {
	words := map[string]bool{}
	for _, t := range ts {
		if t.InstallJSON == "" {
			continue
		}
		for _, w := range strings.FieldsFunc(t.InstallJSON, installSep) {
			words[w] = true
		}
	}
	return words
}

// installSep splits an install object's JSON into words.
func installSep(r rune) bool {
	return r == ' ' || r == '"' || r == ',' || r == ':' || r == '/' || r == '{' || r == '}' || r == '[' || r == ']'
}

func installNone(t *Tool) bool { return strings.Contains(t.InstallJSON, `"none":true`) }

func (s *Snapshot) programs(out *findings) {
	byName := map[string]*Program{}
	for _, t := range s.Tools {
		name, dyn := t.program()
		if name == "" {
			continue
		}
		p := byName[name]
		if p == nil {
			p = &Program{Name: name, Dynamic: dyn}
			byName[name] = p
		}
		p.Tools = append(p.Tools, t)
		for _, sk := range t.ValidFor {
			if !containsSkillPtr(p.Skills, sk) {
				p.Skills = append(p.Skills, sk)
			}
		}
	}
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	sort.Strings(names)
	var installed map[string]bool
	if len(names) > 0 {
		installed = installWords(s.Tools)
	}
	for _, n := range names {
		p := byName[n]
		sort.Slice(p.Skills, func(i, j int) bool { return p.Skills[i].ID < p.Skills[j].ID })
		p.Installed = installed[p.Name]
		// A path is a script of the repository, not a program to install.
		if !p.Dynamic && strings.Contains(p.Name, "/") {
			p.Installed = true
		}
		s.Programs = append(s.Programs, p)
		// A dynamic program ($bin) is known only at run time: nothing
		// says it is installed (issue 23.7), and nothing can say it is
		// missing, so it is no finding either.
		if p.Installed || p.Dynamic || s.Profile != "" {
			continue
		}
		for _, t := range p.Tools {
			if installNone(t) {
				continue
			}
			out.add(s.finding(record.CodeProgramNotInstalled, t.Source, t.Line, t.IRI,
				"tool %s runs %q, which no Tool installs (and its install is not none): skills %s break where it is missing",
				t.ID, p.Name, skillIDs(p.Skills)))
		}
	}
}

func containsSkillPtr(xs []*Skill, x *Skill) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func skillIDs(xs []*Skill) string {
	var ids []string
	for _, x := range xs {
		ids = append(ids, x.Label())
	}
	if ids == nil {
		return "(none)"
	}
	return strings.Join(ids, ", ")
}
