package gitsource_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/ingest/gitsource"
	"github.com/skillgraph/skillgraph/ingest/gitsource/gittest"
)

// listing describes every entry under dir: folders, files with their
// content, symlinks with their target.
func listing(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case rel == ".":
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			out = append(out, "link "+rel+" -> "+target)
		case d.IsDir():
			out = append(out, "dir "+rel)
		default:
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out = append(out, "file "+rel+": "+string(data))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

func write(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestMirrorFollowsCheckouts: brought from commit to commit in any order,
// the mirror holds exactly what a checkout of the folder holds (files,
// symlinks, no empty folder left behind, a file turned folder and back),
// it reports exactly the paths that differ, and each write gets a later
// modification time than any before.
func TestMirrorFollowsCheckouts(t *testing.T) {
	repo := gittest.Init(t, filepath.Join(t.TempDir(), "repo"))
	corpus := filepath.Join(repo.Dir, "sub", "corpus")
	var hashes []string
	step := func(msg string, edit func()) {
		hashes = append(hashes, repo.Commit(msg, func(string) { edit() }))
	}
	step("outside only", func() { write(t, repo.Dir, map[string]string{"top.md": "x"}) })
	step("first", func() {
		write(t, corpus, map[string]string{"skills/a/SKILL.md": "a", "skills/b/SKILL.md": "b", "tools/t.json": "{}"})
		if err := os.Symlink("../skills/a/SKILL.md", filepath.Join(corpus, "tools", "link.md")); err != nil {
			t.Fatal(err)
		}
	})
	step("edit one, remove a folder's last file", func() {
		write(t, corpus, map[string]string{"skills/a/SKILL.md": "a2"})
		if err := os.RemoveAll(filepath.Join(corpus, "skills", "b")); err != nil {
			t.Fatal(err)
		}
	})
	step("a file becomes a folder", func() {
		p := filepath.Join(corpus, "tools", "t.json")
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
		write(t, corpus, map[string]string{"tools/t.json/inner.json": "{}"})
	})
	step("the corpus removed", func() {
		if err := os.RemoveAll(corpus); err != nil {
			t.Fatal(err)
		}
	})
	step("back", func() { write(t, corpus, map[string]string{"skills/c/SKILL.md": "c"}) })

	r, err := gitsource.Open(corpus)
	if err != nil {
		t.Fatal(err)
	}
	if r.Sub != "sub/corpus" || r.FolderName() != "corpus" {
		t.Fatalf("Open: sub %q, name %q", r.Sub, r.FolderName())
	}
	ctx := context.Background()
	m, err := r.NewMirror(filepath.Join(t.TempDir(), "corpus"))
	if err != nil {
		t.Fatal(err)
	}
	var last time.Time
	// Forward, backward and skipping: each checkout is compared with a
	// fresh one, and the changed paths with the two listings' difference.
	for _, i := range []int{1, 2, 3, 4, 5, 1, 3, 0, 5, 2} {
		head, err := r.Resolve(hashes[i])
		if err != nil {
			t.Fatal(err)
		}
		tree, err := r.SubTree(head)
		if err != nil {
			t.Fatal(err)
		}
		before := listing(t, m.Dir())
		changed, err := m.Checkout(ctx, tree)
		if err != nil {
			t.Fatalf("checkout %d: %v", i, err)
		}
		want := filepath.Join(t.TempDir(), "want")
		if !repo.Checkout(hashes[i], "sub/corpus", want) {
			if err := os.MkdirAll(want, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		after := listing(t, m.Dir())
		if w := listing(t, want); !reflect.DeepEqual(after, w) {
			t.Errorf("mirror at commit %d:\n%q\nwant\n%q", i, after, w)
		}
		if len(changed) == 0 && !reflect.DeepEqual(before, after) {
			t.Errorf("commit %d changed the mirror but reported no path", i)
		}
		seen := map[string]bool{}
		var times []time.Time
		for _, p := range changed {
			if !filepath.IsAbs(p) || !within(m.Dir(), p) || seen[p] {
				t.Errorf("changed path %s is not in the mirror, or named twice", p)
			}
			seen[p] = true
			if st, err := os.Lstat(p); err == nil && st.Mode().IsRegular() {
				times = append(times, st.ModTime())
				if time.Since(st.ModTime()) < time.Hour {
					t.Errorf("%s: mtime %v is near now: an ingest would call it racy", p, st.ModTime())
				}
			}
		}
		sort.Slice(times, func(a, b int) bool { return times[a].Before(times[b]) })
		for _, mt := range times {
			if !mt.After(last) {
				t.Errorf("commit %d: a written file's mtime %v is not after every earlier write's (%v)", i, mt, last)
			}
			last = mt
		}
	}
}

func within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && filepath.IsLocal(rel)
}

// TestFirstParents: the line from HEAD to the root, oldest first, marks
// the commits that changed the folder; Open works for a folder the work
// tree no longer has, and fails for one in no repository.
func TestFirstParents(t *testing.T) {
	repo := gittest.Init(t, filepath.Join(t.TempDir(), "repo"))
	corpus := filepath.Join(repo.Dir, "c")
	h := []string{
		repo.Commit("outside", func(dir string) { write(t, dir, map[string]string{"x": "1"}) }),
		repo.Commit("in", func(string) { write(t, corpus, map[string]string{"a": "1"}) }),
		repo.Commit("outside again", func(dir string) { write(t, dir, map[string]string{"x": "2"}) }),
		repo.Commit("in again", func(string) { write(t, corpus, map[string]string{"a": "2"}) }),
		repo.Commit("gone", func(string) {
			if err := os.RemoveAll(corpus); err != nil {
				t.Fatal(err)
			}
		}),
	}
	r, err := gitsource.Open(corpus) // no longer in the work tree
	if err != nil {
		t.Fatal(err)
	}
	head, err := r.Resolve("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	line, err := r.FirstParents(context.Background(), head)
	if err != nil {
		t.Fatal(err)
	}
	var got, touched []string
	for _, c := range line {
		got = append(got, c.Hash)
		if c.Touched {
			touched = append(touched, c.Subject)
		}
	}
	if !reflect.DeepEqual(got, h) || !reflect.DeepEqual(touched, []string{"in", "in again", "gone"}) {
		t.Errorf("line %v (touched %q), want %v (in, in again, gone)", got, touched, h)
	}
	if !line[4].Tree.IsZero() || line[3].Tree.IsZero() {
		t.Errorf("trees: gone %v, in again %v", line[4].Tree, line[3].Tree)
	}
	if _, err := gitsource.Open(t.TempDir()); !errors.Is(err, gitsource.ErrNotRepository) {
		t.Errorf("Open outside a repository: %v", err)
	}
	if _, err := r.Resolve("no-such-branch"); err == nil {
		t.Error("Resolve of a missing revision succeeded")
	}
}

// TestMirrorCap: a blob over the cap is written only up to the cap (and
// one byte) but has its full size, so a reader refusing it by size sees
// what it sees on a checkout; a blob within the cap is written whole.
func TestMirrorCap(t *testing.T) {
	repo := gittest.Init(t, filepath.Join(t.TempDir(), "repo"))
	big := strings.Repeat("x", 10000)
	h := repo.Commit("big", func(dir string) { write(t, dir, map[string]string{"c/big.md": big, "c/small.md": "small"}) })
	r, err := gitsource.Open(filepath.Join(repo.Dir, "c"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := r.NewMirror(filepath.Join(t.TempDir(), "c"))
	if err != nil {
		t.Fatal(err)
	}
	m.Cap = 100
	c, err := r.Resolve(h)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := r.SubTree(c)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Checkout(context.Background(), tree); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(filepath.Join(m.Dir(), "big.md"))
	if err != nil || st.Size() != int64(len(big)) {
		t.Fatalf("big.md: %v, size %d, want %d", err, st.Size(), len(big))
	}
	data, _ := os.ReadFile(filepath.Join(m.Dir(), "big.md"))
	if string(data[:101]) != big[:101] || data[101] != 0 {
		t.Errorf("big.md holds %q…, want the first 101 bytes then a hole", data[:110])
	}
	if data, _ := os.ReadFile(filepath.Join(m.Dir(), "small.md")); string(data) != "small" {
		t.Errorf("small.md = %q", data)
	}
}
