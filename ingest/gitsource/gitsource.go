// Package gitsource reads a corpus folder out of a git repository's objects
// (never a checkout of the work tree, never the network, no git binary):
// the first-parent commits that touched the folder, and a mirror directory
// that holds the folder as of one commit and is brought to another by
// writing only the files that differ, so that an ingest of the mirror re-reads
// only what the commit changed (`skillgraph history`, `diff --base REV`).
package gitsource

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// ErrNotRepository is returned by Open for a folder that is in no git
// repository.
var ErrNotRepository = errors.New("not in a git repository")

// Repo is a git repository opened to read one corpus folder's history.
type Repo struct {
	repo *git.Repository
	// Top is the absolute work-tree directory, symlinks resolved.
	Top string
	// Sub is the corpus folder relative to Top, slash-separated ("." for
	// the top itself).
	Sub string
}

// Open finds the repository that holds dir (in dir or a parent, a linked
// work tree included) and the path of dir in it. dir itself need not exist
// any more in the work tree: its history is read from the objects.
func Open(dir string) (*Repo, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("corpus %s: %w", dir, err)
	}
	// The deepest existing ancestor is where the search for .git starts;
	// symlinks are resolved so that the path in the work tree is exact.
	existing, rest := abs, ""
	for {
		if real, err := filepath.EvalSymlinks(existing); err == nil {
			existing = real
			break
		}
		parent := filepath.Dir(existing)
		if parent == existing {
			return nil, fmt.Errorf("corpus %s: %w", dir, ErrNotRepository)
		}
		rest = filepath.Join(filepath.Base(existing), rest)
		existing = parent
	}
	r, err := git.PlainOpenWithOptions(existing, &git.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
	if errors.Is(err, git.ErrRepositoryNotExists) {
		return nil, fmt.Errorf("corpus %s: %w", dir, ErrNotRepository)
	}
	if err != nil {
		return nil, fmt.Errorf("corpus %s: opening its git repository: %w", dir, err)
	}
	wt, err := r.Worktree()
	if err != nil {
		return nil, fmt.Errorf("corpus %s: its repository has no work tree to place the folder in: %w", dir, err)
	}
	top, err := filepath.EvalSymlinks(wt.Filesystem.Root())
	if err != nil {
		return nil, fmt.Errorf("corpus %s: work tree %s: %w", dir, wt.Filesystem.Root(), err)
	}
	rel, err := filepath.Rel(top, filepath.Join(existing, rest))
	if err != nil || !filepath.IsLocal(rel) && rel != "." {
		return nil, fmt.Errorf("corpus %s: not inside the work tree %s", dir, top)
	}
	return &Repo{repo: r, Top: top, Sub: filepath.ToSlash(rel)}, nil
}

// FolderName is the corpus folder's own name (the work tree's for a
// corpus at its top): a mirror under this name gives the default instance
// the name a checkout gives it.
func (r *Repo) FolderName() string {
	if r.Sub == "." {
		return filepath.Base(r.Top)
	}
	return path.Base(r.Sub)
}

// Resolve names the commit rev stands for (a branch, a tag, a hash or a
// prefix of one, HEAD~2 and the like).
func (r *Repo) Resolve(rev string) (*object.Commit, error) {
	h, err := r.repo.ResolveRevision(plumbing.Revision(rev))
	if err != nil {
		return nil, fmt.Errorf("revision %q: %w", rev, err)
	}
	c, err := r.repo.CommitObject(*h)
	if err != nil {
		return nil, fmt.Errorf("revision %q: %w", rev, err)
	}
	return c, nil
}

// Commit is one commit of the corpus folder's history.
type Commit struct {
	Hash    string
	Time    time.Time // the committer's time
	Subject string    // the first line of the message
	// Tree is the corpus folder's tree in the commit; the zero hash when
	// the folder is not in it.
	Tree plumbing.Hash
	// Touched is whether Tree differs from the first parent's (for a root
	// commit: whether the folder is in it).
	Touched bool
}

