package api_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/api"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/ingest"
	"github.com/skillgraph/skillgraph/queries"
)

var (
	fuzzOnce   sync.Once
	fuzzSnap   *queries.Snapshot
	fuzzSchema *api.Schema
	fuzzErr    error
)

// miniSnapshot builds the snapshot of ../ingest/testdata/mini once per
// process: every fuzz input runs against it.
func miniSnapshot(t testing.TB) (*queries.Snapshot, *api.Schema) {
	fuzzOnce.Do(func() {
		ctx := context.Background()
		st, err := graph.Open(ctx, "memory")
		if err != nil {
			fuzzErr = err
			return
		}
		if _, err := ingest.Run(ctx, st, []string{"../ingest/testdata/mini"}, ingest.Options{}); err != nil {
			fuzzErr = err
			return
		}
		if fuzzSnap, fuzzErr = queries.Build(ctx, st); fuzzErr != nil {
			return
		}
		fuzzSchema, fuzzErr = api.NewSchema()
	})
	if fuzzErr != nil {
		t.Fatal(fuzzErr)
	}
	return fuzzSnap, fuzzSchema
}

// depthOf is the nesting of objects in a response: one per selection level.
func depthOf(v any) int {
	switch x := v.(type) {
	case map[string]any:
		d := 0
		for _, c := range x {
			d = max(d, depthOf(c))
		}
		return d + 1
	case []any:
		d := 0
		for _, c := range x {
			d = max(d, depthOf(c))
		}
		return d
	}
	return 0
}

// FuzzExecute runs fuzzed queries and variables through the whole request
// path (parse, limits, validation, execution) under the default limits and
// under tight ones: no panic, no result deeper than the depth limit, no
// request that runs for long.
func FuzzExecute(f *testing.F) {
	for _, s := range [][2]string{
		{`{ graphVersion }`, ``},
		{`query Q($n: Int) { skills(first: $n) { totalCount edges { cursor node { id tools { id } } } } }`, `{"n": 3}`},
		{`query Q($n: Int) { skills(first: $n) { totalCount } }`, `{"n": 1e300}`},
		{`query Q($n: Int) { skills(first: $n) { totalCount } }`, `{"n": -1}`},
		{`{ skills(after: "bm9wZQ==") { totalCount } }`, ``},
		{`{ skill(id: "review") { tools { satisfies { tools { satisfies { tools { satisfies { tools { id } } } } } } } } }`, ``},
		{`{ ...A } fragment A on Query { ...B } fragment B on Query { ...A }`, ``},
		{`{ a1: graphVersion a2: graphVersion a3: graphVersion }`, ``},
		{`mutation { recordTriage(skill: "review", verdict: judgement, note: "x") { graphVersion } }`, ``},
		{`{ coverage { total tiers { tier skills { skill { id } evidence } } } reachability { roots path(from: "process:Process_Release", to: "tool:gh") } }`, ``},
		{`{ alternatives { groups { skill { id } tools { id } } } findings(first: 500) { edges { node { code file line } } } }`, ``},
		{`query($x: String!) { skill(id: $x) { id } }`, `{"x": {"deep": [[[[]]]]}}`},
		{`{ __schema { types { name fields { name type { name ofType { name ofType { name } } } } } } }`, ``},
		{`{ search(text: "re", first: 2) { id } }`, ``},
		{`{ skills(first: 2, after: "` + strings.Repeat("A", 64) + `") { totalCount } }`, ``},
		{`{`, `not json`},
	} {
		f.Add(s[0], s[1])
	}
	snap, schema := miniSnapshot(f)
	tight := api.Limits{MaxDepth: 4, MaxCost: 300, MaxFields: 50, MaxValueDepth: 3, MaxNodes: 50, MaxErrors: 3, MaxIntrospectionDepth: 6, MaxIntrospectionCost: 3000}
	f.Fuzz(func(t *testing.T, query, vars string) {
		var v map[string]any
		if vars != "" && json.Unmarshal([]byte(vars), &v) != nil {
			v = nil
		}
		for _, lim := range []api.Limits{api.DefaultLimits(), tight} {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			start := time.Now()
			res := schema.Execute(ctx, snap, api.Request{Query: query, Variables: v}, lim)
			cancel()
			if d := time.Since(start); d > 5*time.Second {
				t.Fatalf("request took %v", d)
			}
			if res == nil {
				t.Fatal("nil result")
			}
			// __schema and __type are one level, their subtrees have
			// their own depth limit
			if d, most := depthOf(res.Data), max(lim.MaxDepth, 1+lim.MaxIntrospectionDepth); d > most {
				t.Fatalf("result depth %d over the limit %d", d, most)
			}
			if len(res.Errors) > lim.MaxErrors+1 {
				t.Fatalf("%d errors, over the limit %d (+1 summary)", len(res.Errors), lim.MaxErrors)
			}
			if _, err := json.Marshal(res); err != nil {
				t.Fatalf("result does not encode: %v", err)
			}
		}
	})
}
