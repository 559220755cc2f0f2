package ingest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/ingest/corpustest"
)

// storeLines is the store's N-Quads without the meta graph (version
// counters), sorted.
func storeLines(t *testing.T, st *graph.Store) []string {
	t.Helper()
	var b bytes.Buffer
	if _, err := st.WriteNQuads(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(b.String(), "\n") {
		if l != "" && !strings.Contains(l, "<"+graph.MetaGraph+">") {
			out = append(out, l)
		}
	}
	slices.Sort(out)
	return out
}

// freshLines is storeLines of a fresh ingest of roots into an empty
// memory store: what a store re-ingested step by step must hold.
func freshLines(t *testing.T, roots []string, opt Options) []string {
	t.Helper()
	fresh, err := graph.Open(context.Background(), "memory")
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	if _, err := Run(context.Background(), fresh, roots, opt); err != nil {
		t.Fatal(err)
	}
	return storeLines(t, fresh)
}

// TestOnlyChangedPaths: an ingest told which files changed (Options.Only,
// what `serve --watch` passes) reads only those, and leaves the store with
// exactly the data a full ingest of the same corpus writes; a change to a
// file other parses depend on falls back to the full read.
func TestOnlyChangedPaths(t *testing.T) {
	for _, remember := range []bool{false, true} {
		t.Run(fmt.Sprintf("discovery remembered %v", remember), func(t *testing.T) {
			var d *Discovery
			if remember {
				d = &Discovery{}
			}
			testOnlyChangedPaths(t, d)
		})
	}
}

func testOnlyChangedPaths(t *testing.T, disc *Discovery) {
	ctx := context.Background()
	root := filepath.Join(t.TempDir(), "mini")
	if err := os.CopyFS(root, os.DirFS("../../ingest/testdata/mini")); err != nil {
		t.Fatal(err)
	}
	inc := openBackend(t, "memory")
	if _, err := Run(ctx, inc, []string{root}, Options{Discovery: disc}); err != nil {
		t.Fatal(err)
	}
	at := func(rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }
	write := func(rel, s string) {
		if err := os.WriteFile(at(rel), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read := func(rel string) string {
		b, err := os.ReadFile(at(rel))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	steps := []struct {
		name    string
		edit    func()
		only    []string
		changed int // graphs written; -1: not checked (a full read)
		removed int
	}{
		{"edit a skill", func() {
			write("skills/core/review.md", strings.Replace(read("skills/core/review.md"), "Review a change.", "Review a change, incrementally.", 1))
		}, []string{"skills/core/review.md"}, 1, 0},
		{"add a skill", func() {
			write("skills/core/ship.md", "---\nname: ship\ndescription: Ship a reviewed change.\n---\n\n# Ship\n")
		}, []string{"skills/core/ship.md"}, 1, 0},
		{"remove a skill", func() {
			if err := os.Remove(at("skills/core/open-change.md")); err != nil {
				t.Fatal(err)
			}
		}, []string{"skills/core/open-change.md"}, 0, 1},
		{"edit the added skill again", func() {
			write("skills/core/ship.md", "---\nname: ship\ndescription: Ship a reviewed change, now.\n---\n\n# Ship\n")
		}, []string{"skills/core/ship.md"}, 1, 0},
		{"a skill replaced by a folder", func() {
			if err := os.Remove(at("skills/core/ship.md")); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(at("skills/core/ship.md/inner"), 0o755); err != nil {
				t.Fatal(err)
			}
			write("skills/core/ship.md/inner/deep.md", "---\nname: deep\ndescription: Deep.\n---\n")
		}, []string{"skills/core/ship.md"}, -1, 0},
		{"edit the declaration: a full read", func() {
			write("harness.json", strings.Replace(read("harness.json"), "{", "{\n  \"description\": \"edited\",", 1))
		}, []string{"harness.json"}, -1, 0},
		{"a path that is no source: a full read", func() {
			write("skills/core/review.md", strings.Replace(read("skills/core/review.md"), "incrementally", "again", 1))
		}, []string{"notes.txt"}, -1, 0},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			s.edit()
			var only []string
			for _, p := range s.only {
				only = append(only, at(p))
			}
			res, err := Run(ctx, inc, []string{root}, Options{Only: only, Discovery: disc})
			if err != nil {
				t.Fatal(err)
			}
			if s.changed >= 0 && (res.Changed != s.changed || res.Removed != s.removed) {
				t.Fatalf("changed %d removed %d, want %d and %d", res.Changed, res.Removed, s.changed, s.removed)
			}
			if got, want := storeLines(t, inc), freshLines(t, []string{root}, Options{}); !slices.Equal(got, want) {
				t.Fatalf("the store after a partial ingest (%d quads) differs from a full ingest (%d quads)", len(got), len(want))
			}
		})
	}
}

// TestDiscoveryRemembered: a partial ingest of a file the last discovery
// listed reuses that discovery instead of walking the tree (a file added
// meanwhile but not named is not seen), and every other change walks it
// again: a named new file, a source edited into an instance declaration.
func TestDiscoveryRemembered(t *testing.T) {
	ctx := context.Background()
	root := filepath.Join(t.TempDir(), "conv") // no declaration: the conventional layout
	write := func(rel, s string) string {
		corpustest.WriteInto(t, root, map[string]string{rel: s})
		return filepath.Join(root, filepath.FromSlash(rel))
	}
	a := write("skills/a.md", "---\nname: a\ndescription: A.\n---\n")
	tl := write("tools/t.json", `{"id": "t", "name": "t", "satisfies": []}`)
	st, ref, d := rememberingAndWalking(t, root)
	n := write("skills/new.md", "---\nname: new\ndescription: New.\n---\n")
	write("skills/a.md", "---\nname: a\ndescription: A, edited.\n---\n")
	steps := []struct {
		name    string
		edit    func()
		only    string
		files   int // source files the run knows of (-1: not checked)
		changed int
	}{
		{"a known file: the remembered discovery", func() {}, a, 2, 1},
		{"the new file named: a fresh walk", func() {}, n, 3, 1},
		{"a tool edited into an instance declaration: a fresh walk", func() {
			write("tools/t.json", `{"name": "sub", "directories": [{"id": "s", "path": "s", "graphTypologies": ["skills"]}]}`)
		}, tl, -1, -1},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			s.edit()
			res, err := Run(ctx, st, []string{root}, Options{Only: []string{s.only}, Discovery: d})
			if err != nil {
				t.Fatal(err)
			}
			if s.files >= 0 && (res.Files != s.files || res.Changed != s.changed) {
				t.Fatalf("files %d changed %d, want %d and %d", res.Files, res.Changed, s.files, s.changed)
			}
			if _, err := Run(ctx, ref, []string{root}, Options{Only: []string{s.only}}); err != nil {
				t.Fatal(err)
			}
			if got, want := storeLines(t, st), storeLines(t, ref); !slices.Equal(got, want) {
				t.Fatalf("the store with the remembered discovery (%d quads) differs from one walking the tree (%d quads)", len(got), len(want))
			}
		})
	}
}