// SubTree is the corpus folder's tree hash in c (the zero hash when the
// commit has no such folder).
func (r *Repo) SubTree(c *object.Commit) (plumbing.Hash, error) {
	if r.Sub == "." {
		return c.TreeHash, nil
	}
	root, err := c.Tree()
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("commit %s: %w", c.Hash, err)
	}
	e, err := root.FindEntry(r.Sub)
	if errors.Is(err, object.ErrEntryNotFound) || errors.Is(err, object.ErrDirectoryNotFound) {
		return plumbing.ZeroHash, nil
	}
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("commit %s: %s: %w", c.Hash, r.Sub, err)
	}
	if e.Mode != filemode.Dir {
		return plumbing.ZeroHash, nil // a file where the folder was: no corpus
	}
	return e.Hash, nil
}

// FirstParents is the first-parent line from until back to the root
// commit, oldest first, each commit with the corpus folder's tree and
// whether that tree differs from its first parent's (Touched). A merge
// counts once, for what it brought to the first-parent line.
func (r *Repo) FirstParents(ctx context.Context, until *object.Commit) ([]Commit, error) {
	var rev []Commit
	c := until
	tree, err := r.SubTree(c)
	if err != nil {
		return nil, err
	}
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var parent *object.Commit
		ptree := plumbing.ZeroHash
		if c.NumParents() > 0 {
			if parent, err = c.Parent(0); err != nil {
				return nil, fmt.Errorf("commit %s: first parent: %w", c.Hash, err)
			}
			if ptree, err = r.SubTree(parent); err != nil {
				return nil, err
			}
		}
		rev = append(rev, Commit{Hash: c.Hash.String(), Time: c.Committer.When, Subject: subject(c.Message), Tree: tree, Touched: tree != ptree})
		if parent == nil {
			break
		}
		c, tree = parent, ptree
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev, nil
}

func subject(msg string) string {
	s, _, _ := strings.Cut(strings.TrimSpace(msg), "\n")
	return strings.TrimSpace(s)
}

// Mirror is a directory holding a corpus folder as of one tree. Checkout
// brings it to another tree by writing and removing only the files that
// differ, each written file with a modification time later than any before
// it, so an ingest's file stamps (size and mtime) see exactly the changed
// files as changed.
type Mirror struct {
	// Cap, if positive, is the most bytes of a blob written: a larger one
	// is written up to Cap+1 bytes and then extended, sparse, to its size,
	// so a reader that refuses files over Cap by their size (the ingest's
	// file-too-large) sees the size a checkout has, and a huge blob costs
	// neither the disk nor the time of writing it out.
	Cap  int64
	repo *Repo
	dir  string
	cur  plumbing.Hash
	// clock is the next modification time to give a written file: a fixed
	// past time counting up one second per write, never the wall clock
	// (two writes in one clock tick would look unchanged, and a time near
	// now is racy to the ingest's stamps).
	clock time.Time
}

// NewMirror makes dir (which must not exist, or be empty) the mirror of
// the repository's corpus folder; it starts empty.
func (r *Repo) NewMirror(dir string) (*Mirror, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("mirror: %w", err)
	}
	return &Mirror{repo: r, dir: dir, clock: time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)}, nil
}

// Dir is the mirror's directory.
func (m *Mirror) Dir() string { return m.dir }

// Checkout brings the mirror to tree (the zero hash: empty) and returns the
// absolute paths of the files written or removed, sorted, each once. Entries that cannot be
// placed in a folder (a name with a path separator or "..", a submodule)
// are skipped, as a checkout skips a submodule's content.
func (m *Mirror) Checkout(ctx context.Context, tree plumbing.Hash) ([]string, error) {
	if tree == m.cur {
		return nil, nil
	}
	from, err := m.tree(m.cur)
	if err != nil {
		return nil, err
	}
	to, err := m.tree(tree)
	if err != nil {
		return nil, err
	}
	changes, err := object.DiffTreeWithOptions(ctx, from, to, nil)
	if err != nil {
		return nil, fmt.Errorf("mirror: comparing trees %s and %s: %w", m.cur, tree, err)
	}
	var touched, writes []string
	var entries []object.ChangeEntry
	// Removals first: a file may be replaced by a folder of that name, or
	// the other way round.
	for _, ch := range changes {
		if ch.From.Name == "" {
			continue
		}
		p, ok := m.place(ch.From.Name)
		if !ok {
			continue
		}
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("mirror: %w", err)
		}
		m.prune(filepath.Dir(p))
		touched = append(touched, p)
	}
	for _, ch := range changes {
		if ch.To.Name == "" {
			continue
		}
		if p, ok := m.place(ch.To.Name); ok && ch.To.TreeEntry.Mode != filemode.Submodule {
			writes = append(writes, p)
			entries = append(entries, ch.To)
		}
	}
	for i, p := range writes {
		if err := m.write(ctx, p, entries[i]); err != nil {
			return nil, err
		}
		touched = append(touched, p)
	}
	m.cur = tree
	// A changed file was removed and written: name it once.
	slices.Sort(touched)
	return slices.Compact(touched), nil
}

