// Package ingest drives the first half of the data flow: it discovers each
// corpus, parses every file into records, turns each file into one JSON-LD
// document and its quads, and writes the changed named graphs to the store
// (files → records → JSON-LD → quads → store).
package ingest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/cayleygraph/quad"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/ingest/contract"
	"github.com/skillgraph/skillgraph/ingest/discover"
	"github.com/skillgraph/skillgraph/ingest/format"
	"github.com/skillgraph/skillgraph/ingest/record"
	"github.com/skillgraph/skillgraph/ingest/tool"
	"github.com/skillgraph/skillgraph/ingest/tsmodule"
	"github.com/skillgraph/skillgraph/ingest/vocab"
	"github.com/skillgraph/skillgraph/jsonld"
)

// parserVersion salts every file digest: bump it when a parser's output
// changes so that unchanged files are re-ingested once.
const parserVersion = "7"

// Options tune an ingest run.
type Options struct {
	MaxFileSize int64
	Workers     int // 0: one per CPU
	// Progress, if set, is called after each file is converted.
	Progress func(done, total int)
	Logger   *slog.Logger
	// Only, if set, names the files that changed (absolute paths): only
	// they are read and parsed, every other source is kept as stored, and
	// a named file that is gone loses its graph. When one of them is part
	// of other files' parse context (the declaration, the vocabulary, a
	// package manifest, a module another may import) or is not a source,
	// the run reads everything as if Only were unset. For `serve --watch`.
	Only []string
	// Discovery, if set, remembers each full discovery so that a later
	// partial ingest of known files does not walk the trees (see
	// Discovery). For `serve --watch`.
	Discovery *Discovery
}

// Result summarises one ingest run.
type Result struct {
	Version int64
	Files   int // source graphs in the corpora
	Changed int // graphs written
	Skipped int // unchanged graphs (same digest, or not read: NotRead)
	// NotRead counts the unchanged files not even read: their size and
	// modification time, and those of what their parse read, were those
	// recorded at their last read (SPEC §3.3).
	NotRead  int
	Removed  int // graphs of files that are gone
	Quads    int // quads in the changed graphs
	Duration time.Duration
	// Changes are the graph changes committed, for updating a snapshot
	// without reading the store back. Nil after a first ingest into an
	// empty bbolt store: that write drops each change's quads once they
	// are written (graph.FirstWriter), so nothing holds them all; read
	// the store (its checkpoint) instead.
	Changes []graph.Change
	// Docs are the document IRIs of the instances the run ingested,
	// sorted. The graphs of an instance that is not among them are kept
	// (corpora ingested apart share a store); a caller bringing one store
	// from one state of a corpus to the next (history) removes those of an
	// instance the corpus no longer declares.
	Docs []string

	stamps map[string][]byte // stamps of unchanged graphs to record (see Prepared.Apply)
	probes map[string][]byte // workspace records to write (see probes)
}

// unit is one source graph to convert and maybe write.
type unit struct {
	in     record.Instance
	file   record.File
	meta   jsonld.SourceMeta
	digest string
	quads  []quad.Quad
	nquads int // len(quads) when converted (quads are dropped once written)
	err    error
	// skip: the file's stamp held, it was not read and its graph is kept.
	skip  bool
	stamp []byte   // the stamp to store with the graph (nil: none)
	refs  []string // the contracts its skills name
}

// Run ingests the corpora rooted at roots into store. A run that fails
// before writing leaves the store untouched. It is Prepare then Apply.
func Run(ctx context.Context, store *graph.Store, roots []string, opt Options) (Result, error) {
	p, err := prepareRun(ctx, store, roots, opt, true)
	if err != nil {
		return Result{}, err
	}
	return p.Apply(ctx, store)
}

