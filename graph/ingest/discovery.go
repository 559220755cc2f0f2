package ingest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/skillgraph/skillgraph/ingest/discover"
)

// Discovery remembers the corpora the last full discovery of an ingest
// found, so that a partial ingest (Options.Only) of files discovery already
// knows does not walk the trees again: at 10 000 skills the workspace search
// and the corpus walk were 90% of a one-file re-ingest under serve --watch.
// It is safe for concurrent use; the zero value remembers nothing yet.
//
// A remembered discovery is used only when every changed path is an
// existing regular file that it lists as a source, is not part of other
// files' parse context, and is not (now) an instance declaration; anything
// else — a new, removed or renamed file, a folder, a manifest — walks the
// trees again and remembers the new result. What discovery reports about
// files no parser reads (file-not-read) is therefore as of the last walk
// (docs/decisions.md "Partial ingests reuse the last discovery").
type Discovery struct {
	mu      sync.Mutex
	key     string
	corpora []*discover.Corpus // roots closed: Reopen before use
}

// Forget drops what d remembers: the next ingest walks the trees.
func (d *Discovery) Forget() {
	if d == nil {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.key, d.corpora = "", nil
}

// discoveryKey names what a discovery depends on besides the files.
func discoveryKey(roots []string, opt Options) string {
	return fmt.Sprintf("%d\x00%s", opt.MaxFileSize, strings.Join(roots, "\x00"))
}

// remember keeps copies of a fresh discovery's corpora (before the run
// appends its own findings to them).
func (d *Discovery) remember(roots []string, opt Options, corpora []*discover.Corpus) {
	if d == nil {
		return
	}
	kept := make([]*discover.Corpus, len(corpora))
	for i, c := range corpora {
		cc := *c
		cc.Findings = slices.Clip(slices.Clone(c.Findings))
		kept[i] = &cc
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.key, d.corpora = discoveryKey(roots, opt), kept
}

// reuse returns the remembered corpora, reopened, when they can serve a
// partial ingest of opt.Only (see Discovery); nil otherwise.
func (d *Discovery) reuse(roots []string, opt Options) []*discover.Corpus {
	if d == nil || len(opt.Only) == 0 {
		return nil
	}
	d.mu.Lock()
	key, kept := d.key, d.corpora
	d.mu.Unlock()
	if key != discoveryKey(roots, opt) || len(kept) == 0 {
		return nil
	}
	for _, p := range opt.Only {
		if !knownSource(kept, absPath(p), opt.MaxFileSize) {
			return nil
		}
	}
	var out []*discover.Corpus
	for _, c := range kept {
		cc, err := c.Reopen()
		if err != nil {
			for _, o := range out {
				o.Close()
			}
			return nil // the root is gone or unreadable: a fresh discovery says why
		}
		out = append(out, cc)
	}
	return out
}

// knownSource reports whether p (absolute) is a regular file the corpora
// list as a source that no other parse depends on, and that is not an
// instance declaration now (which would add an instance to the workspace).
func knownSource(corpora []*discover.Corpus, p string, maxSize int64) bool {
	found := false
	for _, c := range corpora {
		rel, err := filepath.Rel(c.Root, p)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		s, ok := c.Source(filepath.ToSlash(rel))
		if !ok {
			continue
		}
		if isContext(s) {
			return false
		}
		found = true
	}
	if !found {
		return false
	}
	st, err := os.Lstat(p)
	if err != nil || !st.Mode().IsRegular() {
		return false
	}
	if strings.EqualFold(filepath.Ext(p), ".json") {
		if maxSize <= 0 {
			maxSize = discover.DefaultMaxFileSize
		}
		if st.Size() <= maxSize {
			data, err := os.ReadFile(p)
			if err != nil || discover.IsDeclaration(data) {
				return false
			}
		}
	}
	return true
}

// discoverCorpora finds the instances under roots and discovers each
// corpus, or reuses opt.Discovery's for a partial ingest; it remembers a
// fresh discovery in opt.Discovery. The workspace search skips the files
// pr knows are no declarations, and logs what it finds in pr (nil: it
// reads every candidate); a fresh discovery keeps its folder listings in
// listings. The caller closes the corpora.
func discoverCorpora(ctx context.Context, roots []string, opt Options, pr *probes, listings *discover.Listings) ([]*discover.Corpus, error) {
	if cs := opt.Discovery.reuse(roots, opt); cs != nil {
		return cs, nil
	}
	var insts []discover.Instance
	for _, root := range roots {
		// A workspace root stands for every instance declared under it.
		ws, err := discover.Workspace(root, pr.options(root, discover.Options{MaxFileSize: opt.MaxFileSize, Listings: listings}))
		if err != nil {
			return nil, err
		}
		insts = append(insts, ws...)
	}
	var corpora []*discover.Corpus
	fail := func(err error) ([]*discover.Corpus, error) {
		for _, c := range corpora {
			c.Close()
		}
		return nil, err
	}
	instances := map[string]string{} // name → root, to catch two corpora of one name
	for _, wi := range insts {
		c, err := discover.Load(ctx, wi.Root, discover.Options{MaxFileSize: opt.MaxFileSize, Exclude: wi.Exclude, Listings: listings})
		if err != nil {
			return fail(err)
		}
		corpora = append(corpora, c)
		if other, dup := instances[c.Instance.Name]; dup {
			return fail(fmt.Errorf("corpora %s and %s both declare instance %q", other, wi.Root, c.Instance.Name))
		}
		instances[c.Instance.Name] = wi.Root
	}
	opt.Discovery.remember(roots, opt, corpora)
	return corpora, nil
}

// Prime walks the corpora rooted at roots now and remembers the result in
// opt.Discovery (nothing when it is nil), so that the first partial ingest
// of a known file does not walk them: `serve --corpus --watch` primes it
// while a warm start reads the store's snapshot, for the first watched
// edit (issue #27). It is the discovery a partial ingest would make (no
// workspace probes: those need the store's stamps); the next full
// ingest's fresh discovery replaces it. Nothing is read but the trees.
func Prime(ctx context.Context, roots []string, opt Options) error {
	if opt.Discovery == nil {
		return nil
	}
	opt.Only = nil // discoverCorpora then always walks
	corpora, err := discoverCorpora(ctx, roots, opt, nil, &discover.Listings{})
	if err != nil {
		return fmt.Errorf("prime the discovery: %w", err)
	}
	for _, c := range corpora {
		c.Close()
	}
	return nil
}
