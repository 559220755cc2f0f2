package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/skillgraph/skillgraph/graph"
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
		err = history.Put(ctx, st, snap.Version, time.Now(), history.RecordOf(snap, corpus))
	}
	if err != nil {
		fmt.Fprintf(stderr, "warning: the tallies of graph version %d were not recorded: %v\n", snap.Version, err)
	}
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
