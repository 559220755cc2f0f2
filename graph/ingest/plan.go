package ingest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/cayleygraph/quad"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/ingest/discover"
	"github.com/skillgraph/skillgraph/ingest/record"
	"github.com/skillgraph/skillgraph/ingest/tool"
	"github.com/skillgraph/skillgraph/jsonld"
)

// plan is what an ingest knows before it parses a file: the store's
// version and stamps, the corpora found, which of their files to read, the
// graphs the store holds for them and those of named files that are gone.
// planRun reads the store once for all of it; parsing reads files only.
type plan struct {
	base      int64
	corpora   []*discover.Corpus
	instances map[string]string   // name → root: the instances ingested together
	only      map[string]bool     // with Options.Only: the sources to parse (absolute paths); nil for all
	gone      []string            // graphs of files Options.Only names that are gone
	stored    map[string][]string // a full run: each instance's stored source graphs, by name
	sp        *stamper
	probes    *probes
}

// planRun plans an ingest: the store's version, its stamps (a full run
// skips the files whose stamps hold, and the workspace search the files
// known not to be declarations; a partial one reads exactly the files
// named), discovery, the files Options.Only stands for, the findings
// that need the store or every corpus (instance-replaced,
// instance-unknown) and the graphs stored for each instance.
func planRun(ctx context.Context, store *graph.Store, roots []string, opt Options) (_ *plan, err error) {
	base, err := store.Version(ctx)
	if err != nil {
		return nil, err
	}
	pl := &plan{base: base, sp: &stamper{start: time.Now(), listed: &discover.Listings{}}}
	// The store's stamps; nil, logged, when they cannot be read: stamps
	// only save reads, without them every file is read.
	readStamps := func() map[string][]byte {
		stamps, err := store.Stamps(ctx)
		if err != nil {
			logger(opt).Warn("cannot read file stamps; every file is read", "err", err)
			return nil
		}
		return stamps
	}
	if len(opt.Only) == 0 {
		pl.sp.stored = readStamps()
		pl.probes = newProbes(pl.sp, opt.MaxFileSize)
	}
	if pl.corpora, err = discoverCorpora(ctx, roots, opt, pl.probes, pl.sp.listed); err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			pl.close()
		}
	}()
	pl.instances = map[string]string{}
	for _, c := range pl.corpora {
		pl.instances[c.Instance.Name] = c.Root
	}
	if pl.only, pl.gone, err = subset(ctx, store, pl.corpora, opt.Only); err != nil {
		return nil, err
	}
	if pl.only == nil && len(opt.Only) != 0 {
		// The files named stand for the whole corpus (a declaration, a
		// new file): a full run, that skips by stamp too.
		pl.sp.stored = readStamps()
	}
	for _, c := range pl.corpora {
		c.Findings = append(c.Findings, unknownNeeds(c, pl.instances)...)
		c.Instance.Root = c.Root
		rf, err := replacedInstance(ctx, store, c)
		if err != nil {
			return nil, err
		}
		c.Findings = append(c.Findings, rf...)
	}
	if pl.only == nil {
		// A full run removes every stored graph of an instance it does
		// not read now (compare).
		pl.stored = map[string][]string{}
		for name := range pl.instances {
			i := slices.IndexFunc(pl.corpora, func(c *discover.Corpus) bool { return c.Instance.Name == name })
			labels, err := store.SourcesOf(ctx, pl.corpora[i].Instance.DocIRI())
			if err != nil {
				return nil, err
			}
			pl.stored[name] = labels
		}
	}
	return pl, nil
}

// close releases the corpora's roots.
func (pl *plan) close() {
	for _, c := range pl.corpora {
		c.Close()
	}
}

// result is the run's counts, before it is written.
func (pl *plan) result(units []*unit, d *comparison) Result {
	res := Result{Files: len(units), Skipped: d.skipped, NotRead: d.notRead, stamps: d.stamps}
	if pl.only != nil {
		res.Files = 0
		for _, c := range pl.corpora {
			res.Files += len(c.Sources)
		}
	}
	for _, c := range pl.corpora {
		res.Docs = append(res.Docs, c.Instance.DocIRI())
	}
	slices.Sort(res.Docs)
	res.Docs = slices.Compact(res.Docs)
	for _, u := range d.changed {
		res.Changed++
		res.Quads += u.nquads
	}
	res.Removed = len(d.removed)
	res.probes = pl.probes.changed()
	return res
}

// isContext reports whether other files' parses depend on source s: the
// instance declaration and the type vocabulary are every parse's context
// (the context salt), a Tool module is read by the modules importing it.
// A partial ingest naming one is a full run (subset), and never reuses a
// remembered discovery (knownSource).
func isContext(s discover.Source) bool {
	return s.Kind == discover.KindDeclaration || s.Kind == discover.KindVocabulary || tool.IsModule(s.Path)
}