// Prepared is an ingest read, parsed and converted but not yet written:
// its Changes are exactly what Apply commits (and only until Apply: see
// Result.Changes). `serve` builds the snapshot
// of a cold start from them while the store write runs (answers before
// durability, docs/decisions.md).
type Prepared struct {
	// Base is the store's graph version when the ingest was prepared: the
	// one its changes are relative to. Apply commits Base+1 unless another
	// writer (a shared database) committed in between.
	Base    int64
	res     Result // the counts; Apply sets Version, Duration and Changes
	changes []graph.Change
	start   time.Time
	log     *slog.Logger
	// first, if set, holds the first ingest into an empty store, its
	// quads written while they were converted and then dropped from
	// changes (Run only): Apply commits it.
	first *graph.FirstWriter
}

// Changes are the graph changes Apply will commit (nil when nothing
// changed). The caller must not modify them.
func (p *Prepared) Changes() []graph.Change { return p.changes }

// Prepare does everything of an ingest but the store write: discovery,
// parsing, the digest comparison with the store, the JSON-LD conversion
// of the changed files and the list of graphs to remove. The store is
// only read.
func Prepare(ctx context.Context, store *graph.Store, roots []string, opt Options) (*Prepared, error) {
	return prepareRun(ctx, store, roots, opt, false)
}

// prepareRun is Prepare; with stream set, the first ingest into an empty
// bbolt store is written while it is converted (see graph.FirstWriter),
// and the store stays locked until Apply.
func prepareRun(ctx context.Context, store *graph.Store, roots []string, opt Options, stream bool) (*Prepared, error) {
	start := time.Now()
	log := opt.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	base, err := store.Version(ctx)
	if err != nil {
		return nil, err
	}
	res, first, err := prepare(ctx, store, roots, opt, stream)
	if err != nil {
		return nil, err
	}
	changes := res.Changes
	res.Changes = nil // set by Apply once they are committed
	return &Prepared{Base: base, res: res, changes: changes, start: start, log: log, first: first}, nil
}

// Apply writes a prepared ingest to the store (one graph.Apply, nothing
// when no graph changed) and returns the run's result.
func (p *Prepared) Apply(ctx context.Context, store *graph.Store) (Result, error) {
	res := p.res
	res.stamps, res.probes = nil, nil
	if len(p.changes) == 0 {
		p.putStamps(ctx, store)
		// Nothing to write, but a checkpoint left stale (by an older
		// skillgraph's format, or damage) is rebuilt, so the next start
		// is warm again; failing that only costs that start a full read.
		if rebuilt, err := store.RefreshCheckpoint(ctx); err != nil {
			p.log.Warn("checkpoint not rebuilt", "err", err)
		} else if rebuilt {
			p.log.Info("checkpoint rebuilt")
		}
		v, err := store.Version(ctx)
		res.Version, res.Duration = v, time.Since(p.start)
		return res, err
	}
	var v int64
	var err error
	streamed := p.first != nil
	if streamed {
		v, err = p.first.Commit(ctx)
		p.first = nil
	} else {
		var w *graph.FirstWriter
		if w, err = store.BeginFirst(ctx); err == nil && w != nil {
			streamed = true
			v, err = p.writeFirst(ctx, w)
		} else if err == nil {
			v, err = store.Apply(ctx, p.changes)
		}
	}
	if err != nil {
		return Result{}, fmt.Errorf("store %s: %w", graphsOf(p.changes), err)
	}
	p.putStamps(ctx, store)
	res.Version, res.Duration = v, time.Since(p.start)
	if !streamed {
		res.Changes = p.changes
	}
	p.log.Info("ingest committed", "version", v, "files", res.Files, "changed", res.Changed,
		"skipped", res.Skipped, "removed", res.Removed, "quads", res.Quads, "duration", res.Duration)
	return res, nil
}

