package ingest

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/ingest/record"
	"github.com/skillgraph/skillgraph/jsonld"
)

// convert turns the changed units into quads (the conversion is the expensive
// step, so only they are converted). With stream set, when every file
// changed and none is gone, the store may be empty: then its first ingest
// is written while it is converted, and the FirstWriter returned commits
// it (the caller aborts it on an error).
func (d *comparison) convert(ctx context.Context, store *graph.Store, opt Options, stream bool) (*graph.FirstWriter, error) {
	if stream && len(d.changed) > 0 && len(d.removed) == 0 && len(d.stamps) == 0 {
		first, err := store.BeginFirst(ctx)
		if err != nil {
			// The write of these files fails before it starts: say which.
			return nil, fmt.Errorf("store %s: %w", graphsOf(d.changes()), err)
		}
		if first != nil {
			return first, convertStreaming(ctx, d.changed, opt, first)
		}
	}
	return nil, convert(ctx, d.changed, opt, 0, nil, nil)
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

// streamLead is how many windows convertStreaming converts ahead of the
// store write. The write is the slow side (Cayley's indexing, one core),
// so a conversion that never waited held the quads of nearly every file
// at once: 84 MB of a 10k ingest's 355 MB live heap at its peak, growing
// with the corpus (issue #27: 5.7 GB at 100k). Two windows keep the
// writer fed while bounding what waits for it.
const streamLead = 2

// convertStreaming is convert with each window of units handed to first
// as soon as it is converted, in the order of units, on a goroutine of
// its own (the store write) while the conversion goes on, at most
// streamLead windows ahead of it. A written window's quads and records
// are dropped (what the run reports needs neither). A write failure stops
// the conversion; a conversion failure or a cancel stops the write (the
// caller aborts it).
func convertStreaming(ctx context.Context, units []*unit, opt Options, first *graph.FirstWriter) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	index := make(map[*unit]int, len(units))
	for i, u := range units {
		index[u] = i
	}
	windows := (len(units) + streamWindow - 1) / streamWindow
	// Room for every batch: a worker never waits for the writer, the
	// dispatch does (lead).
	ready := make(chan []*unit, len(units)/convertBatch+windows+convertWorkers(opt)+1)
	// A token per window dispatched and not yet written.
	lead := make(chan struct{}, streamLead)
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
					// Written: Commit needs only what Add kept, the
					// result only the counts and the path.
					u.quads = nil
					u.file = record.File{Path: u.file.Path, Parser: u.file.Parser}
				}
				<-lead
				if streamWritten != nil {
					streamWritten(first)
				}
			}
		}
	}()
	err := convert(ctx, units, opt, streamWindow, func(batch []*unit) { ready <- batch }, lead)
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
// (jsonld.ToQuadsBatch): a tenth to a half of a millisecond per document
// on the direct path, more where json-gold converts it.
//
// done, if set, is called with each batch once it is converted, from the
// worker that converted it.
//
// window, if positive, converts units in windows of that many, one after
// the other, each window's batches taken from it alone (see below); with
// lead set, a window is dispatched once a token is put into lead (the
// caller takes it back when it is done with the window).
func convert(ctx context.Context, units []*unit, opt Options, window int, done func([]*unit), lead chan struct{}) error {
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
					cs[i] = jsonld.Conversion{Doc: jsonld.Document(*u.in, u.file, u.meta), Graph: jsonld.SourceIRI(u.in.DocIRI(), u.file.Path)}
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
		if lead != nil {
			select {
			case lead <- struct{}{}:
			case <-ctx.Done():
				break dispatch
			}
		}
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
