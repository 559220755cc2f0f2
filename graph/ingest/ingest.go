// Package ingest drives the first half of the data flow: it discovers each
// corpus, parses every file into records, turns each file into one JSON-LD
// document and its quads, and writes the changed named graphs to the store
// (files → records → JSON-LD → quads → store).
package ingest

import (
	"context"
	"log/slog"
	"time"

	"github.com/cayleygraph/quad"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/ingest/record"
	"github.com/skillgraph/skillgraph/jsonld"
)

// parserVersion salts every file digest: bump it when a parser's output
// changes so that unchanged files are re-ingested once.
const parserVersion = "12"

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
	in    *record.Instance // its corpus's, shared
	path  string           // the file's, as in its record (kept when its body goes)
	*body                  // nil once written by a streamed first ingest
	// nquads is len(quads) when converted (quads are dropped once written).
	nquads int
	err    error
	// skip: the file's stamp held, it was not read and its graph is kept.
	skip  bool
	stamp []byte   // the stamp to store with the graph (nil: none)
	refs  []string // the contracts its skills name
}

// body is what a unit holds only until its graph is written: the records,
// the source's metadata, the digest and the quads. A streamed first
// ingest keeps every file's unit to its end (counts, contract names,
// errors), and the body was most of the ≈ 600 bytes each: 120 MB at 100k
// skills, at the write's peak.
type body struct {
	file   record.File
	meta   jsonld.SourceMeta
	digest string
	quads  []quad.Quad
}

// newSkipUnit is the unit of a file whose stored graph is kept.
func newSkipUnit(in *record.Instance, path, parser string, refs []string) *unit {
	return &unit{in: in, path: path, body: &body{file: record.File{Path: path, Parser: parser}}, skip: true, refs: refs}
}

// Run ingests the corpora rooted at roots into store. A run that fails
// before writing leaves the store untouched. It is Prepare then Apply.
func Run(ctx context.Context, store *graph.Store, roots []string, opt Options) (Result, error) {
	p, err := prepare(ctx, store, roots, opt, true)
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
	// graphs written while they were converted and not kept as changes
	// (Run only): Apply commits it.
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
	return prepare(ctx, store, roots, opt, false)
}

// prepare is an ingest but its write, stage by stage: plan (what the
// store holds, the corpora and which of their files to read: plan.go),
// parse (the files into records, without the store: parse.go), compare
// (which parsed files changed, one batched digest read, and which graphs
// are gone: compare.go) and convert (the changed files' JSON-LD quads:
// convert.go). Apply (write.go) writes. With stream set, the first ingest
// into an empty bbolt store is written while it is parsed and converted
// (prepareFirst, graph.FirstWriter), and the store stays locked until
// Apply.
func prepare(ctx context.Context, store *graph.Store, roots []string, opt Options, stream bool) (p *Prepared, err error) {
	ctx, span := startSpan(ctx, "ingest.prepare", roots)
	defer func() {
		var res Result
		if p != nil {
			res = p.res
		}
		endSpan(span, res, err)
	}()
	start := time.Now()
	pl, err := planRun(ctx, store, roots, opt)
	if err != nil {
		return nil, err
	}
	defer pl.close()
	if stream && pl.only == nil && len(pl.sp.stored) == 0 {
		// A store that cannot begin the write (first == nil and an
		// error) is reported by the sequential path, naming the graphs.
		if first, err := store.BeginFirst(ctx); err == nil && first != nil {
			return pl.prepareFirst(ctx, opt, first, start)
		}
	}
	units, err := pl.parse(ctx, opt, nil)
	if err != nil {
		return nil, err
	}
	pl.sp.listed.Drop() // the parse's stamp checks were the last to ask them
	diff, err := pl.compare(ctx, store, units)
	if err != nil {
		return nil, err
	}
	capRunFindings(diff.changed) // before conversion: a dropped finding costs no quads
	if err := convert(ctx, diff.changed, opt); err != nil {
		return nil, err
	}
	return &Prepared{Base: pl.base, res: pl.result(units, diff), changes: diff.changes(),
		start: start, log: logger(opt)}, nil
}

// prepareFirst is prepare of the first ingest into an empty store (first
// holds it): each file is written while the others are parsed
// (firstStream), so neither every file's records nor every quad is held
// at once. Every unit is a change: an empty store has no digest to
// compare with, no stamp to skip by, no graph to remove. On a failure
// the write is aborted, the version stays 0 and nothing is served.
func (pl *plan) prepareFirst(ctx context.Context, opt Options, first *graph.FirstWriter, start time.Time) (*Prepared, error) {
	units, err := pl.streamUnits(ctx, opt, first)
	if err != nil {
		first.Abort()
		return nil, err
	}
	d := &comparison{changed: units}
	if len(units) == 0 {
		first.Abort() // nothing to write: the version stays 0, as Apply of no change leaves it
		first = nil
	}
	// No changes: they were written (first commits them), and their
	// bodies are gone.
	return &Prepared{Base: pl.base, res: pl.result(units, d),
		start: start, log: logger(opt), first: first}, nil
}

// streamUnits parses every planned file and hands the units, converted a
// window at a time, to sink (firstStream), the findings capped before
// conversion; it returns the units once every window is handed over, or
// the first failure.
func (pl *plan) streamUnits(ctx context.Context, opt Options, sink windowSink) ([]*unit, error) {
	total := 0
	for _, c := range pl.corpora {
		total += len(c.Sources)
	}
	st := newFirstStream(ctx, opt, sink, total)
	fc := newFindingCap()
	units, err := pl.parse(ctx, opt, func(u *unit) error {
		fc.apply(u) // before conversion: a dropped finding costs no quads
		return st.add(u)
	})
	pl.sp.listed.Drop() // the parse's stamp checks were the last to ask them
	return units, st.finish(err, units)
}

// logger is opt's logger, or one that discards.
func logger(opt Options) *slog.Logger {
	if opt.Logger != nil {
		return opt.Logger
	}
	return slog.New(slog.DiscardHandler)
}
