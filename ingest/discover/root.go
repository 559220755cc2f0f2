package discover

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
)

// Errors of confined reading. Each becomes a finding on the file named.
var (
	// ErrTooLarge is returned for a file over the size cap (file-too-large).
	ErrTooLarge = errors.New("file too large")
	// ErrEscapes is returned for a path that leaves the corpus root,
	// lexically or through a symlink (path-escapes-root).
	ErrEscapes = errors.New("path leaves the corpus root (a symlink out of it, or ..); not read")
	// ErrNotRegular is returned for a FIFO, a socket or a device: reading
	// one could block forever or never end (file-unreadable, SPEC §1.2).
	ErrNotRegular = errors.New("not a regular file (a FIFO, socket or device); not read")
)

// Root reads files below one corpus directory and nowhere else. Every path
// is resolved by os.Root, which follows a symlink only while it stays inside
// the directory and checks each step as it opens it: a path checked and then
// swapped for a symlink out of the root cannot be followed out of it (SPEC
// §1.2). Only regular files are read, and never more than the size cap.
type Root struct {
	dir     string // absolute, symlinks resolved
	root    *os.Root
	maxSize int64
}

// OpenRoot opens dir (absolute, its own symlinks resolved) for confined
// reading with a size cap (0: DefaultMaxFileSize).
func OpenRoot(dir string, maxSize int64) (*Root, error) {
	if maxSize <= 0 {
		maxSize = DefaultMaxFileSize
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("corpus %s: %w", dir, err)
	}
	return &Root{dir: dir, root: r, maxSize: maxSize}, nil
}

// Close releases the directory handle.
func (r *Root) Close() error { return r.root.Close() }

// Dir is the absolute directory of the root.
func (r *Root) Dir() string { return r.dir }

// FS is the root as an fs.FS, confined like every other read.
func (r *Root) FS() fs.FS { return r.root.FS() }

// name turns a slash path relative to the root into an os.Root name; a
// path that leaves the root lexically (.., absolute) is ErrEscapes.
func name(rel string) (string, error) {
	p := path.Clean(strings.TrimPrefix(rel, "./"))
	if p == "." {
		return ".", nil
	}
	n := filepath.FromSlash(p)
	if !filepath.IsLocal(n) {
		return "", ErrEscapes
	}
	return n, nil
}

// ReadFile reads rel (slash-separated, relative to the root). It never
// follows a symlink out of the root (ErrEscapes), never opens anything but a
// regular file for reading (ErrNotRegular: a FIFO would block the open and
// the read) and never reads more than the cap (ErrTooLarge).
func (r *Root) ReadFile(rel string) ([]byte, error) {
	n, err := name(rel)
	if err != nil {
		return nil, err
	}
	// O_NONBLOCK: opening a FIFO for reading otherwise waits for a writer.
	// It has no effect on the regular files that are read below.
	f, err := r.root.OpenFile(n, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, r.classify(rel, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rel, err)
	}
	if !st.Mode().IsRegular() {
		if st.IsDir() {
			return nil, fmt.Errorf("%s: is a directory", rel)
		}
		return nil, fmt.Errorf("%s: %w", rel, ErrNotRegular)
	}
	if st.Size() > r.maxSize {
		return nil, fmt.Errorf("%w: %s is %d bytes, over %d", ErrTooLarge, rel, st.Size(), r.maxSize)
	}
	// The file may grow after the stat: the limit holds anyway.
	data, err := readSized(io.LimitReader(f, r.maxSize+1), st.Size())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rel, err)
	}
	if int64(len(data)) > r.maxSize {
		return nil, fmt.Errorf("%w: %s is over %d bytes", ErrTooLarge, rel, r.maxSize)
	}
	return data, nil
}

// Stat describes rel, following symlinks inside the root; a symlink out of
// it is ErrEscapes, a missing file fs.ErrNotExist.
func (r *Root) Stat(rel string) (fs.FileInfo, error) {
	n, err := name(rel)
	if err != nil {
		return nil, err
	}
	st, err := r.root.Stat(n)
	if err != nil {
		return nil, r.classify(rel, err)
	}
	return st, nil
}

// Lstat describes rel itself (a symlink is not followed).
func (r *Root) Lstat(rel string) (fs.FileInfo, error) {
	n, err := name(rel)
	if err != nil {
		return nil, err
	}
	st, err := r.root.Lstat(n)
	if err != nil {
		return nil, r.classify(rel, err)
	}
	return st, nil
}

// Exists reports whether rel is a regular file or a directory inside the
// root (a FIFO or a device does not count: nothing can be read from it).
// It reads nothing.
func (r *Root) Exists(rel string) bool {
	st, err := r.Stat(rel)
	return err == nil && (st.Mode().IsRegular() || st.IsDir())
}

// IsDir reports whether rel is a directory inside the root.
func (r *Root) IsDir(rel string) bool {
	st, err := r.Stat(rel)
	return err == nil && st.IsDir()
}

// classify names the reason os.Root refused rel. os.Root does not export
// its "path escapes from parent" error, so a failure that is not a plain
// missing or forbidden file is also judged by resolving the path: this
// decides only the message, the refusal itself was made by os.Root.
func (r *Root) classify(rel string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && strings.Contains(pe.Err.Error(), "escapes") {
		return ErrEscapes
	}
	if errors.Is(err, fs.ErrPermission) {
		return err
	}
	if !r.resolvesInside(rel) {
		return ErrEscapes // e.g. a dangling symlink whose target lies outside
	}
	return err
}

// resolvesInside resolves rel's symlinks with the path functions (racy, so
// only used to word an error) and reports whether it stays inside the root:
// the deepest existing ancestor is resolved, and a dangling final link is
// followed by hand.
func (r *Root) resolvesInside(rel string) bool {
	p := filepath.Join(r.dir, filepath.FromSlash(rel))
	if !within(r.dir, p) {
		return false
	}
	for range 40 {
		target, err := os.Readlink(p)
		if err != nil {
			break
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(p), target)
		}
		p = target
	}
	for q := p; ; q = filepath.Dir(q) {
		if real, err := filepath.EvalSymlinks(q); err == nil {
			rest, _ := filepath.Rel(q, p)
			return within(r.dir, filepath.Join(real, rest))
		}
		if q == filepath.Dir(q) {
			return false
		}
	}
}

// within reports whether p is root or below it, lexically.
func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// readSized reads rd to its end into a buffer sized from size (the file's
// stat), as os.ReadFile does: io.ReadAll grows a buffer from 512 bytes,
// copying each file's bytes several times (a sixth of a cold start's
// allocations at 10k skills). One byte more than size lets the read see
// its end without growing; a file that grew meanwhile is read whole.
func readSized(rd io.Reader, size int64) ([]byte, error) {
	data := make([]byte, 0, max(size, 0)+1)
	for {
		n, err := rd.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)] // grew since the stat
		}
	}
}