// writeFirst writes the changes of a prepared first ingest through w.
// Every change is first packed (graph.Pack) and its quads dropped: the
// caller (`serve`'s cold start) has built its early snapshot from them,
// and holding a quarter of their memory instead of all of them for the
// whole write keeps that snapshot, the store's write buffers and the
// changes within bounds. They are then written a window at a time, each
// decoded back from its block. The version stays 0 until Commit.
func (p *Prepared) writeFirst(ctx context.Context, w *graph.FirstWriter) (int64, error) {
	packed := make([]graph.Packed, len(p.changes))
	for i := range p.changes {
		var err error
		if packed[i], err = graph.Pack(p.changes[i]); err != nil {
			w.Abort()
			return 0, err
		}
		p.changes[i].Quads = nil
	}
	for part := range slices.Chunk(packed, streamWindow) {
		if err := w.AddPacked(ctx, part); err != nil {
			w.Abort()
			return 0, err
		}
	}
	return w.Commit(ctx)
}

// logger is opt's logger, or one that discards.
func logger(opt Options) *slog.Logger {
	if opt.Logger != nil {
		return opt.Logger
	}
	return slog.New(slog.DiscardHandler)
}

// putStamps records the stamps of the files read and found unchanged. It
// only saves reads of later runs: a failure is logged, and those files are
// read again next time.
func (p *Prepared) putStamps(ctx context.Context, store *graph.Store) {
	stamps := p.res.stamps
	if len(p.res.probes) > 0 {
		stamps = maps.Clone(stamps)
		if stamps == nil {
			stamps = map[string][]byte{}
		}
		maps.Copy(stamps, p.res.probes)
	}
	if err := store.PutStamps(ctx, stamps); err != nil {
		p.log.Warn("cannot record file stamps; unchanged files are read again at the next ingest", "err", err)
	}
}

// readStamps is the store's stamps; nil, logged, when they cannot be
// read: stamps only save reads, without them every file is read.
func readStamps(ctx context.Context, store *graph.Store, opt Options) map[string][]byte {
	stamps, err := store.Stamps(ctx)
	if err != nil {
		logger(opt).Warn("cannot read file stamps; every file is read", "err", err)
		return nil
	}
	return stamps
}

// prepare is Prepare without the bookkeeping: its result's Changes are
// the changes to commit. With stream set and an empty bbolt store, the
// changes are already being written: the FirstWriter returned commits them.
func prepare(ctx context.Context, store *graph.Store, roots []string, opt Options, stream bool) (Result, *graph.FirstWriter, error) {
	res, first, err := prepareUnits(ctx, store, roots, opt, stream)
	if err != nil && first != nil {
		first.Abort() // the version stays 0: nothing is served
		first = nil
	}
	return res, first, err
}

