package discover

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/skillgraph/skillgraph/ingest/corpustest"
)

// TestWorkspaceProbes: the workspace search reports every regular *.json
// file it found not to be a declaration, with its size, and does not read
// a file Options.NotDeclaration knows (here a lie, so that the skip
// shows: the instance it declares is not found).
func TestWorkspaceProbes(t *testing.T) {
	decl := `{"name": "%s", "directories": [{"id": "s", "path": "skills", "graphTypologies": ["skills"]}]}`
	files := map[string]string{
		"harness.json":               `{"name": "repo", "directories": [{"id": "s", "path": "skills", "graphTypologies": ["skills"]}]}`,
		"root-notes.json":            `{"root": true}`, // the root's own files are the root declaration's search
		"a/harness.json":             fmt.Sprintf(decl, "a"),
		"a/notes.json":               `{"n": 1}`, // after the declaration by name: not read
		"b/b.json":                   fmt.Sprintf(decl, "b"),
		"b/aa.json":                  `{"n": 22}`,
		"c/d/e/notes.json":           `{"n": 333}`,
		"c/d/e/f/deep.json":          `{"n": 4444}`,
		"c/d/e/f/g/deeper.json":      `{"n": 55555}`, // below MaxWorkspaceDepth
		"node_modules/x/notes.json":  `{"n": 5}`,
		"skills/core/readme.md":      "# not json\n",
		"skills/core/manifest.json":  `{"name": "core"}`,
		"skills/core/broken.json":    `{"name": `,
		"skills/core/sub/plain.json": `[]`,
	}
	root := corpustest.Write(t, files)
	if err := os.Symlink(filepath.Join(root, "a", "notes.json"), filepath.Join(root, "b", "link.json")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		known     string // the file NotDeclaration claims
		instances []string
		probed    []string
	}{
		{"nothing known", "", []string{".", "a", "b"},
			[]string{"b/aa.json", "c/d/e/f/deep.json", "c/d/e/notes.json", "skills/core/broken.json", "skills/core/manifest.json", "skills/core/sub/plain.json"}},
		{"a declaration claimed: not read", "b/b.json", []string{".", "a"},
			[]string{"b/aa.json", "b/b.json", "c/d/e/f/deep.json", "c/d/e/notes.json", "skills/core/broken.json", "skills/core/manifest.json", "skills/core/sub/plain.json"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var probed []string
			opt := Options{
				NotDeclaration: func(p Probe) bool { return p.Path == tc.known },
				Probed: func(p Probe) {
					if p.Size != int64(len(files[p.Path])) || p.MTime == 0 {
						t.Errorf("probe %+v: want size %d and an mtime", p, len(files[p.Path]))
					}
					probed = append(probed, p.Path)
				},
			}
			ws, err := Workspace(root, opt)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, in := range ws {
				rel, _ := filepath.Rel(root, in.Root)
				got = append(got, filepath.ToSlash(rel))
			}
			if !slices.Equal(got, tc.instances) {
				t.Errorf("instances %v, want %v", got, tc.instances)
			}
			slices.Sort(probed)
			if !slices.Equal(probed, tc.probed) {
				t.Errorf("probed %v, want %v", probed, tc.probed)
			}
		})
	}
}

// TestLoadWalksWithTheSearchListings: Load walks a folder the workspace
// search listed by that listing (the tree as of the search) and lists
// every other folder itself: a file added after the search under a folder
// deeper than MaxWorkspaceDepth is found, one added to a listed folder is
// found by a Load without the listings only.
func TestLoadWalksWithTheSearchListings(t *testing.T) {
	md := "---\nname: %s\ndescription: The %s skill.\n---\n"
	root := t.TempDir()
	write := func(rel, body string) { corpustest.WriteInto(t, root, map[string]string{rel: body}) }
	write("harness.json", `{"name": "repo", "directories": [{"id": "s", "path": "skills", "graphTypologies": ["skills"]}]}`)
	write("skills/core/a.md", fmt.Sprintf(md, "a", "a"))
	write("skills/core/d1/d2/d3/b.md", fmt.Sprintf(md, "b", "b"))
	listings := &Listings{}
	if _, err := Workspace(root, Options{Listings: listings}); err != nil {
		t.Fatal(err)
	}
	write("skills/core/late.md", fmt.Sprintf(md, "late", "late"))
	write("skills/core/d1/d2/d3/deep-late.md", fmt.Sprintf(md, "deep-late", "deep-late"))
	write("skills/core/a.md", fmt.Sprintf(md, "a", "a, edited"))
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		t.Fatal(err)
	}
	// lstat answers what the listings saw: a.md as of the search, nothing
	// for late.md (listed before it was written) nor for the folder below
	// MaxWorkspaceDepth until a walk lists it.
	lstat := func(rel string) int64 {
		st, ok := listings.Lstat(filepath.Join(real, filepath.FromSlash(rel)))
		if !ok {
			return -1
		}
		return st.Size()
	}
	for rel, want := range map[string]int64{
		"skills/core/a.md":                int64(len(fmt.Sprintf(md, "a", "a"))),
		"skills/core/late.md":             -1,
		"skills/core/d1/d2/d3/b.md":       -1,
		"skills/core/d1/d2/d3/missing.md": -1,
	} {
		if got := lstat(rel); got != want {
			t.Errorf("Lstat(%s) after the search: size %d, want %d", rel, got, want)
		}
	}
	tests := []struct {
		name     string
		listings *Listings
		want     []string
	}{
		{"with the search's listings", listings, []string{"harness.json", "skills/core/a.md", "skills/core/d1/d2/d3/b.md", "skills/core/d1/d2/d3/deep-late.md"}},
		{"without", nil, []string{"harness.json", "skills/core/a.md", "skills/core/d1/d2/d3/b.md", "skills/core/d1/d2/d3/deep-late.md", "skills/core/late.md"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Load(context.Background(), root, Options{Listings: tc.listings})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			var got []string
			for _, s := range c.Sources {
				got = append(got, s.Path)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("sources %v, want %v", got, tc.want)
			}
		})
	}
	if got, want := lstat("skills/core/d1/d2/d3/b.md"), int64(len(fmt.Sprintf(md, "b", "b"))); got != want {
		t.Errorf("Lstat of a file the walk listed: size %d, want %d", got, want)
	}
}
