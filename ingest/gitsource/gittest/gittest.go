// Package gittest builds git repositories for tests with go-git (no git
// binary): commits made by editing a work tree, and a checkout of any
// commit written out by walking its tree, the oracle the incremental
// readers are compared with.
package gittest

import (
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Repo is a repository with a work tree, being built by a test.
type Repo struct {
	t    testing.TB
	Dir  string // the work tree
	repo *git.Repository
	wt   *git.Worktree
	when time.Time
}

// Init makes an empty repository in dir.
func Init(t testing.TB, dir string) *Repo {
	t.Helper()
	r, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatalf("git init %s: %v", dir, err)
	}
	wt, err := r.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	return &Repo{t: t, Dir: dir, repo: r, wt: wt, when: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
}

// Commit runs edit on the work tree, stages everything (new, changed and
// removed files) and commits it with msg, one hour after the commit before.
// It returns the commit hash.
func (r *Repo) Commit(msg string, edit func(dir string)) string {
	r.t.Helper()
	if edit != nil {
		edit(r.Dir)
	}
	r.unstageReplaced()
	if err := r.wt.AddWithOptions(&git.AddOptions{All: true}); err != nil {
		r.t.Fatalf("git add: %v", err)
	}
	r.when = r.when.Add(time.Hour)
	sig := &object.Signature{Name: "test", Email: "test@example.invalid", When: r.when}
	h, err := r.wt.Commit(msg, &git.CommitOptions{All: true, Author: sig, Committer: sig, AllowEmptyCommits: true})
	if err != nil {
		r.t.Fatalf("git commit %q: %v", msg, err)
	}
	return h.String()
}

// unstageReplaced drops from the index the files that are now folders:
// go-git's add reads such a path as the file it was and fails.
func (r *Repo) unstageReplaced() {
	r.t.Helper()
	idx, err := r.repo.Storer.Index()
	if err != nil {
		r.t.Fatal(err)
	}
	kept := idx.Entries[:0]
	for _, e := range idx.Entries {
		if st, err := os.Lstat(filepath.Join(r.Dir, filepath.FromSlash(e.Name))); err == nil && st.IsDir() {
			continue
		}
		kept = append(kept, e)
	}
	idx.Entries = kept
	if err := r.repo.Storer.SetIndex(idx); err != nil {
		r.t.Fatal(err)
	}
}

// Checkout writes the folder sub ("." for all) of commit hash into dst, a
// fresh directory, as a checkout would: regular files, symlinks, no empty
// folders. It reports false when the commit has no such folder.
func (r *Repo) Checkout(hash, sub, dst string) bool {
	r.t.Helper()
	c, err := r.repo.CommitObject(plumbing.NewHash(hash))
	if err != nil {
		r.t.Fatal(err)
	}
	tree, err := c.Tree()
	if err != nil {
		r.t.Fatal(err)
	}
	if sub != "." {
		if tree, err = tree.Tree(sub); err != nil {
			return false
		}
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		r.t.Fatal(err)
	}
	err = tree.Files().ForEach(func(f *object.File) error {
		p := filepath.Join(dst, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		rd, err := f.Reader()
		if err != nil {
			return err
		}
		defer rd.Close()
		data, err := io.ReadAll(rd)
		if err != nil {
			return err
		}
		if f.Mode == filemode.Symlink {
			return os.Symlink(string(data), p)
		}
		return os.WriteFile(p, data, 0o644)
	})
	if err != nil {
		r.t.Fatalf("checkout %s: %v", hash, err)
	}
	return true
}

// CopyTree copies the regular files and folders under src into dst.
func CopyTree(t testing.TB, src, dst string) {
	t.Helper()
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
}