func prepareUnits(ctx context.Context, store *graph.Store, roots []string, opt Options, stream bool) (_ Result, first *graph.FirstWriter, _ error) {
	var units []*unit
	sp := &stamper{start: time.Now(), listed: &discover.Listings{}}
	var pr *probes
	if len(opt.Only) == 0 {
		// A full run skips the files whose stamps hold, and the workspace
		// search the files known not to be declarations; a partial one
		// reads exactly the files named.
		sp.stored = readStamps(ctx, store, opt)
		pr = newProbes(sp, opt.MaxFileSize)
	}
	corpora, err := discoverCorpora(ctx, roots, opt, pr, sp.listed)
	if err != nil {
		return Result{}, nil, err
	}
	defer func() {
		for _, c := range corpora {
			c.Close()
		}
	}()
	instances := map[string]string{} // name → root: the instances ingested together
	for _, c := range corpora {
		instances[c.Instance.Name] = c.Root
	}
	only, gone, err := subset(ctx, store, corpora, opt.Only)
	if err != nil {
		return Result{}, nil, err
	}
	if only == nil && len(opt.Only) != 0 {
		// The files named stand for the whole corpus (a declaration, a
		// new file): a full run, that skips by stamp too.
		sp.stored = readStamps(ctx, store, opt)
	}
	files := 0
	for _, c := range corpora {
		c.Findings = append(c.Findings, unknownNeeds(c, instances)...)
		c.Instance.Root = c.Root
		rf, err := replacedInstance(ctx, store, c)
		if err != nil {
			return Result{}, nil, err
		}
		c.Findings = append(c.Findings, rf...)
		us, err := parseSources(ctx, c, opt, only, sp)
		if err != nil {
			return Result{}, nil, err
		}
		units = append(units, us...)
		files += len(c.Sources)
	}
	res := Result{Files: len(units)}
	for _, c := range corpora {
		res.Docs = append(res.Docs, c.Instance.DocIRI())
	}
	slices.Sort(res.Docs)
	res.Docs = slices.Compact(res.Docs)
	var changed []*unit
	keep := map[string]bool{}
	if only != nil {
		res.Files = files
	}
	for _, u := range units {
		label := jsonld.SourceIRI(u.in.DocIRI(), u.file.Path)
		keep[label] = true
		if u.skip {
			res.Skipped++
			res.NotRead++
			continue
		}
		same, err := store.HasDigest(ctx, label, u.digest)
		if err != nil {
			return Result{}, nil, err
		}
		if same {
			res.Skipped++
			// Read, and current: its stamp is recorded (or refreshed after
			// a touch) so that the next run need not read it.
			if u.stamp != nil && !sameStamp(u.stamp, sp.stored[label]) {
				if res.stamps == nil {
					res.stamps = map[string][]byte{}
				}
				res.stamps[label] = u.stamp
			}
			continue
		}
		changed = append(changed, u)
	}
	// Graphs of files that disappeared from an ingested instance: those
	// named in Only, or in a full run every stored one not read now. Read
	// before the conversion, which may hold the store (stream).
	var removed []graph.Change
	for _, l := range gone {
		removed = append(removed, graph.Change{Graph: l, Delete: true})
	}
	for name := range instances {
		if only != nil {
			break
		}
		var doc string
		for _, u := range units {
			if u.in.Name == name {
				doc = u.in.DocIRI()
				break
			}
		}
		labels, err := store.SourcesOf(ctx, doc)
		if err != nil {
			return Result{}, nil, err
		}
		for _, l := range labels {
			if !keep[l] {
				removed = append(removed, graph.Change{Graph: l, Delete: true})
			}
		}
	}
	capRunFindings(changed)
	// Only changed files are converted: json-gold is the expensive step.
	if stream && only == nil && len(changed) > 0 && len(removed) == 0 && len(res.stamps) == 0 {
		// Every file changed and none is gone: the store may be empty,
		// and then its first ingest is written while it is converted.
		if first, err = store.BeginFirst(ctx); err != nil {
			return Result{}, nil, err
		}
	}
	if first != nil {
		err = convertStreaming(ctx, changed, opt, first)
	} else {
		err = convert(ctx, changed, opt, 0, nil)
	}
	if err != nil {
		return Result{}, first, err
	}
	var changes []graph.Change
	for _, u := range changed {
		changes = append(changes, u.change())
		res.Changed++
		res.Quads += u.nquads
	}
	changes = append(changes, removed...)
	res.Removed = len(removed)
	res.Changes = changes
	res.probes = pr.changed()
	return res, first, nil
}

// change is the graph change of a converted unit.
func (u *unit) change() graph.Change {
	return graph.Change{Graph: jsonld.SourceIRI(u.in.DocIRI(), u.file.Path), Quads: u.quads, Stamp: u.stamp}
}

// streamWindow is the number of units convertStreaming converts, and
// then writes, together: written in the order of units, as Apply does, a
// package's graphs (which share nodes) land in the same Cayley calls;
// written in the order of the conversion batches, which take units far
// apart, they cost Cayley a quarter more CPU (measured at 10k).
var streamWindow = 32 * convertBatch // a variable for tests

// streamWritten, when set (tests), is called after each window is handed
// to the store write.
var streamWritten func(*graph.FirstWriter)

