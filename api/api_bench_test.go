package api_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/skillgraph/skillgraph/api"
	"github.com/skillgraph/skillgraph/cmd/loadgen/mix"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/ingest"
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

// large10k is the snapshot of the 10k-skill benchmarks, built once per
// benchmark process: from the store SKILLGRAPH_BENCH_STORE names (e.g.
// bbolt:/tmp/b10k/g.db, written by `skillgraph ingest`; seconds), else
// from a generated 10k corpus ingested into memory (a minute or more).
var large10k = sync.OnceValues(func() (*queries.Snapshot, error) {
	ctx := context.Background()
	url := os.Getenv("SKILLGRAPH_BENCH_STORE")
	if url == "" {
		dir, err := os.MkdirTemp("", "bench10k")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
		if _, err := gen.Write(dir, gen.Options{Skills: 10000, Seed: 1}); err != nil {
			return nil, err
		}
		st, err := graph.Open(ctx, "memory")
		if err != nil {
			return nil, err
		}
		defer st.Close()
		if _, err := ingest.Run(ctx, st, []string{dir}, ingest.Options{}); err != nil {
			return nil, err
		}
		return queries.Build(ctx, st)
	}
	st, err := graph.Open(ctx, url)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	return queries.Build(ctx, st)
})

// large10kAnswerer skips b unless SKILLGRAPH_BENCH_LARGE=1, and returns
// what answers a query on the 10k snapshot as /graphql does (with the
// field cache fc; nil: none) and encodes it: the answer's size.
func large10kAnswerer(b *testing.B) func(b *testing.B, query string, fc api.FieldCache) int {
	if os.Getenv("SKILLGRAPH_BENCH_LARGE") != "1" {
		b.Skip("set SKILLGRAPH_BENCH_LARGE=1 to run the 10k-skill benchmarks")
	}
	snap, err := large10k()
	if err != nil {
		b.Fatal(err)
	}
	schema, err := api.NewSchema()
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	lim := api.DefaultLimits()
	return func(b *testing.B, query string, fc api.FieldCache) int {
		doc, err := api.Parse(query, lim)
		if err != nil {
			b.Fatal(err)
		}
		res := schema.ExecuteShared(ctx, snap, doc, api.Request{Query: query}, lim, fc)
		if len(res.Errors) > 0 {
			b.Fatal(res.Errors)
		}
		body, err := res.Encode()
		if err != nil {
			b.Fatal(err)
		}
		return len(body)
	}
}

// BenchmarkDashboard10k executes each query of the dashboard mix
// (cmd/loadgen/mix) on a 10k-skill snapshot and encodes the answer as
// /graphql does, without HTTP: cold/… is the first request after a new
// graph version (nothing shared), vary/… a query text nobody sent
// before (loadgen -vary text: a new alias in front) once its root fields
// were answered under this snapshot. Its setup is large, so it runs only
// with SKILLGRAPH_BENCH_LARGE=1:
//
//	SKILLGRAPH_BENCH_LARGE=1 SKILLGRAPH_BENCH_STORE=bbolt:/tmp/b10k/g.db \
//	    go test ./api -run '^$' -bench Dashboard10k -benchtime 20x -cpuprofile /tmp/cpu.out
func BenchmarkDashboard10k(b *testing.B) {
	answer := large10kAnswerer(b)
	for _, q := range mix.Dashboard {
		b.Run("cold/"+q.Name, func(b *testing.B) {
			b.ReportAllocs()
			var size int
			for b.Loop() {
				size = answer(b, q.Text, nil)
			}
			b.ReportMetric(float64(size), "bytes/answer")
		})
	}
	for _, q := range mix.Dashboard {
		b.Run("vary/"+q.Name, func(b *testing.B) {
			fc := &mapCache{}
			answer(b, q.Text, fc)
			b.ReportAllocs()
			n, size := 0, 0
			for b.Loop() {
				n++
				size = answer(b, mix.Vary(q.Text, n), fc)
			}
			b.ReportMetric(float64(size), "bytes/answer")
		})
	}
}

// sideBySidePages are the pages cmd/sidebyside/compare.mjs asks for, one
// request each (its lists are paged by 500).
var sideBySidePages = []struct{ name, text string }{
	{"claimedPage", `{ c: tools(first: 500) { pageInfo { hasNextPage endCursor } nodes { satisfies { id package } } } }`},
	{"reachableSkillsPage", `{ c: skills(reachable: true, first: 500) { pageInfo { hasNextPage endCursor } nodes { id package } } }`},
	{"reachableToolsPage", `{ c: tools(reachable: true, first: 500) { pageInfo { hasNextPage endCursor } nodes { id } } }`},
	{"covered", `{ coverage { covered { id package } } }`},
	{"alternatives", `{ alternatives { groups { skill { id package } tools { id } } } }`},
}

// BenchmarkSideBySide10k executes each request of the side-by-side
// comparison's lists on a 10k-skill snapshot as /graphql does on a cache
// miss (an empty field cache each time) and encodes the answer (see
// BenchmarkDashboard10k for the setup).
func BenchmarkSideBySide10k(b *testing.B) {
	answer := large10kAnswerer(b)
	for _, q := range sideBySidePages {
		b.Run(q.name, func(b *testing.B) {
			b.ReportAllocs()
			var size int
			for b.Loop() {
				size = answer(b, q.text, &mapCache{})
			}
			b.ReportMetric(float64(size), "bytes/answer")
		})
	}
}
