package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/ingest"
	"github.com/skillgraph/skillgraph/queries"
	"github.com/skillgraph/skillgraph/queries/history"
)

// recordTallies stores snap's tallies as the record of its graph version
// (the corpus's HEAD commit with it when the corpus is a git work tree),
// unless the store has that record already: a re-ingest that committed
// nothing keeps the version's own time. A failure is a warning: the
// version is committed either way.
func recordTallies(ctx context.Context, st *graph.Store, snap *queries.Snapshot, corpus string, stderr io.Writer) {
	if snap.Version < 1 || !st.KeepsTallies() {
		return
	}
	have, _, err := history.Stored(ctx, st)
	if err == nil && len(have) > 0 && have[len(have)-1].Version >= snap.Version {
		return
	}
	if err == nil {
		err = history.Put(ctx, st, snap.Version, time.Now(), history.RecordOf(snap, corpus), nil)
	}
	if err != nil {
		fmt.Fprintf(stderr, "warning: the tallies of graph version %d were not recorded: %v\n", snap.Version, err)
	}
}

// ingestTallied is ingest.Run for `ingest`: when the store keeps tallies
// and already holds a version, the record of the version it commits is
// written in that version's own transaction (graph.Store.ApplyTallied),
// from the snapshot of the store before the write updated with the
// changes (queries.Snapshot.Update, the same answers as a Build after
// it). The snapshot before is built only when something changed: what a
// build after the commit cost before. A first write, or a version
// another writer got in before, is recorded after the commit
// (recordIngest).
func ingestTallied(ctx context.Context, st *graph.Store, corpora []string, opt ingest.Options) (ingest.Result, error) {
	if v, err := st.Version(ctx); err != nil || v == 0 || !st.KeepsTallies() {
		return ingest.Run(ctx, st, corpora, opt)
	}
	p, err := ingest.Prepare(ctx, st, corpora, opt)
	if err != nil {
		return ingest.Result{}, err
	}
	var base *queries.Snapshot
	if len(p.Changes()) > 0 {
		if base, err = queries.Build(ctx, st); err != nil {
			return ingest.Result{}, err
		}
	}
	return p.ApplyTallied(ctx, st, func(ctx context.Context, v int64) (time.Time, []byte, error) {
		if base == nil || base.Version != p.Base || v != p.Base+1 {
			return time.Time{}, nil, nil
		}
		next := base.Update(p.Changes(), v)
		data, err := history.Encode(history.RecordOf(next, corpora[0]), history.ChangesOf(base, next))
		if err != nil {
			return time.Time{}, nil, nil // recorded after the commit, or warned about there
		}
		return time.Now(), data, nil
	}, history.MergeData)
}

// recordIngest is recordTallies after an ingest that built no snapshot:
// it builds one when the store has no record of the version yet.
func recordIngest(ctx context.Context, st *graph.Store, v int64, corpus string, stderr io.Writer) {
	if v < 1 || !st.KeepsTallies() {
		return
	}
	if have, _, err := history.Stored(ctx, st); err == nil && len(have) > 0 && have[len(have)-1].Version >= v {
		return
	}
	snap, err := queries.Build(ctx, st)
	if err != nil {
		fmt.Fprintf(stderr, "warning: the tallies of graph version %d were not recorded: %v\n", v, err)
		return
	}
	recordTallies(ctx, st, snap, corpus, stderr)
}
