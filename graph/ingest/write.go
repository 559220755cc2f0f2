package ingest

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/skillgraph/skillgraph/graph"
)

// Apply writes a prepared ingest to the store (one graph.Apply, nothing
// when no graph changed) and returns the run's result.
func (p *Prepared) Apply(ctx context.Context, store *graph.Store) (res Result, err error) {
	ctx, span := startSpan(ctx, "ingest.apply", nil)
	defer func() { endSpan(span, res, err) }()
	return p.apply(ctx, store, nil, nil)
}

// ApplyTallied is Apply with tally's record of the new version committed
// in the version's own transaction (graph.Store.ApplyTallied). A first
// write into an empty store (written while converted, or through a
// graph.FirstWriter) takes no record: the caller records that version
// after the commit. Nothing changed, nothing is recorded.
func (p *Prepared) ApplyTallied(ctx context.Context, store *graph.Store, tally graph.TallyFunc, merge graph.TallyMerge) (res Result, err error) {
	ctx, span := startSpan(ctx, "ingest.apply", nil)
	defer func() { endSpan(span, res, err) }()
	return p.apply(ctx, store, tally, merge)
}

// apply is Apply inside its span.
func (p *Prepared) apply(ctx context.Context, store *graph.Store, tally graph.TallyFunc, merge graph.TallyMerge) (Result, error) {
	res := p.res
	res.stamps, res.probes = nil, nil
	if len(p.changes) == 0 && p.first == nil {
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
			v, err = store.ApplyTallied(ctx, p.changes, tally, merge)
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
