package api_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/skillgraph/skillgraph/api"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/ingest"
	"github.com/skillgraph/skillgraph/ingest/gen"
	"github.com/skillgraph/skillgraph/queries"
)

// acceptanceQuery is the query of the acceptance kit (acceptance/check.py).
const acceptanceQuery = `{
  coverage { total uncovered covered { id } contradicted { id }
    tiers { tier count skills { skill { id } evidence } }
    bothHalves { id } exempt { id } }
  alternatives { groups { skill { id } tools { id } } missingSelection { id }
    complementary { skill { id } tools { id } } }
  reachability { roots coveredNotReachable { id } unreachableTools { id }
    toolsWithoutCommand { id } unreachableProcesses }
}`

// BenchmarkAcceptanceQuery executes the acceptance kit's
// coverage+alternatives+reachability query on the snapshot of a generated
// 1k-skill corpus: parse, limits, validation and execution, no HTTP.
func BenchmarkAcceptanceQuery(b *testing.B) {
	ctx := context.Background()
	dir := filepath.Join(b.TempDir(), "corpus")
	if _, err := gen.Write(dir, gen.Options{Skills: 1000, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	st, err := graph.Open(ctx, "memory")
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	if _, err := ingest.Run(ctx, st, []string{dir}, ingest.Options{}); err != nil {
		b.Fatal(err)
	}
	snap, err := queries.Build(ctx, st)
	if err != nil {
		b.Fatal(err)
	}
	schema, err := api.NewSchema()
	if err != nil {
		b.Fatal(err)
	}
	req := api.Request{Query: acceptanceQuery}
	b.ReportAllocs()
	for b.Loop() {
		res := schema.Execute(ctx, snap, req, api.DefaultLimits())
		if len(res.Errors) > 0 {
			b.Fatal(res.Errors)
		}
	}
}
