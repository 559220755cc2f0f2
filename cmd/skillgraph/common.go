package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/ingest"
	"github.com/skillgraph/skillgraph/queries"
)

// corpusFlag is a repeatable --corpus.
type corpusFlag []string

func (c *corpusFlag) String() string     { return strings.Join(*c, ",") }
func (c *corpusFlag) Set(v string) error { *c = append(*c, v); return nil }

// common holds the flags every command shares.
type common struct {
	corpora corpusFlag
	store   string
	maxSize int64
	verbose bool
	// logFormat is --log-format: text (slog's TextHandler) or json (its
	// JSONHandler, one object a line, for log collectors).
	logFormat logFormat
	// found is each corpus as discovery saw it (requireContent fills it):
	// reports that locate files outside their corpus (SARIF) need the roots.
	found []sarifCorpus
	// allowEmpty leaves a corpus folder that holds nothing out of the
	// ingest instead of failing (a diff's base, see requireContent).
	allowEmpty bool
}

func (c *common) register(fs *flag.FlagSet) {
	fs.Var(&c.corpora, "corpus", "corpus root directory (repeatable; env SKILLGRAPH_CORPUS, colon-separated)")
	fs.StringVar(&c.store, "store", os.Getenv("SKILLGRAPH_STORE"), "store URL: memory, bbolt:PATH or postgres:DSN (env SKILLGRAPH_STORE)")
	def := int64(0)
	if v, err := strconv.ParseInt(os.Getenv("SKILLGRAPH_MAX_FILE_SIZE"), 10, 64); err == nil {
		def = v
	}
	fs.Int64Var(&c.maxSize, "max-file-size", def, "largest file read, in bytes (0: 4 MiB; env SKILLGRAPH_MAX_FILE_SIZE)")
	fs.BoolVar(&c.verbose, "v", false, "log progress to stderr")
	c.logFormat = "text"
	if env := os.Getenv("SKILLGRAPH_LOG_FORMAT"); env == "json" {
		c.logFormat = "json"
	}
	fs.Var(&c.logFormat, "log-format", "log lines as text or json (slog's JSON handler, one object a line; env SKILLGRAPH_LOG_FORMAT)")
}

func (c *common) finish() {
	if len(c.corpora) == 0 {
		if env := os.Getenv("SKILLGRAPH_CORPUS"); env != "" {
			c.corpora = strings.Split(env, ":")
		}
	}
}

// logger is the verb's logger: nothing without -v (serve always logs,
// through newLogger).
func (c *common) logger(stderr io.Writer) *slog.Logger {
	if !c.verbose {
		return slog.New(slog.DiscardHandler)
	}
	return newLogger(stderr, string(c.logFormat))
}

// logFormat is a --log-format value: a bad one fails the parse (exit 2).
type logFormat string

func (f *logFormat) String() string { return string(*f) }
func (f *logFormat) Set(v string) error {
	if v != "text" && v != "json" {
		return fmt.Errorf("must be text or json, not %q", v)
	}
	*f = logFormat(v)
	return nil
}

// newLogger writes to w in the format --log-format names.
func newLogger(w io.Writer, format string) *slog.Logger {
	if format == "json" {
		return slog.New(slog.NewJSONHandler(w, nil))
	}
	return slog.New(slog.NewTextHandler(w, nil))
}

// storeURL is --store (or SKILLGRAPH_STORE), else def.
func (c *common) storeURL(def string) string {
	if c.store != "" {
		return c.store
	}
	return def
}

// snapshot ingests the corpora (if any) into the store and builds the
// analysis snapshot. defStore applies when neither --store nor env is set.
func (c *common) snapshot(ctx context.Context, defStore string, stderr io.Writer, progress bool) (*queries.Snapshot, error) {
	url := c.storeURL(defStore)
	if len(c.corpora) == 0 && c.store == "" {
		return nil, fmt.Errorf("give --corpus DIR, or --store URL of an existing store")
	}
	if len(c.corpora) > 0 && ephemeral(url) {
		return c.snapshotNoStore(ctx, stderr, progress)
	}
	open := graph.Open
	if len(c.corpora) == 0 { // only read: the store must be there
		open = openToRead
	}
	st, err := open(ctx, url)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	if len(c.corpora) > 0 {
		if err := c.requireContent(); err != nil {
			return nil, err
		}
	}
	if len(c.corpora) > 0 {
		if _, err := ingest.Run(ctx, st, c.corpora, c.ingestOptions(stderr, progress)); err != nil {
			return nil, err
		}
	}
	snap, err := queries.Build(ctx, st)
	if err == nil && len(c.corpora) > 0 {
		recordTallies(ctx, st, snap, c.corpora[0], stderr)
	}
	return snap, err
}

// ephemeral reports whether url names a store that lives only in this
// process (the memory store): nothing reads it after the command.
func ephemeral(url string) bool { return url == "memory" || url == "mem" }

