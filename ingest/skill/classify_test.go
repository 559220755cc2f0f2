package skill

import (
	"testing"
)

func TestClassify(t *testing.T) {
	cases := []struct {
		name, path string
		data       []byte
		parser     string
		flavour    string // harness, agent, hard, tool-skill, or "" for other
	}{
		{"readme", "skills/core/README.md", md("# Core", "```tool", "id: x", "run: y", "```"), ParserOther, ""},
		{"readme lower", "skills/core/readme.md", md("# Core"), ParserOther, ""},
		{"schema", "skills/a/x.md", md("---", "$schema: https://json-schema.org/draft/2020-12/schema", "---", "# X"), ParserOther, ""},
		{"schema broken yaml", "skills/a/x.md", md("---", "$schema: x", "a: [", "---"), ParserOther, ""},
		{"tool skill wins over SKILL.md", "skills/a/SKILL.md", md("---", "key: k", "trigger:", "  tool: t", "skill: s", "---"), ParserSkill, "tool-skill"},
		{"key without trigger", "skills/a/x.md", md("---", "key: k", "---"), ParserSkill, FlavourHarness},
		{"hard by skill key", "skills/a/x.md", md("---", "skill: s", "---"), ParserSkill, FlavourHard},
		{"hard by fence", "skills/a/x.md", md("# X", "```tool", "id: a", "run: echo", "```"), ParserSkill, FlavourHard},
		{"hard by tilde fence", "skills/a/x.md", md("~~~tool", "id: a", "run: echo", "~~~"), ParserSkill, FlavourHard},
		{"tool fence in SKILL.md", "skills/a/SKILL.md", md("---", "name: a", "---", "```tool", "id: a", "run: echo", "```"), ParserSkill, FlavourHard},
		{"not a tool fence", "skills/a/x.md", md("```tools", "id: a", "```", "```tool yaml", "```"), ParserSkill, FlavourHarness},
		{"agent SKILL.md", "skills/a/SKILL.md", md("---", "name: a", "description: d", "---"), ParserSkill, FlavourAgent},
		{"agent skill.md", "skills/a/skill.md", md("---", "name: a", "description: d", "---"), ParserSkill, FlavourAgent},
		{"harness", "skills/a/x.md", md("# X"), ParserSkill, FlavourHarness},
		{"broken yaml sniffed tool skill", "skills/a/x.md", md("---", "key: k", "trigger: [", "---"), ParserSkill, "tool-skill"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := Parse(c.path, c.data, Options{})
			if f.Parser != c.parser || f.Path != c.path {
				t.Fatalf("parser %q path %q, want %q %q", f.Parser, f.Path, c.parser, c.path)
			}
			got := ""
			switch {
			case len(f.ToolSkills) == 1 && len(f.Skills) == 0:
				got = "tool-skill"
			case len(f.Skills) == 1 && len(f.ToolSkills) == 0:
				got = f.Skills[0].Flavour
			case len(f.Skills)+len(f.ToolSkills) != 0:
				t.Fatalf("several records: %+v", f)
			}
			if got != c.flavour {
				t.Fatalf("flavour %q, want %q", got, c.flavour)
			}
			if c.parser == ParserOther && (len(f.Findings) != 0 || len(f.Tools) != 0) {
				t.Fatalf("other file has data: %+v", f)
			}
		})
	}
}

func TestFrontMatter(t *testing.T) {
	cases := []struct {
		name  string
		data  []byte
		id    string
		desc  string
		title string
		want  []want
	}{
		{"plain", md("---", "name: n", "description: d", "---", "# T"), "x", "d", "T", nil},
		{"bom crlf", []byte("\uFEFF---\r\nname: n\r\ndescription: d\r\n---\r\n# T\r\n"), "x", "d", "T", nil},
		{"empty front matter", md("---", "---", "body"), "x", "", "x", nil},
		{"closing dots", md("---", "description: d", "...", "# T"), "x", "d", "T", nil},
		{"invalid yaml", md("---", "name: n", "description: [a", "other: b", "---", "# T"), "x", "", "T", []want{E("parse-error", 3)}},
		{"bad indent", md("---", "name: n", "  bad: x", "---"), "x", "", "x", []want{E("parse-error", 3)}},
		{"tab indent", md("---", "a:", "\tb: c", "---"), "x", "", "x", []want{E("parse-error", 3)}},
		{"unclosed", md("---", "name: n", "# T"), "x", "", "T", []want{E("parse-error", 1)}},
		{"not a mapping", md("---", "- a", "- b", "---"), "x", "", "x", []want{E("parse-error", 2)}},
		{"scalar", md("---", "just text", "---"), "x", "", "x", []want{E("parse-error", 2)}},
		{"duplicate key", md("---", "description: one", "name: n", "description: two", "---"), "x", "one", "n", []want{E("parse-error", 4)}},
		{"nul byte", []byte("---\nname: a\x00b\n---\n"), "x", "", "x", []want{E("parse-error", 2)}},
		{"invalid utf8", []byte("---\nname: a\xffb\n---\n"), "x", "", "x", []want{E("parse-error", 2)}},
		{"lone cr", []byte("---\rname: n\rdescription: [\r---\r"), "x", "", "x", []want{E("parse-error", 3)}},
		{"unicode line separators", md("---", "name: 'a\u2028b\u0085c'", "description: [", "---"), "x", "", "x", []want{E("parse-error", 3)}},
		{"unicode break in plain scalar", md("---", "name: a\u2028b", "---"), "x", "", "x", []want{E("parse-error", 2)}},
		{"dashes later are a rule", md("# T", "---", "name: n", "---"), "x", "", "T", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := Parse("skills/p/x.md", c.data, Options{Package: "p"})
			s := only(t, f)
			if s.ID != c.id || s.Description != c.desc || s.Title != c.title || s.Flavour != FlavourHarness || s.Package != "p" {
				t.Errorf("got id %q desc %q title %q flavour %q package %q", s.ID, s.Description, s.Title, s.Flavour, s.Package)
			}
			checkFindings(t, f, c.want...)
		})
	}
}

func TestBrokenFrontMatterKeepsFlavour(t *testing.T) {
	// An Agent Skill whose YAML is broken: one parse-error, no key rules.
	f := Parse("skills/pdf/SKILL.md", md("---", "name: pdf", "description: [x", "---", "# PDF"), Options{})
	s := only(t, f)
	if s.Flavour != FlavourAgent || s.ID != "pdf" || s.Title != "PDF" {
		t.Errorf("got %+v", s)
	}
	checkFindings(t, f, E("parse-error", 3))

	// A tool skill whose YAML is broken keeps its key.
	f = Parse("ts/x.md", md("---", "key: mcp:x", "trigger: [", "---", "body"), Options{})
	ts := onlyTS(t, f)
	if ts.Key != "mcp:x" || ts.BodyLines != 1 {
		t.Errorf("got %+v", ts)
	}
	checkFindings(t, f, E("parse-error", 3))
}

func TestUnicodeBreaksKeepLines(t *testing.T) {
	f := Parse("s/pdf/SKILL.md", md("---", "name: pdf", "x: 'a\u2028b'", "model: m", "description: d", "---"), Options{})
	checkFindings(t, f, W("skill-unknown-key", 3), W("skill-unknown-key", 4))
}
