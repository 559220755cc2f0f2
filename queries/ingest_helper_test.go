package queries

import (
	"context"
	"testing"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/ingest"
)

// ingestBuild ingests the corpus at root into a memory store (closed when
// the test ends) and builds its snapshot: the start of every Update-against-
// Build test.
func ingestBuild(t *testing.T, root string) (*graph.Store, *Snapshot) {
	t.Helper()
	ctx := context.Background()
	st, err := graph.Open(ctx, "memory")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	if _, err := ingest.Run(ctx, st, []string{root}, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	s, err := Build(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	return st, s
}

// updateAndRebuild re-ingests root into st and returns prev updated with
// the changes and the snapshot rebuilt from the store, which an Update
// must answer like.
func updateAndRebuild(t *testing.T, st *graph.Store, root string, prev *Snapshot) (next, rebuilt *Snapshot) {
	t.Helper()
	ctx := context.Background()
	res, err := ingest.Run(ctx, st, []string{root}, ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	next = prev.Update(res.Changes, res.Version)
	if rebuilt, err = Build(ctx, st); err != nil {
		t.Fatal(err)
	}
	return next, rebuilt
}