// subset maps Options.Only to the sources to parse (by absolute path) and
// the stored graphs of named files that are gone; nil, nil when the run
// must read everything.
func subset(ctx context.Context, store *graph.Store, corpora []*discover.Corpus, paths []string) (map[string]bool, []string, error) {
	if len(paths) == 0 {
		return nil, nil, nil
	}
	only := map[string]bool{}
	var gone []string
	for _, p := range paths {
		p = absPath(p)
		found := false
		for _, c := range corpora {
			s, ok := sourceAt(c, p)
			if !ok {
				continue
			}
			if isContext(s) {
				return nil, nil, nil
			}
			only[s.Abs] = true
			found = true
		}
		if found {
			continue
		}
		if _, err := os.Lstat(p); err == nil {
			return nil, nil, nil // exists but is no source: a manifest, a contract named from a skill, …
		}
		// Gone: its graph, if one is stored, is removed; anything else
		// (a folder, a file never read) needs a full read to be sure.
		stored := false
		for _, c := range corpora {
			rel, err := filepath.Rel(absPath(c.Root), p)
			if err != nil || strings.HasPrefix(rel, "..") {
				continue
			}
			label := jsonld.SourceIRI(c.Instance.DocIRI(), filepath.ToSlash(rel))
			labels, err := store.SourcesOf(ctx, c.Instance.DocIRI())
			if err != nil {
				return nil, nil, err
			}
			if slices.Contains(labels, label) {
				gone = append(gone, label)
				stored = true
			}
		}
		if !stored {
			return nil, nil, nil
		}
	}
	return only, gone, nil
}

// sourceAt is the source of c at the absolute path p, if it is one.
func sourceAt(c *discover.Corpus, p string) (discover.Source, bool) {
	rel, err := filepath.Rel(c.Root, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return discover.Source{}, false
	}
	return c.Source(filepath.ToSlash(rel))
}

// absPath makes paths from the watcher and from discovery comparable.
func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return filepath.Clean(p)
}

// unknownNeeds is instance-unknown for each `needs` of an instance that
// names no instance ingested with it (SPEC §1.1): the corpora given and
// every instance of their workspaces.
func unknownNeeds(c *discover.Corpus, instances map[string]string) []record.Finding {
	var out []record.Finding
	for _, n := range c.Instance.Needs {
		if _, ok := instances[n]; ok {
			continue
		}
		line := 1
		if d := c.DeclarationData; d != nil {
			at := max(0, bytes.Index(d, []byte(`"needs"`)))
			line = lineOfString(d[at:], n) + bytes.Count(d[:at], []byte("\n"))
		}
		out = append(out, record.Finding{Code: record.CodeInstanceUnknown, Severity: record.SeverityOf(record.CodeInstanceUnknown),
			File: c.Instance.File, Line: line, Subject: n,
			Message: fmt.Sprintf("instance %s needs %q, which names no instance ingested with it (the workspace and the --corpus flags)", c.Instance.Name, n)})
	}
	return out
}

// replacedInstance reports a corpus that declares the name (and iriBase)
// of an instance the store holds from another corpus root, and that keeps
// fewer than half of its files (issue #16.7): its ingest replaces that
// instance's graphs, which must not pass in silence. A corpus moved to
// another root keeps its files and is not reported. The finding lives in
// the declaration's graph of this corpus.
func replacedInstance(ctx context.Context, store *graph.Store, c *discover.Corpus) ([]record.Finding, error) {
	doc := c.Instance.DocIRI()
	qs, err := store.Subject(ctx, doc)
	if err != nil {
		return nil, err
	}
	prev := ""
	for _, q := range qs {
		if q.Predicate == quad.IRI(jsonld.NS+"corpusRoot") {
			prev = fmt.Sprint(q.Object.Native())
		}
	}
	if prev == "" || prev == c.Root {
		return nil, nil
	}
	labels, err := store.SourcesOf(ctx, doc)
	if err != nil {
		return nil, err
	}
	// A corpus moved or copied to another root keeps most of its files: it
	// is the same corpus. Another corpus of that name keeps few of them.
	have := map[string]bool{}
	for _, src := range c.Sources {
		have[jsonld.SourceIRI(doc, src.Path)] = true
	}
	kept, of := 0, 0
	for _, l := range labels {
		if l == jsonld.SourceIRI(doc, ".") || l == jsonld.SourceIRI(doc, c.Instance.File) {
			continue // every corpus has a declaration graph
		}
		of++
		if have[l] {
			kept++
		}
	}
	if of == 0 || 2*kept >= of {
		return nil, nil
	}
	file := c.Instance.File
	if file == "" {
		file = "."
	}
	line := 1
	if c.DeclarationData != nil {
		line = lineOfString(c.DeclarationData, c.Instance.Name)
	}
	return []record.Finding{{Code: record.CodeInstanceReplaced, Severity: record.SeverityOf(record.CodeInstanceReplaced),
		File: file, Line: line, Subject: doc,
		Message: fmt.Sprintf("instance %q (%s) in the store was ingested from %s; this corpus (%s) declares the same name and replaces its source graphs (%d of %d files are not in this corpus)",
			c.Instance.Name, doc, prev, c.Root, of-kept, of)}}, nil
}

// lineOfString is the 1-based line of the first JSON string s in data.
func lineOfString(data []byte, s string) int {
	q, _ := json.Marshal(s)
	if i := bytes.Index(data, q); i >= 0 {
		return bytes.Count(data[:i], []byte("\n")) + 1
	}
	return 1
}
