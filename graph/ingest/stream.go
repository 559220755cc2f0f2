package ingest

import (
	"context"

	"github.com/skillgraph/skillgraph/graph"
)

// changesFunc is a windowSink that calls a function.
type changesFunc func(ctx context.Context, changes []graph.Change) error

func (f changesFunc) Add(ctx context.Context, changes []graph.Change) error { return f(ctx, changes) }

// Stream reads the corpora at roots as a first ingest into an empty store
// does — every file parsed, checked and converted, a window of files at a
// time — and hands each window's changes to each, in the order a first
// ingest writes them, instead of writing a store. So an export of corpora
// holds one window's quads at a time, not the whole graph in a memory
// store (17.2 GB at 100k skills, issue #27). The quads of a change may be
// kept by each only until it returns. A failure of each stops the read
// and is returned; opt.Only is ignored (every file is read). The result
// counts the files as Run's would; its Version is 0 (nothing was written).
func Stream(ctx context.Context, roots []string, opt Options, each func(ctx context.Context, changes []graph.Change) error) (Result, error) {
	// The plan reads a store (its version, digests and stamps): an empty
	// one has none, as for any first ingest.
	empty, err := graph.Open(ctx, "memory")
	if err != nil {
		return Result{}, err
	}
	defer empty.Close()
	opt.Only = nil
	pl, err := planRun(ctx, empty, roots, opt)
	if err != nil {
		return Result{}, err
	}
	defer pl.close()
	units, err := pl.streamUnits(ctx, opt, changesFunc(each))
	if err != nil {
		return Result{}, err // as Run reports it
	}
	return pl.result(units, &comparison{changed: units}), nil
}
