package ingest

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/jsonld"
)

// change is the graph change of a converted unit.
func (u *unit) change() graph.Change {
	return graph.Change{Graph: jsonld.SourceIRI(u.in.DocIRI(), u.path), Quads: u.quads, Stamp: u.stamp}
}

// streamWindow is the number of units a first ingest converts, and then
// writes, together (firstStream): written in the order of units, as Apply
// does, a package's graphs (which share nodes) land in the same Cayley
// calls; written in the order of the conversion batches, which take units
// far apart, they cost Cayley a quarter more CPU (measured at 10k).
var streamWindow = 32 * convertBatch // a variable for tests

// streamLead is how many windows a first ingest parses and converts ahead
// of the store write. The write is the slow side (Cayley's indexing, one
// core): a conversion that never waited held the quads of nearly every
// file at once (84 MB of a 10k ingest's 355 MB live heap at its peak), and
// a parse that ran to the end before the write held every file's records
// (issue #27: 5.7 GB at 100k). Two windows keep the writer fed.
const streamLead = 2

// streamWritten, when set (tests), is called after each window is handed
// to the store write.
var streamWritten func(*graph.FirstWriter)

// windowSink takes each converted window's changes, in the order of
// units: the store's first write (graph.FirstWriter), or Stream's caller.
type windowSink interface {
	Add(ctx context.Context, changes []graph.Change) error
}

// firstStream writes the first ingest into an empty store while it is
// parsed: the parse adds each unit (add), each full window of units is
// converted on all cores and handed to the sink (the FirstWriter, or
// Stream's caller) in the order of units, on a goroutine of its own, at
// most streamLead windows ahead of it. A written window's quads, records
// and digests are dropped: Commit needs only what the writer kept, the
// run's result only the counts and the paths.
// A write failure stops the parse (add returns it); a conversion failure
// or a cancel stops the write (the caller aborts it).
type firstStream struct {
	ctx      context.Context
	cancel   context.CancelCauseFunc
	sink     windowSink
	win      []*unit          // the window being filled
	lead     chan struct{}    // a token per window dispatched and not yet written
	windows  chan *streamWin  // the windows dispatched, in order, to the writer
	work     chan streamBatch // batches to the converters
	wg       sync.WaitGroup   // the converters
	written  chan struct{}    // closed when the writer is done
	werr     error            // the write's failure (the writer's, read after written)
	progress *progress
}

// streamWin is one window of units and how many of its batches are not
// converted yet; done is closed when none is left.
type streamWin struct {
	units []*unit
	left  atomic.Int32
	done  chan struct{}
}

// streamBatch is one conversion batch of a window.
type streamBatch struct {
	win   *streamWin
	units []*unit
}

// newFirstStream starts the converters and the writer of a first ingest
// into sink; total is about how many files it reads (for Progress).
func newFirstStream(ctx context.Context, opt Options, sink windowSink, total int) *firstStream {
	ctx, cancel := context.WithCancelCause(ctx)
	s := &firstStream{ctx: ctx, cancel: cancel, sink: sink, progress: newProgress(opt, total),
		lead: make(chan struct{}, streamLead), windows: make(chan *streamWin, streamLead),
		work: make(chan streamBatch), written: make(chan struct{})}
	for range convertWorkers(opt) {
		s.wg.Add(1)
		go s.convertLoop()
	}
	go s.writeLoop()
	return s
}

// add takes the next unit of the parse; a full window is dispatched, once
// fewer than streamLead are waiting for the write. The error is why the
// stream stopped (the write failed, or a cancel).
func (s *firstStream) add(u *unit) error {
	s.win = append(s.win, u)
	if len(s.win) < streamWindow {
		return nil
	}
	return s.dispatch()
}

// dispatch hands the window being filled to the converters and the writer.
func (s *firstStream) dispatch() error {
	if len(s.win) == 0 {
		return nil
	}
	select {
	case s.lead <- struct{}{}:
	case <-s.ctx.Done():
		return context.Cause(s.ctx)
	}
	bs := batchesOf(s.win)
	w := &streamWin{units: s.win, done: make(chan struct{})}
	w.left.Store(int32(len(bs)))
	s.win = nil
	s.windows <- w // room for streamLead: never waits while a token is held
	for _, b := range bs {
		s.work <- streamBatch{w, b} // the converters drain work until it closes
	}
	return nil
}

