package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// copyTree copies the example corpus so a case can change it.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "harness")
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
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
		{"diff", "--base", head, "--corpus", head, "--fail-on", "typo"}, {"diff", "--base", t.TempDir(), "--corpus", head}} {
		if _, errs, code := runCLI(t, bad...); code != 2 {
			t.Errorf("%v: exit %d (%s), want 2", bad, code, errs)
		}
	}
}
