package api

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/skillgraph/skillgraph/queries"
)

// MaxTextBytes caps the text of one file that Skill.text returns: the
// ingest's own default file cap, so a file that was read is returned whole.
const MaxTextBytes = 4 << 20

// Files reads an ingested source file back, as it is now. The store holds
// the graph, not the files (a copy of every skill's text in the store
// would double it for one field), so the text of a skill comes from the
// corpus folder of a server that reads one; a store-only replica has
// none and answers null.
type Files interface {
	// ReadSource returns the bytes of src's file when they are still the
	// ingested bytes (the same SHA-256), and false otherwise.
	ReadSource(src *queries.Source) ([]byte, bool)
}

type filesKey struct{}

// WithFiles returns a context whose requests answer Skill.text from f.
func WithFiles(ctx context.Context, f Files) context.Context {
	if f == nil {
		return ctx
	}
	return context.WithValue(ctx, filesKey{}, f)
}

func filesOf(ctx context.Context) Files {
	f, _ := ctx.Value(filesKey{}).(Files)
	return f
}

// CorpusFolders reads sources back from the corpus folders given to an
// ingest.
// A source path is relative to its corpus folder; with several folders
// the one whose file has the ingested digest is the source's (the digest
// decides, so two folders with the same path cannot answer the wrong
// file). Each folder is opened as an os.Root: a path cannot leave it,
// through ".." or a symbolic link.
type CorpusFolders struct{ roots []*os.Root }

// OpenCorpusFolders opens the corpus folders of a server for Files.
func OpenCorpusFolders(folders []string) (*CorpusFolders, error) {
	var cf CorpusFolders
	for _, dir := range folders {
		r, err := os.OpenRoot(dir)
		if err != nil {
			cf.Close()
			return nil, fmt.Errorf("open the corpus folder %s: %w", dir, err)
		}
		cf.roots = append(cf.roots, r)
	}
	return &cf, nil
}

// ReadSource implements Files.
func (c *CorpusFolders) ReadSource(src *queries.Source) ([]byte, bool) {
	if src == nil || src.Path == "" || src.SHA256 == "" {
		return nil, false
	}
	for _, r := range c.roots {
		b, err := readCapped(r, src.Path)
		if err != nil {
			continue
		}
		sum := sha256.Sum256(b)
		if hex.EncodeToString(sum[:]) == src.SHA256 {
			return b, true
		}
	}
	return nil, false
}

// Close releases the folders.
func (c *CorpusFolders) Close() error {
	var errs []error
	for _, r := range c.roots {
		errs = append(errs, r.Close())
	}
	return errors.Join(errs...)
}

// readCapped reads a regular file under r, refusing one over MaxTextBytes
// (and never blocking on a FIFO put where a file was); a symbolic link
// is followed only inside r.
func readCapped(r *os.Root, path string) ([]byte, error) {
	fi, err := r.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	if fi.Size() > MaxTextBytes {
		return nil, fmt.Errorf("%s is over %d bytes", path, MaxTextBytes)
	}
	f, err := r.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, MaxTextBytes+1))
}

// skillText is Skill.text: the file as ingested, when the server can
// read it back.
func skillText(ctx context.Context, s *queries.Skill) any {
	f := filesOf(ctx)
	if f == nil {
		return nil
	}
	b, ok := f.ReadSource(s.Source)
	if !ok {
		return nil
	}
	return string(b)
}