// convertStreaming is convert with each window of units handed to first
// as soon as it is converted, in the order of units, on a goroutine of
// its own (the store write) while the conversion goes on. A write
// failure stops the conversion; a conversion failure or a cancel stops
// the write (the caller aborts it).
func convertStreaming(ctx context.Context, units []*unit, opt Options, first *graph.FirstWriter) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	index := make(map[*unit]int, len(units))
	for i, u := range units {
		index[u] = i
	}
	windows := (len(units) + streamWindow - 1) / streamWindow
	// Room for every batch: a worker never waits for the writer.
	ready := make(chan []*unit, len(units)/convertBatch+windows+convertWorkers(opt)+1)
	var werr error
	written := make(chan struct{})
	go func() {
		defer close(written)
		left := make([]int, windows) // units of each window not converted yet
		for w := range left {
			left[w] = min(streamWindow, len(units)-w*streamWindow)
		}
		next := 0 // the first window not written
		for batch := range ready {
			if werr != nil {
				continue
			}
			for _, u := range batch {
				left[index[u]/streamWindow]--
			}
			for ; next < windows && left[next] == 0; next++ {
				win := units[next*streamWindow : min((next+1)*streamWindow, len(units))]
				cs := make([]graph.Change, 0, len(win))
				for _, u := range win {
					if u.err == nil {
						cs = append(cs, u.change())
					}
				}
				if err := first.Add(ctx, cs); err != nil {
					werr = fmt.Errorf("store %s: %w", graphsOf(cs), err)
					cancel(werr)
					break
				}
				for _, u := range win {
					u.quads = nil // written: Commit needs only what Add kept
				}
				if streamWritten != nil {
					streamWritten(first)
				}
			}
		}
	}()
	err := convert(ctx, units, opt, streamWindow, func(batch []*unit) { ready <- batch })
	close(ready)
	<-written
	if werr != nil {
		return werr
	}
	return err
}

// graphsOf names the graphs of a failed commit (the first few and how
// many), so a store error says which files it concerns.
func graphsOf(changes []graph.Change) string {
	const shown = 3
	var names []string
	for i, c := range changes {
		if i == shown {
			names = append(names, fmt.Sprintf("and %d more", len(changes)-shown))
			break
		}
		names = append(names, c.Graph)
	}
	return fmt.Sprintf("%d graphs (%s)", len(changes), strings.Join(names, ", "))
}

// convertWorkers is the number of goroutines convert runs: opt.Workers,
// or one per CPU.
func convertWorkers(opt Options) int {
	if opt.Workers > 0 {
		return opt.Workers
	}
	return runtime.NumCPU()
}

// convertBatch is the number of documents of one json-gold RDF step.
const convertBatch = 32

// toQuadsBatch is jsonld.ToQuadsBatch, a variable so that tests can make a
// conversion fail where json-gold's own failures surface (Conversion.Err):
// no corpus file the parsers accept is known to make it fail.
var toQuadsBatch = jsonld.ToQuadsBatch

// convert turns each unit into quads on all cores, in batches
// (jsonld.ToQuadsBatch): json-gold costs about a millisecond per document.
//
// done, if set, is called with each batch once it is converted, from the
// worker that converted it.
//
// window, if positive, converts units in windows of that many, one after
// the other, each window's batches taken from it alone (see below).
func convert(ctx context.Context, units []*unit, opt Options, window int, done func([]*unit)) error {
	workers := convertWorkers(opt)
	work := make(chan []*unit)
	var wg sync.WaitGroup
	var mu sync.Mutex
	converted := 0
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for batch := range work {
				cs := make([]jsonld.Conversion, len(batch))
				for i, u := range batch {
					cs[i] = jsonld.Conversion{Doc: jsonld.Document(u.in, u.file, u.meta), Graph: jsonld.SourceIRI(u.in.DocIRI(), u.file.Path)}
				}
				toQuadsBatch(cs)
				for i, u := range batch {
					u.quads, u.err = cs[i].Quads, cs[i].Err
					u.nquads = len(u.quads)
				}
				if done != nil {
					done(batch)
				}
				if opt.Progress != nil {
					mu.Lock()
					converted += len(batch)
					opt.Progress(converted, len(units))
					mu.Unlock()
				}
			}
		}()
	}
	// A batch is converted with one json-gold RDF step where its
	// documents share no subject; a package's skills (which share the
	// package node) sit together in units, so a batch takes units far
	// apart: batch b is units b, b+n, b+2n, … of n batches (of the
	// window, when one is given).
	if window <= 0 {
		window = len(units)
	}
