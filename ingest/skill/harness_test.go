package skill

import (
	"slices"
	"strings"
	"testing"
)

func TestHarness(t *testing.T) {
	data := md(
		"---",                                  // 1
		"name: Import data",                    // 2
		"description: Import a file.",          // 3
		"input: schemas/skills/x/input.json",   // 4
		"output: https://example.org/out.json", // 5
		"allowed-tools: Bash(git add:*), Read", // 6
		"model: opus",                          // 7 unknown: not reported
		"---",                                  // 8
		"",                                     // 9
		"Intro.",                               // 10
		"",                                     // 11
		"```bash",                              // 12
		"# not a heading",                      // 13
		"```",                                  // 14
		"# Import data title",                  // 15
		"~~~sh",                                // 16
		"ls",                                   // 17
		"~~~",                                  // 18
		"```console title=x",                   // 19
		"$ ls",                                 // 20
		"```",                                  // 21
		"```python",                            // 22
		"```",                                  // 23
		"  ```BASH",                            // 24
		"  ```",                                // 25
	)
	f := Parse("skills/core/import-data.md", data, Options{Package: "core"})
	checkFindings(t, f)
	s := only(t, f)
	if s.ID != "import-data" || s.Flavour != FlavourHarness || s.Package != "core" || s.Line != 1 {
		t.Errorf("id/flavour/package/line: %+v", s)
	}
	if s.Name != "Import data" || s.Description != "Import a file." || s.Title != "Import data title" {
		t.Errorf("name/desc/title: %q %q %q", s.Name, s.Description, s.Title)
	}
	if s.Input != "schemas/skills/x/input.json" || s.InputLine != 4 || s.Output != "https://example.org/out.json" || s.OutputLine != 5 {
		t.Errorf("contracts: %q@%d %q@%d", s.Input, s.InputLine, s.Output, s.OutputLine)
	}
	if !slices.Equal(s.AllowedTools, []string{"Bash(git add:*)", "Read"}) {
		t.Errorf("allowed-tools %q", s.AllowedTools)
	}
	if !slices.Equal(s.ShellBlocks, []int{12, 16, 19, 24}) {
		t.Errorf("shell blocks %v", s.ShellBlocks)
	}
	if s.BodyLines != 17 {
		t.Errorf("body lines %d", s.BodyLines)
	}
}

func TestHarnessTitleAndTools(t *testing.T) {
	cases := []struct {
		name  string
		data  []byte
		title string
		tools []string
		lines int
	}{
		{"title from name", md("---", "name: Nice", "---", "## not level 1"), "Nice", nil, 1},
		{"title from id", md("no heading"), "x", nil, 1},
		{"heading closing hashes", md("# Title ##"), "Title", nil, 1},
		{"heading indented 4 is code", md("    # Code", "# Real"), "Real", nil, 2},
		{"tools space separated", md("---", "allowed-tools: Read Bash(git:*)  Grep", "---"), "x", []string{"Read", "Bash(git:*)", "Grep"}, 0},
		{"tools list", md("---", "allowed-tools:", "  - Read", "  - Bash(git status:*)", "---"), "x", []string{"Read", "Bash(git status:*)"}, 0},
		{"tools unbalanced", md("---", "allowed-tools: Bash(x Read", "---"), "x", []string{"Bash(x Read"}, 0},
		{"empty file", nil, "x", nil, 0},
		{"no trailing newline", []byte("a\nb"), "x", nil, 2},
		{"unterminated fence swallows heading", md("```bash", "# no"), "x", nil, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := Parse("skills/p/x.md", c.data, Options{})
			checkFindings(t, f)
			s := only(t, f)
			if s.Title != c.title || !slices.Equal(s.AllowedTools, c.tools) || s.BodyLines != c.lines {
				t.Errorf("title %q tools %q lines %d", s.Title, s.AllowedTools, s.BodyLines)
			}
		})
	}
}

