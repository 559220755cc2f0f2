package skill

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// TestCorpus parses the small real cases under testdata/corpus (copied from
// the acceptance corpus and public repositories) and checks their findings.
func TestCorpus(t *testing.T) {
	root := filepath.Join("testdata", "corpus")
	expect := map[string][]want{
		"skills/agent/notes-digest/SKILL.md": {E("agent-skill-name-mismatch", 2)},
		"skills/agent/pdf-notes/SKILL.md":    {W("skill-unknown-key", 6)},
		"skills/hard/waitlist/SKILL.md":      {E("hard-skill-undeclared-var", 32), E("hard-skill-param-unused", 28)},
		"crewlet-tool-skills/examples/tool-skills/platform-mentions.md": {
			W("skill-variable-unresolved", 28), W("skill-variable-unresolved", 28),
		},
	}
	kinds := map[string]string{
		"skills/agent/notes-digest/SKILL.md":                            "agent",
		"skills/agent/pdf-notes/SKILL.md":                               "agent",
		"skills/hard/waitlist/SKILL.md":                                 "hard",
		"skills/tool-skills/github.md":                                  "tool-skill",
		"skills/tool-skills/jira.md":                                    "tool-skill",
		"skills/core/import-data.md":                                    "harness",
		"skills/core/README.md":                                         "other",
		"crewlet-tool-skills/examples/tool-skills/platform-mentions.md": "tool-skill",
		"hard-skills/test/SKILL.md":                                     "hard",
	}
	seen := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		f := Parse(rel, data, Options{
			Package: filepath.Base(filepath.Dir(p)),
			Exists: func(r string) bool {
				_, err := os.Stat(filepath.Join(root, filepath.FromSlash(r)))
				return err == nil
			},
		})
		seen++
		t.Run(rel, func(t *testing.T) {
			checkFindings(t, f, expect[rel]...)
			got := f.Parser
			switch {
			case len(f.ToolSkills) == 1:
				got = "tool-skill"
			case len(f.Skills) == 1:
				got = f.Skills[0].Flavour
			}
			if got != kinds[rel] {
				t.Errorf("kind %q, want %q", got, kinds[rel])
			}
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen != len(kinds) {
		t.Errorf("parsed %d files, want %d", seen, len(kinds))
	}
}

func TestCorpusWaitlistTools(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "corpus", "hard-skills", "test", "SKILL.md"))
	if err != nil {
		t.Fatal(err)
	}
	f := Parse("hard-skills/test/SKILL.md", data, Options{})
	if len(f.Tools) != 2 || f.Tools[0].ID != "waitlist.access" || f.Tools[1].ID != "waitlist.stats" {
		t.Fatalf("tools %+v", f.Tools)
	}
	s := only(t, f)
	if len(s.ShellBlocks) != 1 || s.ShellBlocks[0] != 40 {
		t.Errorf("shell blocks %v", s.ShellBlocks)
	}
	acc := f.Tools[0]
	if len(acc.Inputs) != 2 || acc.Inputs[0].Required || !acc.Inputs[1].Required || acc.Inputs[1].Line != 20 {
		t.Errorf("inputs %+v", acc.Inputs)
	}
	for _, fi := range f.Findings {
		if fi.Severity == record.Error {
			t.Errorf("unexpected %+v", fi)
		}
	}
}
