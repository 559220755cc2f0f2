// Package querytest builds snapshots for tests: corpora ingested into a
// fresh memory store and read back, the one such helper for tests outside
// package queries (which has its own, ingestBuild).
package querytest

import (
	"context"
	"testing"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/ingest"
	"github.com/skillgraph/skillgraph/queries"
)

// Build ingests the corpora at roots into a fresh memory store and returns
// the snapshot read back from it; the store is closed when the test ends.
func Build(t testing.TB, roots ...string) *queries.Snapshot {
	t.Helper()
	_, s := Open(t, roots...)
	return s
}

// Open ingests the corpora at roots into a fresh memory store and returns
// the store, open until the test ends (for later ingests and Updates), and
// the snapshot read from it.
func Open(t testing.TB, roots ...string) (*graph.Store, *queries.Snapshot) {
	t.Helper()
	ctx := context.Background()
	st, err := graph.Open(ctx, "memory")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := ingest.Run(ctx, st, roots, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	s, err := queries.Build(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	return st, s
}