dispatch:
	for ws := 0; ws < len(units); ws += window {
		win := units[ws:min(ws+window, len(units))]
		n := (len(win) + convertBatch - 1) / convertBatch
		for b := range n {
			if ctx.Err() != nil {
				break dispatch
			}
			var batch []*unit
			for i := b; i < len(win); i += n {
				batch = append(batch, win[i])
			}
			work <- batch
		}
	}
	close(work)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	var errs []error
	for _, u := range units {
		if u.err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", u.file.Path, u.err))
		}
	}
	return errors.Join(errs...)
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

// parseCorpus reads and parses every source of one corpus, with no
// stamps to skip by (what the tests convert).
func parseCorpus(ctx context.Context, c *discover.Corpus, opt Options) ([]*unit, error) {
	return parseSources(ctx, c, opt, nil, &stamper{start: time.Now()})
}

// parseSources parses the corpus's sources, or with only set just those
// (and the declaration).
func parseSources(ctx context.Context, c *discover.Corpus, opt Options, only map[string]bool, sp *stamper) ([]*unit, error) {
	in := c.Instance
	// The context salt: a parse depends on the declaration and the
	// vocabulary as well as on the file itself.
	salt := sha256.New()
	salt.Write([]byte(parserVersion))
	salt.Write(c.DeclarationData)

	voc := vocab.Default(in.CanonicalURL)
	var vocFindings []record.Finding
	for _, s := range c.Sources {
		if s.Kind != discover.KindVocabulary {
			continue
		}
		data, err := c.ReadFile(s.Path)
		if err != nil {
			continue // the vocabulary's own unit reports the read error
		}
		if _, bad := discover.NotText(s.Path, s.Kind, data); bad {
			continue // … and that it is not text
		}
		salt.Write(data)
		var v *vocab.Vocabulary
		if vocab.IsModule(s.Path) {
			// A Zod module may import sibling modules: they are part of the
			// vocabulary, so of every parse's context.
			var read readLog
			v, err = vocab.ParseModule(s.Path, data, in.CanonicalURL, read.loader(c, nil, sp))
			for _, r := range read {
				salt.Write([]byte(r))
			}
		} else {
			v, err = vocab.Parse(data, in.CanonicalURL)
		}
		if err != nil {
			vocFindings = append(vocFindings, record.Finding{Code: record.CodeParseError, Severity: record.SeverityOf(record.CodeParseError),
				Message: fmt.Sprintf("type vocabulary: %v; the built-in vocabulary is used", err), File: s.Path, Line: 1})
			continue
		}
		voc = v
	}
	saltHex := hex.EncodeToString(salt.Sum(nil))
	// A stamp also holds only under the same size cap: a file read under a
	// larger one may now be file-too-large.
	stampSalt := fmt.Sprintf("%s/%d", saltHex, opt.MaxFileSize)

	exists := func(rel string) bool {
		if _, ok := c.Source(rel); ok {
			return true
		}
		return c.Exists(rel)
	}
	var units []*unit
	for _, s := range sourcesToParse(c, only) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		found := s // as discovery found it (before sniffing)
		label := jsonld.SourceIRI(in.DocIRI(), s.Path)
		if s.Kind != discover.KindDeclaration && s.Kind != discover.KindVocabulary {
			if old, ok := sp.holds(c, label, s, stampSalt, exists); ok {
				units = append(units, &unit{in: in, file: record.File{Path: s.Path, Parser: s.Kind}, skip: true, refs: old.Refs})
				continue
			}
		}
		st, _ := statFile(c, s.Path) // before the read: see statFile
		var deps depLog
		data, err := c.ReadFile(s.Path)
		if err == nil && s.Kind == discover.KindAny {
			if s.Kind = discover.Sniff(data); s.Kind == "" {
				continue // not a format skillgraph reads
			}
		}
		var f record.File
		unitSalt := saltHex
		switch {
		case err != nil:
			f = record.File{Path: s.Path, Parser: s.Kind, Findings: []record.Finding{readFinding(s.Path, err)}}
		case nonText(s, data):
			nt, _ := discover.NotText(s.Path, s.Kind, data)
			f = record.File{Path: s.Path, Parser: s.Kind, Findings: []record.Finding{nt}}
		case s.Kind == discover.KindTool && tool.IsModule(s.Path):
			// A Tool module's Tools may come from the sibling modules it
			// imports: their contents are part of its digest.
			var read readLog
			f = tool.ParseModule(s.Path, data, voc, read.loader(c, &deps, sp))
			unitSalt = extendSalt(saltHex, read)
		default:
			// What a parse asked about other files (a hard skill's
			// includes) is part of its digest: adding or removing an
			// included file re-reads the skill.
			var asked readLog
			probe := func(rel string) bool {
				ok := exists(rel)
				asked = append(asked, fmt.Sprintf("%q=%t", rel, ok))
				deps.ask(rel, ok)
				return ok
			}
			f = parseOne(s, data, in, voc, probe)
			if s.Kind == discover.KindSkill {
				// The package discovery gave the skill (its folder's
				// package-manifest.json) is in its ids.
				asked = append(asked, fmt.Sprintf("package=%q", s.StampKey()))
			}
			unitSalt = extendSalt(saltHex, asked)
		}
		if s.Kind == discover.KindDeclaration {
			f.Findings = append(f.Findings, c.Findings...)
		}
		if s.Kind == discover.KindVocabulary {
			f.Findings = append(f.Findings, vocFindings...)
		}
		u := newUnit(in, f, data, unitSalt)
		u.refs = contractRefs(f)
		if err == nil && !nonText(s, data) && s.Kind != discover.KindDeclaration && s.Kind != discover.KindVocabulary {
			u.stamp = sp.make(st, found, stampSalt, &deps, u.refs)
		}
		units = append(units, u)
	}
	if c.DeclarationData == nil {
		// Without a declaration, the instance and the discovery findings
		// live in a graph of their own.
		f := record.File{Path: ".", Parser: format.KindDeclaration, Findings: c.Findings}
		b, _ := json.Marshal(c.Findings)
		units = append(units, newUnit(in, f, b, saltHex))
	}
	// Contracts named by skills outside the declared schema directories
	// (of the skills parsed now: the others' are kept as stored).
	// A skill skipped by its stamp names them from the stamp.
	var extra []string
	have := map[string]bool{}
	for _, u := range units {
		for _, ref := range u.refs {
			if strings.Contains(ref, "://") || have[ref] {
				continue
			}
			if _, ok := c.Source(ref); ok {
				continue
			}
			p := path.Clean(ref)
			if strings.HasPrefix(p, "../") || p == ".." || strings.HasPrefix(p, "/") {
				continue
			}
			have[ref] = true
			extra = append(extra, ref)
		}
	}
	sort.Strings(extra)
	for _, ref := range extra {
		s := discover.Source{Path: ref, Kind: discover.KindContract}
		if _, ok := sp.holds(c, jsonld.SourceIRI(in.DocIRI(), ref), s, stampSalt, exists); ok {
			units = append(units, &unit{in: in, file: record.File{Path: ref, Parser: s.Kind}, skip: true})
			continue
		}
		st, _ := statFile(c, ref)
		data, err := c.ReadFile(ref)
		if err != nil {
			continue // the skill's contract-unreadable finding says it
		}
		f := contract.Parse(ref, data)
		u := newUnit(in, f, data, saltHex)
		if !nonText(s, data) {
			u.stamp = sp.make(st, s, stampSalt, &depLog{}, nil)
		}
		units = append(units, u)
	}
	return units, nil
}