// ingestOptions are the options of an ingest of c's corpora: its size
// cap and logger, and with progress a progress bar on stderr.
func (c *common) ingestOptions(stderr io.Writer, progress bool) ingest.Options {
	opt := ingest.Options{MaxFileSize: c.maxSize, Logger: c.logger(stderr)}
	if progress {
		opt.Progress = progressBar(stderr)
	}
	return opt
}

// snapshotNoStore is snapshot for corpora read into no store that lasts:
// the snapshot is the empty one updated with the ingest's converted
// changes, the path `serve`'s early snapshot takes (Snapshot.Update gives
// Build's answers), so the quads are never copied into a memory Cayley
// store only to be read back (half a finding's memory, docs/security.md
// row 14). The empty memory store is still opened: Prepare plans against
// a store (version 0, no digests), and only reads it.
func (c *common) snapshotNoStore(ctx context.Context, stderr io.Writer, progress bool) (*queries.Snapshot, error) {
	if err := c.requireContent(); err != nil {
		return nil, err
	}
	st, err := graph.Open(ctx, "memory")
	if err != nil {
		return nil, err
	}
	defer st.Close()
	return snapshotOfCorpora(ctx, st, c.corpora, c.ingestOptions(stderr, progress))
}

// snapshotOfCorpora prepares the ingest of roots into the empty store st
// and returns the snapshot of the version it would commit, without
// writing it. With nothing to write it is the empty store's snapshot
// (version 0), as a Build after an ingest that wrote nothing is.
func snapshotOfCorpora(ctx context.Context, st *graph.Store, roots []string, opt ingest.Options) (*queries.Snapshot, error) {
	base, err := queries.Build(ctx, st)
	if err != nil {
		return nil, err
	}
	p, err := ingest.Prepare(ctx, st, roots, opt)
	if err != nil {
		return nil, err
	}
	if len(p.Changes()) == 0 {
		return base, nil
	}
	if base.Version != p.Base {
		return nil, fmt.Errorf("snapshot of %s: the store moved from version %d to %d while it was read", strings.Join(roots, ", "), base.Version, p.Base)
	}
	return base.Update(p.Changes(), p.Base+1), nil
}

// progressBar shows a bar when stderr is a terminal.
func progressBar(stderr io.Writer) func(done, total int) {
	f, ok := stderr.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	var bar *progressbar.ProgressBar
	return func(done, total int) {
		if bar == nil {
			bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(stderr),
				progressbar.OptionSetDescription("converting"), progressbar.OptionShowCount(), progressbar.OptionClearOnFinish())
		}
		_ = bar.Set(done)
	}
}

// openToRead opens the store a reading command reads (check, query,
// coverage, export with --store and no --corpus; serve --read-only). It
// must exist and hold a graph version: graph.Open creates what is missing,
// so without these checks a typo'd --store answered an empty graph with
// exit 0, a CI gate that passes while checking nothing (issue 23.3). Only
// ingest, import and serve --corpus create a store.
func openToRead(ctx context.Context, url string) (*graph.Store, error) {
	if err := storeExists(url); err != nil {
		return nil, err
	}
	st, err := graph.OpenVerified(ctx, url)
	if err != nil {
		return nil, err
	}
	v, err := st.Version(ctx)
	if err != nil {
		st.Close()
		return nil, fmt.Errorf("store %s: %w", url, err)
	}
	if v == 0 {
		st.Close()
		return nil, errNoVersion(url)
	}
	return st, nil
}

// storeExists fails for a bbolt store whose directory is missing or empty,
// before graph.Open would create it. Other backends are checked by their
// version once open (a database can only be asked).
func storeExists(url string) error {
	kind, path, _ := strings.Cut(url, ":")
	if kind != "bbolt" || path == "" {
		return nil // graph.Open reports a bbolt URL without a path
	}
	abs, _ := filepath.Abs(path)
	entries, err := os.ReadDir(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("store %s: no such store (looked for the directory %s); reading commands never create one: "+
			"`skillgraph ingest --corpus DIR --store %s` or `skillgraph import` does", url, abs, url)
	case err != nil:
		return fmt.Errorf("store %s: %w", url, err)
	case len(entries) == 0:
		return fmt.Errorf("store %s: %s is an empty directory, not a store; reading commands never create one: "+
			"`skillgraph ingest --corpus DIR --store %s` or `skillgraph import` does", url, abs, url)
	}
	return nil
}

// errNoVersion is the error for a store that must be read and holds no
// graph version: nothing was ever ingested or imported into it.
func errNoVersion(url string) error {
	if url == "memory" || url == "mem" {
		return fmt.Errorf("store %s holds no graph: a memory store starts empty in every process; give --corpus DIR, "+
			"or --store bbolt:PATH or postgres:DSN of a store something was ingested into", url)
	}
	return fmt.Errorf("store %s holds no graph (version 0): nothing was ever ingested or imported into it; "+
		"`skillgraph ingest --corpus DIR --store %s` or `skillgraph import` fills it", url, url)
}
