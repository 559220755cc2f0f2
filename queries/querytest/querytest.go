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
// the snapshot read back from it; the store is closed when Build returns.
func Build(t testing.TB, roots ...string) *queries.Snapshot {
	t.Helper()
	ctx := context.Background()
	st, err := graph.Open(ctx, "memory")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := ingest.Run(ctx, st, roots, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	s, err := queries.Build(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