// contractRefs are the contracts a file's skills name (input, output), in
// order, once each.
func contractRefs(f record.File) []string {
	var out []string
	for _, sk := range f.Skills {
		for _, ref := range []string{sk.Input, sk.Output} {
			if ref != "" && !slices.Contains(out, ref) {
				out = append(out, ref)
			}
		}
	}
	return out
}

// sourcesToParse is every source of c, or with only set (absolute paths)
// the declaration and the sources named, in path order: unchanged sources
// are kept as stored, and the declaration carries the discovery findings,
// always current.
func sourcesToParse(c *discover.Corpus, only map[string]bool) []discover.Source {
	if only == nil {
		return c.Sources
	}
	var out []discover.Source
	if rel := c.Instance.File; rel != "" {
		if s, ok := c.Source(rel); ok && s.Kind == discover.KindDeclaration {
			out = append(out, s)
		}
	}
	for p := range only {
		if s, ok := sourceAt(c, p); ok && s.Kind != discover.KindDeclaration {
			out = append(out, s)
		}
	}
	slices.SortFunc(out, func(a, b discover.Source) int { return strings.Compare(a.Path, b.Path) })
	return out
}

func newUnit(in record.Instance, f record.File, data []byte, salt string) *unit {
	h := sha256.Sum256(data)
	d := sha256.New()
	d.Write(h[:])
	d.Write([]byte(salt))
	if f.Parser == format.KindDeclaration {
		d.Write([]byte(in.Root))         // a moved corpus rewrites its corpusRoot
		b, _ := json.Marshal(f.Findings) // discovery findings change without the file
		d.Write(b)
	}
	digest := hex.EncodeToString(d.Sum(nil))
	meta := jsonld.SourceMeta{Path: f.Path, SHA256: hex.EncodeToString(h[:]), Digest: digest, Size: int64(len(data)), Parser: f.Parser}
	return &unit{in: in, file: f, meta: meta, digest: digest}
}