func TestAgent(t *testing.T) {
	long := func(n int) string { return strings.Repeat("a", n) }
	cases := []struct {
		name string
		path string
		data []byte
		id   string
		want []want
	}{
		{"valid", "s/pdf-notes/SKILL.md", md("---", "name: pdf-notes", "description: d", "license: MIT", "compatibility: needs python", "metadata:", "  author: me", "  version: 1.0", "allowed-tools: Read", "---"), "pdf-notes", nil},
		{"mismatch", "s/notes-digest/SKILL.md", md("---", "name: notes-digests", "description: d", "---"), "notes-digests", []want{E("agent-skill-name-mismatch", 2)}},
		{"upper case", "s/Pdf/SKILL.md", md("---", "name: Pdf", "description: d", "---"), "Pdf", []want{E("agent-skill-name-invalid", 2)}},
		{"double hyphen", "s/a--b/SKILL.md", md("---", "name: a--b", "description: d", "---"), "a--b", []want{E("agent-skill-name-invalid", 2)}},
		{"leading hyphen", "s/-a/SKILL.md", md("---", "name: -a", "description: d", "---"), "-a", []want{E("agent-skill-name-invalid", 2)}},
		{"too long", "s/" + long(65) + "/SKILL.md", md("---", "name: "+long(65), "description: d", "---"), long(65), []want{E("agent-skill-name-invalid", 2)}},
		{"64 ok", "s/" + long(64) + "/SKILL.md", md("---", "name: "+long(64), "description: d", "---"), long(64), nil},
		{"missing name", "s/pdf/SKILL.md", md("---", "description: d", "---"), "pdf", []want{E("agent-skill-name-invalid", 1)}},
		{"empty name", "s/pdf/SKILL.md", md("---", "name: ''", "description: d", "---"), "pdf", []want{E("agent-skill-name-invalid", 2)}},
		{"list name", "s/pdf/SKILL.md", md("---", "name: [a]", "description: d", "---"), "pdf", []want{E("agent-skill-name-invalid", 2)}},
		{"no front matter", "s/pdf/SKILL.md", md("# PDF"), "pdf", []want{E("agent-skill-name-invalid", 1), E("agent-skill-description-invalid", 1)}},
		{"root SKILL.md", "SKILL.md", md("---", "name: x", "description: d", "---"), "x", nil},
		{"missing description", "s/pdf/SKILL.md", md("---", "name: pdf", "---"), "pdf", []want{E("agent-skill-description-invalid", 1)}},
		{"empty description", "s/pdf/SKILL.md", md("---", "name: pdf", "description:", "---"), "pdf", []want{E("agent-skill-description-invalid", 3)}},
		{"map description", "s/pdf/SKILL.md", md("---", "name: pdf", "description:", "  a: b", "---"), "pdf", []want{E("agent-skill-description-invalid", 3)}},
		{"long description", "s/pdf/SKILL.md", md("---", "name: pdf", "description: "+long(1025), "---"), "pdf", []want{E("agent-skill-description-invalid", 3)}},
		{"1024 runes ok", "s/pdf/SKILL.md", md("---", "name: pdf", "description: "+strings.Repeat("é", 1024), "---"), "pdf", nil},
		{"long compatibility", "s/pdf/SKILL.md", md("---", "name: pdf", "description: d", "compatibility: "+long(501), "---"), "pdf", []want{E("parse-error", 4)}},
		{"metadata not map", "s/pdf/SKILL.md", md("---", "name: pdf", "description: d", "metadata: x", "---"), "pdf", []want{W("skill-metadata-invalid", 4)}},
		{"metadata nested", "s/pdf/SKILL.md", md("---", "name: pdf", "description: d", "metadata:", "  a: [1]", "  b: ok", "---"), "pdf", []want{W("skill-metadata-invalid", 5)}},
		{"unknown keys", "s/pdf/SKILL.md", md("---", "name: pdf", "model: opus", "description: d", "user-invocable: true", "---"), "pdf", []want{W("skill-unknown-key", 3), W("skill-unknown-key", 5)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := Parse(c.path, c.data, Options{Package: "p"})
			checkFindings(t, f, c.want...)
			s := only(t, f)
			if s.ID != c.id || s.Flavour != FlavourAgent || s.Package != "p" {
				t.Errorf("id %q flavour %q package %q", s.ID, s.Flavour, s.Package)
			}
		})
	}
}

func TestAgentFields(t *testing.T) {
	f := Parse("skills/agent/pdf-notes/SKILL.md", md(
		"---",
		"name: pdf-notes",
		"description: Extract notes.",
		"license: Apache-2.0",
		"compatibility: python 3",
		"metadata: {author: me, version: 1.0}",
		"allowed-tools: Read Bash(pdftotext:*)",
		"---",
		"# PDF notes",
		"```bash",
		"pdftotext x -",
		"```",
	), Options{})
	checkFindings(t, f)
	s := only(t, f)
	if s.Name != "pdf-notes" || s.Title != "PDF notes" || s.Description != "Extract notes." || s.License != "Apache-2.0" || s.Compat != "python 3" {
		t.Errorf("%+v", s)
	}
	if s.Metadata["author"] != "me" || s.Metadata["version"] != "1.0" || len(s.Metadata) != 2 {
		t.Errorf("metadata %v", s.Metadata)
	}
	if !slices.Equal(s.AllowedTools, []string{"Read", "Bash(pdftotext:*)"}) || !slices.Equal(s.ShellBlocks, []int{10}) || s.BodyLines != 4 {
		t.Errorf("tools %q shell %v lines %d", s.AllowedTools, s.ShellBlocks, s.BodyLines)
	}
}

// TestAliasedDescription: a description written as a YAML alias, or
// brought in by a merge key, is the skill's description, not empty (issue
// #16.7).
func TestAliasedDescription(t *testing.T) {
	for name, data := range map[string]string{
		"alias":     "---\nname: deploy\nx-shared: &d Deploy the release\ndescription: *d\n---\n# Deploy\n",
		"merge key": "---\nx-base: &base {name: deploy, description: Deploy the release}\n<<: *base\n---\n# Deploy\n",
		"agent":     "---\nname: deploy\nx: &d Deploy the release\ndescription: *d\n---\n# Deploy\n",
	} {
		path := "skills/p/deploy.md"
		if name == "agent" {
			path = "skills/deploy/SKILL.md"
		}
		f := Parse(path, []byte(data), Options{})
		if len(f.Skills) != 1 || f.Skills[0].Description != "Deploy the release" {
			t.Errorf("%s: skills %+v findings %+v", name, f.Skills, f.Findings)
		}
	}
}