// finish dispatches the last window, waits for the conversion and the
// write, and returns the first failure: parseErr (the parse's own), the
// write's, a cancel, or the conversion failures of units.
func (s *firstStream) finish(parseErr error, units []*unit) error {
	defer s.cancel(nil)
	err := parseErr
	if err == nil {
		err = s.dispatch()
	}
	close(s.work)
	s.wg.Wait()
	close(s.windows)
	<-s.written
	switch {
	case s.werr != nil:
		return s.werr
	case err != nil:
		return err
	case s.ctx.Err() != nil:
		return context.Cause(s.ctx)
	}
	return unitErrors(units)
}

func (s *firstStream) convertLoop() {
	defer s.wg.Done()
	for b := range s.work {
		convertUnits(b.units)
		s.progress.add(len(b.units))
		if b.win.left.Add(-1) == 0 {
			close(b.win.done)
		}
	}
}

// writeLoop writes each window once converted, in order, until the first
// failure; after one it only drains.
func (s *firstStream) writeLoop() {
	defer close(s.written)
	for w := range s.windows {
		<-w.done
		wrote := false
		if s.werr == nil && s.ctx.Err() == nil {
			cs := make([]graph.Change, 0, len(w.units))
			for _, u := range w.units {
				if u.err == nil {
					cs = append(cs, u.change())
				}
			}
			if err := s.sink.Add(s.ctx, cs); err != nil {
				s.werr = fmt.Errorf("store %s: %w", graphsOf(cs), err)
				s.cancel(s.werr)
			} else {
				wrote = true
			}
		}
		for _, u := range w.units {
			u.body, u.stamp = nil, nil // written (or failed: the write stops)
		}
		<-s.lead
		if fw, ok := s.sink.(*graph.FirstWriter); ok && wrote && streamWritten != nil {
			streamWritten(fw)
		}
	}
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
// (jsonld.ToQuadsBatch): a tenth to a half of a millisecond per document
// on the direct path, more where json-gold converts it.
func convert(ctx context.Context, units []*unit, opt Options) error {
	work := make(chan []*unit)
	var wg sync.WaitGroup
	pr := newProgress(opt, len(units))
	for range convertWorkers(opt) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for batch := range work {
				convertUnits(batch)
				pr.add(len(batch))
			}
		}()
	}
dispatch:
	for _, b := range batchesOf(units) {
		select {
		case work <- b:
		case <-ctx.Done():
			break dispatch
		}
	}
	close(work)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	return unitErrors(units)
}

// progress reports the files converted to Options.Progress, from every
// converter.
type progress struct {
	fn    func(done, total int)
	mu    sync.Mutex
	done  int
	total int // about how many files the run converts (never below done)
}

func newProgress(opt Options, total int) *progress {
	return &progress{fn: opt.Progress, total: total}
}

// add counts n more files converted.
func (p *progress) add(n int) {
	if p.fn == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done += n
	p.fn(p.done, max(p.total, p.done))
}

// batchesOf parts units into conversion batches of about convertBatch. A
// batch is converted with one json-gold RDF step where its documents
// share no subject; a package's skills (which share the package node) sit
// together in units, so a batch takes units far apart: batch b is units
// b, b+n, b+2n, … of n batches.
func batchesOf(units []*unit) [][]*unit {
	n := (len(units) + convertBatch - 1) / convertBatch
	out := make([][]*unit, n)
	for i, u := range units {
		out[i%n] = append(out[i%n], u)
	}
	return out
}

// convertUnits converts one batch: each unit gets its quads or its error.
func convertUnits(batch []*unit) {
	cs := make([]jsonld.Conversion, len(batch))
	for i, u := range batch {
		cs[i] = jsonld.Conversion{Doc: jsonld.Document(*u.in, u.file, u.meta), Graph: jsonld.SourceIRI(u.in.DocIRI(), u.path)}
	}
	toQuadsBatch(cs)
	for i, u := range batch {
		u.quads, u.err = cs[i].Quads, cs[i].Err
		u.nquads = len(u.quads)
	}
}

// unitErrors joins the conversion failures of units, each naming its file.
func unitErrors(units []*unit) error {
	var errs []error
	for _, u := range units {
		if u.err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", u.path, u.err))
		}
	}
	return errors.Join(errs...)
}
