package queries

import (
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// A swallowed Tool (issue 23.8; the harness document, checklist 1: "grep
// your own draft for vendor names, binaries, endpoints … each hit is a Tool
// that has not been declared") is a program a skill's prose invokes that no
// Tool satisfying the skill runs. The parser records every invocation of the
// prose (record.Invocation); which of them count is decided here, on the
// whole graph: a program of the parser's CLI table, or one a declared Tool
// of the instance runs or installs.

// Swallowed is a program a skill's prose invokes without a Tool.
type Swallowed struct {
	Program string
	Text    string // the first invocation, as written
	Line    int    // its line
	Lines   []int  // every line that invokes it, ascending
	// By are the Tools of the instance that run the program (none of them
	// satisfies the skill): the Tool to link.
	By []*Tool
}

// toolProgramWord is what an installed program's name looks like.
var toolProgramWord = regexp.MustCompile(`^[a-z][a-z0-9._-]*$`)

// toolPrograms returns, per instance, the programs its Tools run (the base
// name of the first argv word) or install (the base name of each string
// value of the install object), each with the Tools that name it.
func (s *Snapshot) toolPrograms() map[*Instance]map[string][]*Tool {
	out := map[*Instance]map[string][]*Tool{}
	add := func(t *Tool, prog string) {
		if !toolProgramWord.MatchString(prog) {
			return
		}
		m := out[t.Instance]
		if m == nil {
			m = map[string][]*Tool{}
			out[t.Instance] = m
		}
		if ts := m[prog]; len(ts) == 0 || ts[len(ts)-1] != t {
			m[prog] = append(ts, t)
		}
	}
	for _, t := range s.Tools {
		if name, dyn := t.program(); name != "" && !dyn {
			add(t, path.Base(name))
		}
		for _, w := range installedNames(t.InstallJSON) {
			add(t, w)
		}
	}
	return out
}

// installedNames are the base names of the string values of an install
// object ({"brew": "gh"}, {"npm": ["@scope/x-cli"]}).
func installedNames(raw string) []string {
	if raw == "" {
		return nil
	}
	var v any
	if json.Unmarshal([]byte(raw), &v) != nil {
		return nil
	}
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			name, _, _ := strings.Cut(path.Base(x), "@") // tool@1.2
			out = append(out, name)
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return out
}

// markSwallowed sets each skill's Swallowed from its prose invocations, the
// Tools that validly satisfy it and the programs of its instance's Tools.
// Run by coverage after the satisfies edges are known and before the tiers:
// a swallowed invocation is tier-C evidence (`prose-command:<line>`).
func (s *Snapshot) markSwallowed() {
	progs := s.toolPrograms()
	for _, sk := range s.Skills {
		sk.Swallowed = swallowedIn(sk, progs[sk.Instance])
	}
}

// swallowedIn lists the programs sk's prose invokes that count (known CLIs
// and programs of the instance's Tools) and that no Tool satisfying sk runs,
// nor its allowed-tools grant (Bash(gh:*) says up front the skill runs gh
// through the host's shell).
func swallowedIn(sk *Skill, progs map[string][]*Tool) []Swallowed {
	if len(sk.Commands) == 0 {
		return nil
	}
	covered := map[string]bool{}
	for _, t := range append(append([]*Tool(nil), sk.Tools...), sk.Contradicted...) {
		if name, dyn := t.program(); name != "" && !dyn {
			covered[path.Base(name)] = true
		}
		for _, w := range installedNames(t.InstallJSON) {
			covered[w] = true
		}
	}
	for _, a := range sk.AllowedTools {
		if p := bashProgram(a); p != "" {
			covered[p] = true
		}
	}
	byProg := map[string]*Swallowed{}
	var order []string
	for _, c := range sk.Commands {
		if covered[c.Program] || (!c.Known && len(progs[c.Program]) == 0) {
			continue
		}
		sw := byProg[c.Program]
		if sw == nil {
			sw = &Swallowed{Program: c.Program, Text: c.Text, Line: c.Line, By: progs[c.Program]}
			byProg[c.Program] = sw
			order = append(order, c.Program)
		}
		if n := len(sw.Lines); n == 0 || sw.Lines[n-1] != c.Line {
			sw.Lines = append(sw.Lines, c.Line)
		}
	}
	out := make([]Swallowed, 0, len(order))
	for _, p := range order {
		out = append(out, *byProg[p])
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out
}

// bashProgram returns the program an allowed-tools entry Bash(gh:*) or
// Bash(gh pr create:*) grants, or "".
func bashProgram(entry string) string {
	rest, ok := strings.CutPrefix(strings.TrimSpace(entry), "Bash(")
	if !ok {
		return ""
	}
	rest = strings.TrimSuffix(rest, ")")
	rest, _, _ = strings.Cut(rest, ":")
	f := strings.Fields(rest)
	if len(f) == 0 {
		return ""
	}
	return path.Base(f[0])
}

// swallowedTools reports skill-swallowed-tool (warning) once per skill and
// program, at the first line that invokes it.
func (s *Snapshot) swallowedTools(out *findings) {
	for _, sk := range s.Skills {
		for _, sw := range sk.Swallowed {
			also := ""
			if len(sw.Lines) > 1 {
				var ls []string
				for _, l := range sw.Lines[1:] {
					ls = append(ls, fmt.Sprint(l))
				}
				also = "; also line " + strings.Join(ls, ", ")
			}
			hint := "declare a Tool that runs " + sw.Program + " and satisfies " + sk.Label()
			if len(sw.By) > 0 {
				hint = "Tool " + toolIDs(sw.By) + " runs " + sw.Program + " but does not satisfy " + sk.Label()
			}
			out.add(s.finding(record.CodeSkillSwallowedTool, sk.Source, sw.Line, sk.IRI,
				"skill %s invokes %s in its prose (%q%s) and no Tool it is satisfied by runs %s: %s, or mark the mention deliberate with <!-- skillgraph: allow %s -->",
				sk.Label(), sw.Program, sw.Text, also, sw.Program, hint, sw.Program))
		}
	}
}