// TestDiscoveryUnderAnotherSizeCap: a remembered discovery serves only
// ingests under the size cap it was made with; a partial ingest under a
// smaller one walks again, so an edited file now over the cap is reported
// too large, as an ingest walking the tree reports it.
func TestDiscoveryUnderAnotherSizeCap(t *testing.T) {
	root := filepath.Join(t.TempDir(), "conv")
	a := filepath.Join(root, "skills", "a.md")
	if err := os.MkdirAll(filepath.Dir(a), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(a, []byte("---\nname: a\ndescription: A.\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, ref, d := rememberingAndWalking(t, root)
	long := "---\nname: a\ndescription: " + strings.Repeat("A long one. ", 20) + "\n---\n"
	if err := os.WriteFile(a, []byte(long), 0o644); err != nil {
		t.Fatal(err)
	}
	partialAsWalking(t, root, st, ref, d, Options{Only: []string{a}, MaxFileSize: 64}, "file-too-large")
}

// TestDiscoveryNotReusedForContext: a partial ingest naming a file other
// parses depend on (a Tool module, which its importers read) is a full
// run, and a full run walks the tree: a file added meanwhile is ingested,
// as an ingest walking the tree ingests it.
func TestDiscoveryNotReusedForContext(t *testing.T) {
	root := filepath.Join(t.TempDir(), "harness")
	if err := os.CopyFS(root, os.DirFS("../../ingest/tsmodule/testdata/harness")); err != nil {
		t.Fatal(err)
	}
	st, ref, d := rememberingAndWalking(t, root)
	module := filepath.Join(root, "tools", "viewers.ts")
	data, err := os.ReadFile(module)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(module, append(data, "\n// edited\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	sub, err := os.ReadFile(filepath.Join(root, "tools", "viewer", "index.ts"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "tools", "added"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "tools", "added", "index.ts"), sub, 0o644); err != nil {
		t.Fatal(err)
	}
	partialAsWalking(t, root, st, ref, d, Options{Only: []string{module}}, "tools/added/index.ts")
}

// rememberingAndWalking ingests root into two memory stores through one
// Discovery, which remembers it: later runs on st use d, runs on ref walk
// the tree.
func rememberingAndWalking(t *testing.T, root string) (st, ref *graph.Store, d *Discovery) {
	t.Helper()
	ctx := context.Background()
	st = openBackend(t, "memory")
	ref = openBackend(t, "memory")
	d = &Discovery{}
	for _, s := range []*graph.Store{st, ref} {
		if _, err := Run(ctx, s, []string{root}, Options{Discovery: d}); err != nil {
			t.Fatal(err)
		}
	}
	return st, ref, d
}

// partialAsWalking runs the partial ingest opt on ref walking the tree and
// on st with d: the stores must be equal, and ref's must hold a line with
// mark (else the fixture does not test what it should).
func partialAsWalking(t *testing.T, root string, st, ref *graph.Store, d *Discovery, opt Options, mark string) {
	t.Helper()
	ctx := context.Background()
	if _, err := Run(ctx, ref, []string{root}, opt); err != nil {
		t.Fatal(err)
	}
	opt.Discovery = d
	if _, err := Run(ctx, st, []string{root}, opt); err != nil {
		t.Fatal(err)
	}
	want := storeLines(t, ref)
	if !slices.ContainsFunc(want, func(l string) bool { return strings.Contains(l, mark) }) {
		t.Fatalf("the walking ingest's store has no %q: the fixture does not test it", mark)
	}
	if got := storeLines(t, st); !slices.Equal(got, want) {
		t.Errorf("the store with the remembered discovery (%d quads) differs from one walking the tree (%d quads)", len(got), len(want))
	}
}

// TestPrimeRemembersTheDiscovery: after Prime, a partial ingest of a file
// it listed reuses its discovery (a file added after it is not seen, as
// after a full ingest's discovery) and writes what a walking ingest
// writes; without Prime the same partial ingest walks and sees the file.
func TestPrimeRemembersTheDiscovery(t *testing.T) {
	for _, prime := range []bool{true, false} {
		t.Run(fmt.Sprintf("prime=%v", prime), func(t *testing.T) {
			ctx := context.Background()
			root := filepath.Join(t.TempDir(), "conv")
			write := func(rel, s string) string {
				corpustest.WriteInto(t, root, map[string]string{rel: s})
				return filepath.Join(root, filepath.FromSlash(rel))
			}
			a := write("skills/a.md", "---\nname: a\ndescription: A.\n---\n")
			write("tools/t.json", `{"id": "t", "name": "t", "satisfies": []}`)
			st, err := graph.Open(ctx, "memory")
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			if _, err := Run(ctx, st, []string{root}, Options{}); err != nil { // no Discovery: nothing remembered
				t.Fatal(err)
			}
			d := &Discovery{}
			if prime {
				if err := Prime(ctx, []string{root}, Options{Discovery: d}); err != nil {
					t.Fatal(err)
				}
			}
			write("skills/new.md", "---\nname: new\ndescription: New.\n---\n")
			write("skills/a.md", "---\nname: a\ndescription: A, edited.\n---\n")
			res, err := Run(ctx, st, []string{root}, Options{Only: []string{a}, Discovery: d})
			if err != nil {
				t.Fatal(err)
			}
			want := 3 // walked: the new file is listed
			if prime {
				want = 2 // the primed discovery, made before the new file
			}
			if res.Files != want || res.Changed != 1 {
				t.Fatalf("files %d changed %d, want %d and 1", res.Files, res.Changed, want)
			}
		})
	}
}