// tree is the tree object of h; nil for the zero hash.
func (m *Mirror) tree(h plumbing.Hash) (*object.Tree, error) {
	if h.IsZero() {
		return nil, nil
	}
	t, err := m.repo.repo.TreeObject(h)
	if err != nil {
		return nil, fmt.Errorf("mirror: tree %s: %w", h, err)
	}
	return t, nil
}

// place is the mirror path of a slash path of the tree; false for one that
// would leave the mirror (git refuses such names, a crafted tree may not).
func (m *Mirror) place(name string) (string, bool) {
	for _, seg := range strings.Split(name, "/") {
		if seg == "" || seg == "." || seg == ".." || strings.ContainsRune(seg, '\\') || strings.EqualFold(seg, ".git") {
			return "", false
		}
	}
	n := filepath.FromSlash(path.Clean(name))
	if !filepath.IsLocal(n) {
		return "", false
	}
	return filepath.Join(m.dir, n), true
}

// prune removes dir and its parents up to the mirror while they are empty,
// as a checkout leaves no empty folder behind (an empty skills/ folder is
// not the same corpus as none).
func (m *Mirror) prune(dir string) {
	for dir != m.dir && strings.HasPrefix(dir, m.dir+string(filepath.Separator)) {
		if os.Remove(dir) != nil {
			return
		}
		dir = filepath.Dir(dir)
	}
}

// write puts one blob at p: a symlink for a link entry (the ingest's
// confined reading decides whether it may be followed), a file otherwise.
func (m *Mirror) write(ctx context.Context, p string, e object.ChangeEntry) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	blob, err := m.repo.repo.BlobObject(e.TreeEntry.Hash)
	if err != nil {
		return fmt.Errorf("mirror: %s: %w", e.Name, err)
	}
	rd, err := blob.Reader()
	if err != nil {
		return fmt.Errorf("mirror: %s: %w", e.Name, err)
	}
	defer rd.Close()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("mirror: %w", err)
	}
	if e.TreeEntry.Mode == filemode.Symlink {
		target, err := io.ReadAll(io.LimitReader(rd, 4096))
		if err != nil {
			return fmt.Errorf("mirror: %s: %w", e.Name, err)
		}
		_ = os.Remove(p)
		if err := os.Symlink(string(target), p); err != nil {
			return fmt.Errorf("mirror: %w", err)
		}
		return nil
	}
	_ = os.Remove(p) // a symlink before: never write through it
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("mirror: %w", err)
	}
	var src io.Reader = rd
	if m.Cap > 0 && blob.Size > m.Cap {
		src = io.LimitReader(rd, m.Cap+1)
	}
	if _, err := io.Copy(f, src); err != nil {
		f.Close()
		return fmt.Errorf("mirror: %s: %w", e.Name, err)
	}
	if m.Cap > 0 && blob.Size > m.Cap {
		if err := f.Truncate(blob.Size); err != nil {
			f.Close()
			return fmt.Errorf("mirror: %w", err)
		}
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("mirror: %w", err)
	}
	m.clock = m.clock.Add(time.Second)
	if err := os.Chtimes(p, m.clock, m.clock); err != nil {
		return fmt.Errorf("mirror: %w", err)
	}
	return nil
}
