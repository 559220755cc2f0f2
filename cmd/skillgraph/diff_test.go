package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/ingest/gitsource/gittest"
)

// copyTree copies the example corpus so a case can change it.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "harness")
	gittest.CopyTree(t, src, dst)
	return dst
}

// TestDiffCommand: the gate's exit code follows --fail-on, and each format
// says what changed.
func TestDiffCommand(t *testing.T) {
	head := copyTree(t, exampleCorpus)
	if err := os.Remove(filepath.Join(head, "tools", "outline-gen.json")); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"identical", []string{"--base", exampleCorpus, "--corpus", exampleCorpus}, 0, []string{"no answer got worse"}},
		{"a removed Tool", []string{"--base", exampleCorpus, "--corpus", head}, 1, []string{"worse:", "Tools removed (1):\n  outline-gen"}},
		{"a removed Tool, markdown", []string{"--base", exampleCorpus, "--corpus", head, "--format", "markdown"}, 1, []string{"### ❌ skillgraph diff", "- `outline-gen`"}},
		{"--fail-on none", []string{"--base", exampleCorpus, "--corpus", head, "--fail-on", "none"}, 0, []string{"no answer got worse", "outline-gen"}},
		{"--fail-on a category that did not get worse", []string{"--base", exampleCorpus, "--corpus", head, "--fail-on", "contradicted"}, 0, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, code := runCLI(t, append([]string{"diff"}, tc.args...)...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr %s\n%s", code, tc.code, errs, out)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
	out, _, code := runCLI(t, "diff", "--base", exampleCorpus, "--corpus", head, "--format", "json")
	var r struct {
		RemovedTools []string `json:"removedTools"`
		Failing      []string `json:"failing"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != 1 || len(r.Failing) == 0 || r.RemovedTools[0] != "outline-gen" {
		t.Errorf("json: exit %d, %+v, %v", code, r, err)
	}
	for _, bad := range [][]string{{"diff", "--corpus", head}, {"diff", "--base", head, "--base", head, "--corpus", head},
		{"diff", "--base", head, "--corpus", head, "--fail-on", "typo"}, {"diff", "--base", filepath.Join(t.TempDir(), "typo"), "--corpus", head}} {
		if _, errs, code := runCLI(t, bad...); code != 2 {
			t.Errorf("%v: exit %d (%s), want 2", bad, code, errs)
		}
	}
}

// TestDiffMovesAndEmptyBase: a renamed Tool file moves its findings (exit
// 0, listed as moves, in the JSON with where they were), and a base folder
// that holds nothing (the corpus is new) makes everything in the change new
// instead of exit 2 (issue 23.4).
func TestDiffMovesAndEmptyBase(t *testing.T) {
	renamed := copyTree(t, exampleCorpus)
	if err := os.Rename(filepath.Join(renamed, "tools", "fact-check.json"), filepath.Join(renamed, "tools", "claims.json")); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runCLI(t, "diff", "--base", exampleCorpus, "--corpus", renamed)
	if code != 0 || !strings.Contains(out, "no answer got worse") || !strings.Contains(out, "Moved findings (") ||
		!strings.Contains(out, "tools/fact-check.json:7 → tools/claims.json:7: error contract-required-missing") || strings.Contains(out, "New findings") {
		t.Errorf("a renamed Tool file: exit %d, want 0 with its findings moved; stderr %s\n%s", code, errs, out)
	}
	out, _, code = runCLI(t, "diff", "--base", exampleCorpus, "--corpus", renamed, "--format", "json")
	var r struct {
		New   []map[string]any `json:"newFindings"`
		Fixed []map[string]any `json:"fixedFindings"`
		Moved []struct {
			Code     string `json:"code"`
			File     string `json:"file"`
			Line     int    `json:"line"`
			FromFile string `json:"fromFile"`
			FromLine int    `json:"fromLine"`
		} `json:"movedFindings"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != 0 || len(r.New)+len(r.Fixed) != 0 || len(r.Moved) == 0 {
		t.Fatalf("json: exit %d, %d new, %d fixed, %d moved, %v", code, len(r.New), len(r.Fixed), len(r.Moved), err)
	}
	for _, m := range r.Moved {
		if m.FromFile != "tools/fact-check.json" || m.File != "tools/claims.json" || m.Line == 0 || m.FromLine == 0 {
			t.Errorf("move %+v: want tools/fact-check.json → tools/claims.json with lines", m)
		}
	}

	empty := t.TempDir()
	out, errs, code = runCLI(t, "diff", "--base", empty, "--corpus", exampleCorpus, "--format", "json")
	var all struct {
		Before struct{ Skills, Errors int }
		After  struct{ Skills, Errors int }
		Added  []string          `json:"addedSkills"`
		New    []json.RawMessage `json:"newFindings"`
	}
	if err := json.Unmarshal([]byte(out), &all); err != nil {
		t.Fatalf("an empty base: exit %d, stderr %s, %v\n%s", code, errs, err, out)
	}
	if code != 1 || all.Before.Skills != 0 || all.After.Skills == 0 || len(all.Added) != all.After.Skills || all.After.Errors == 0 || len(all.New) == 0 {
		t.Errorf("an empty base: exit %d, %+v; want everything new, exit 1 for the new errors", code, all)
	}
}
