package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/ingest/gitsource/gittest"
)

// TestDiffBaseRevision: `diff --base REV` says exactly what `diff --base`
// a checkout of REV says, on every case of the diff tests (the same Tool
// removed, a renamed Tool file, a base without the corpus, a broken
// contract, a lost entry point, a change for the better, each format,
// --fail-on and --findings), and a --base that is neither a folder nor a revision is exit 2.
func TestDiffBaseRevision(t *testing.T) {
	repo := gittest.Init(t, filepath.Join(t.TempDir(), "repo"))
	corpus := filepath.Join(repo.Dir, "harness")
	rev := map[string]string{}
	rev["before"] = repo.Commit("no corpus yet", func(dir string) {
		if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("# repo\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	})
	rev["example"] = repo.Commit("the example", func(string) { gittest.CopyTree(t, exampleCorpus, corpus) })
	rev["removed"] = repo.Commit("a Tool removed", func(string) {
		if err := os.Remove(filepath.Join(corpus, "tools", "outline-gen.json")); err != nil {
			t.Fatal(err)
		}
	})
	rev["renamed"] = repo.Commit("a Tool file renamed", func(string) {
		if err := os.Rename(filepath.Join(corpus, "tools", "fact-check.json"), filepath.Join(corpus, "tools", "claims.json")); err != nil {
			t.Fatal(err)
		}
	})
	edit := func(rel, old, new string) func(string) {
		return func(string) {
			p := filepath.Join(corpus, filepath.FromSlash(rel))
			data, err := os.ReadFile(p)
			if err != nil || !strings.Contains(string(data), old) {
				t.Fatalf("%s lacks %q (%v)", rel, old, err)
			}
			if err := os.WriteFile(p, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	// The kinds of change queries/diff's own cases make: a contract that
	// breaks (new findings, a contradiction), an entry point lost (Tools
	// and skills no longer reached).
	rev["contract"] = repo.Commit("a contract broken", edit("tools/translation.yaml",
		"{name: path, type: RepoPath, required: true, arg: {flag: --page}}", "{name: page, type: RepoPath, required: true, arg: {flag: --page}}"))
	rev["entry"] = repo.Commit("an entry point removed", edit("harness.json", `"tools": ["site-preview"],`, ``))
	// The worktree form of each revision: a checkout in a folder named as
	// the corpus is, as `git worktree add` gives.
	worktree := func(name string) string {
		dir := filepath.Join(t.TempDir(), "harness")
		if !repo.Checkout(rev[name], "harness", dir) {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	// The head of each case is the work tree's corpus folder, rewritten to
	// the case's revision (a revision is read from the repository holding
	// --corpus; what the work tree holds is the change).
	for _, tc := range []struct {
		name, base, head string
		args             []string
		code             int
		want             string
	}{
		{"identical", "example", "example", nil, 0, "no answer got worse"},
		{"a removed Tool", "example", "removed", nil, 1, "outline-gen"},
		{"a removed Tool, markdown", "example", "removed", []string{"--format", "markdown"}, 1, "- `outline-gen`"},
		{"a removed Tool, json", "example", "removed", []string{"--format", "json"}, 1, `"removedTools"`},
		{"--fail-on none", "example", "removed", []string{"--fail-on", "none"}, 0, "outline-gen"},
		{"--fail-on contradicted", "example", "removed", []string{"--fail-on", "contradicted"}, 0, "outline-gen"},
		{"a renamed Tool file", "removed", "renamed", nil, 0, "Moved findings ("},
		{"a renamed Tool file, json", "removed", "renamed", []string{"--format", "json"}, 0, `"movedFindings"`},
		{"a base without the corpus", "before", "renamed", []string{"--format", "json"}, 1, `"addedSkills"`},
		{"a broken contract", "renamed", "contract", nil, 1, "New findings ("},
		{"a broken contract, json", "renamed", "contract", []string{"--format", "json"}, 1, `"contract-required-missing"`},
		{"an entry point removed", "contract", "entry", nil, 1, "newly unreachable"},
		{"an entry point removed, markdown", "contract", "entry", []string{"--format", "markdown"}, 1, "unreachable"},
		{"back to the example (better, and the Tool's findings back)", "entry", "example", []string{"--format", "json"}, 1, `"nowReachableTools": [`},
		{"--findings warning", "renamed", "contract", []string{"--findings", "warning", "--fail-on", "findings"}, 1, "New findings ("},
	} {
		t.Run(tc.name, func(t *testing.T) {
			head := corpus
			if err := os.RemoveAll(corpus); err != nil {
				t.Fatal(err)
			}
			repo.Checkout(rev[tc.head], "harness", corpus)
			byRev, errs, code := runCLI(t, append([]string{"diff", "--base", rev[tc.base], "--corpus", head}, tc.args...)...)
			if code != tc.code || !strings.Contains(byRev, tc.want) {
				t.Fatalf("--base %s: exit %d (want %d), stderr %s\n%s", tc.base, code, tc.code, errs, byRev)
			}
			byDir, errs2, code2 := runCLI(t, append([]string{"diff", "--base", worktree(tc.base), "--corpus", head}, tc.args...)...)
			if byRev != byDir || code != code2 || errs != errs2 {
				t.Errorf("--base REV (exit %d) and --base a checkout of it (exit %d) differ:\n%s\n----\n%s\n%s%s", code, code2, byRev, byDir, errs, errs2)
			}
		})
	}
	// Revisions by name resolve too (a branch, HEAD~N): HEAD~3 is the
	// Tool removed, the work tree the Tool file renamed.
	if err := os.RemoveAll(corpus); err != nil {
		t.Fatal(err)
	}
	repo.Checkout(rev["renamed"], "harness", corpus)
	if out, errs, code := runCLI(t, "diff", "--base", "HEAD~3", "--corpus", corpus); code != 0 || !strings.Contains(out, "Moved findings (") {
		t.Errorf("--base HEAD~3: exit %d, %s\n%s", code, errs, out)
	}
	for _, bad := range [][]string{
		{"diff", "--base", "no-such-rev", "--corpus", corpus},
		{"diff", "--base", "HEAD", "--corpus", t.TempDir()}, // the corpus is in no repository
	} {
		if _, errs, code := runCLI(t, bad...); code != 2 || !strings.Contains(errs, "no such folder") {
			t.Errorf("%v: exit %d (%s), want 2 saying no such folder", bad, code, errs)
		}
	}
}