func readFinding(rel string, err error) record.Finding { return discover.ReadError(rel, err) }

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

// nonText reports whether a source is not text (SPEC §1.2).
func nonText(s discover.Source, data []byte) bool {
	_, bad := discover.NotText(s.Path, s.Kind, data)
	return bad
}

// readLog records what a parse learnt about files other than its own: a
// sibling module's content hash, whether an included file exists. It is
// part of the parse's digest, so a change there re-reads the file.
type readLog []string

// loader reads sibling modules through the corpus root (size cap,
// confinement) and logs each one's content hash as it reads, so nothing is
// read twice for the digest.
//
// deps, if set, records for the parse's stamp each module's size and
// mtime, taken before it is read, or that it does not exist.
func (l *readLog) loader(c *discover.Corpus, deps *depLog, sp *stamper) tsmodule.Loader {
	return func(rel string) ([]byte, error) {
		if deps != nil {
			if _, err := statFile(c, rel); err != nil {
				deps.ask(rel, false)
			} else {
				deps.read(c, rel, sp)
			}
		}
		b, err := c.ReadFile(rel)
		if err == nil {
			sum := sha256.Sum256(b)
			*l = append(*l, rel+"="+hex.EncodeToString(sum[:]))
		}
		return b, err
	}
}

// extendSalt extends a parse context with what the parse read elsewhere.
func extendSalt(salt string, read readLog) string {
	if len(read) == 0 {
		return salt
	}
	h := sha256.New()
	h.Write([]byte(salt))
	for _, r := range read {
		h.Write([]byte(r))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// parseOne runs the parser of a source's kind (the format table's).
func parseOne(s discover.Source, data []byte, in record.Instance, voc *vocab.Vocabulary, exists func(string) bool) record.File {
	return format.Parse(s.Kind, format.Input{Path: s.Path, Data: data, Package: s.Package, Plugin: s.Plugin, Hosts: s.Hosts,
		Dir: s.Dir, Secondary: s.Secondary, Resources: s.Resources, Instance: in, Vocab: voc, Exists: exists})
}
