package history_test

import (
	"context"
	"github.com/skillgraph/skillgraph/queries/querytest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	_ "github.com/skillgraph/skillgraph/graph/backend/memory"
	"github.com/skillgraph/skillgraph/ingest/gitsource/gittest"
	"github.com/skillgraph/skillgraph/queries/history"
)

const example = "../../examples/harness"

// full is the tallies of a fresh full ingest of dir.
func full(t *testing.T, dir string) history.Tallies { return history.Of(querytest.Build(t, dir)) }

// TestWalkEqualsFullIngests: at every commit, the tallies of the walk (a
// partial ingest of the changed files into one store, the snapshot
// updated) are those of a full ingest of a checkout of that commit, for
// every kind of change: a skill, a Tool, a process, the declaration and
// the vocabulary (part of other files' parse context: a full re-read), a
// file no parser reads, a removal, a rename, the corpus folder emptied;
// and the per-package counts are the checkout's skills' own.
func TestWalkEqualsFullIngests(t *testing.T) {
	repo := gittest.Init(t, filepath.Join(t.TempDir(), "repo"))
	corpus := filepath.Join(repo.Dir, "harness")
	replace := func(rel, old, new string) func(string) {
		return func(string) {
			p := filepath.Join(corpus, filepath.FromSlash(rel))
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(data), old) {
				t.Fatalf("%s lacks %q", rel, old)
			}
			if err := os.WriteFile(p, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	remove := func(rel string) func(string) {
		return func(string) {
			if err := os.RemoveAll(filepath.Join(corpus, filepath.FromSlash(rel))); err != nil {
				t.Fatal(err)
			}
		}
	}
	steps := []struct {
		name string
		edit func(string)
	}{
		{"the example", func(string) { gittest.CopyTree(t, example, corpus) }},
		{"a Tool's port type", replace("tools/translation.yaml", "{name: path, type: RepoPath, required: true, arg: {flag: --page}}", "{name: page, type: RepoPath, required: true, arg: {flag: --page}}")},
		{"a process's step", replace("processes/publish-release.bpmn", `<quill:skill ref="outline-article"/>`, `<quill:skill ref="no-such-skill"/>`)},
		{"the declaration", replace("harness.json", `"tools": ["site-preview"],`, ``)},
		{"the instance renamed", replace("harness.json", `"name": "quill",`, `"name": "quill-docs",`)},
		{"a file no parser reads", replace("README.md", "", "a line\n")},
		{"a Tool file removed", remove("tools/outline-gen.json")},
		{"a skill folder removed", remove("skills/editorial")},
		{"a rename", func(string) {
			if err := os.Rename(filepath.Join(corpus, "tools", "fact-check.json"), filepath.Join(corpus, "tools", "claims.json")); err != nil {
				t.Fatal(err)
			}
		}},
		{"the vocabulary", func(string) {
			if err := os.RemoveAll(filepath.Join(corpus, "schemas")); err != nil {
				t.Fatal(err)
			}
		}},
		{"emptied", remove("")},
		{"back", func(string) { gittest.CopyTree(t, example, corpus) }},
	}
	hashes := map[string]string{}
	for _, s := range steps {
		hashes[repo.Commit(s.name, s.edit)] = s.name
	}
	var prev *history.Tallies
	n := 0
	err := history.Walk(context.Background(), corpus, history.Options{}, func(p history.Point) error {
		n++
		name := hashes[p.Commit]
		dir := filepath.Join(t.TempDir(), "harness")
		if !repo.Checkout(p.Commit, "harness", dir) {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		snap := querytest.Build(t, dir)
		if want := history.Of(snap); !reflect.DeepEqual(p.Tallies, want) {
			t.Errorf("%s: the walk says\n%+v\na full ingest says\n%+v", name, p.Tallies, want)
		}
		// The per-package counts are the checkout's skills' own, counted
		// apart from Of.
		if got, want := keyed(t, p.Tallies.Packages), wantPackages(snap); p.Tallies.Packages == nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the walk's packages\n%+v\nthe checkout's\n%+v", name, got, want)
		}
		if name == "a skill folder removed" {
			if _, ok := keyed(t, p.Tallies.Packages)["package/editorial"]; ok {
				t.Errorf("%s: package editorial still counted", name)
			}
		}
		if p.Files == 0 {
			t.Errorf("%s: no file changed", name)
		}
		if prev != nil && name != "a rename" && name != "a file no parser reads" && name != "the instance renamed" && reflect.DeepEqual(*prev, p.Tallies) {
			t.Errorf("%s: nothing changed; the step tests nothing", name)
		}
		if name == "a rename" && !reflect.DeepEqual(*prev, p.Tallies) {
			t.Errorf("a rename is a dip:\n%+v\nwas\n%+v", p.Tallies, *prev)
		}
		prev = &p.Tallies
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != len(steps) {
		t.Errorf("%d points, want %d", n, len(steps))
	}
}
