package server_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/skillgraph/skillgraph/api"
	"github.com/skillgraph/skillgraph/api/server"
	"github.com/skillgraph/skillgraph/api/server/servertest"
	"github.com/skillgraph/skillgraph/cmd/loadgen/mix"
	"github.com/skillgraph/skillgraph/ingest/gen"
)

// dashboardQuery is loadgen's triage queue query (cmd/loadgen/mix).
const dashboardQuery = `query Queue($first: Int) { skills(tiers: ["C","A","B","D"], orderBy: TIER, first: $first) { totalCount nodes { id package tier evidence } pageInfo { endCursor hasNextPage } } }`

// dashboardServer serves a generated 1k-skill corpus for the benchmarks.
func dashboardServer(b *testing.B) *servertest.Server {
	dir := filepath.Join(b.TempDir(), "corpus")
	if _, err := gen.Write(dir, gen.Options{Skills: 1000, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	return servertest.Start(b, servertest.Options{Corpus: dir})
}

// post sends one /graphql request to h and fails on anything but an
// answer without errors.
func post(b *testing.B, h http.Handler, query string, vars map[string]any) {
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	req := httptest.NewRequest(http.MethodPost, "/graphql", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	if w.Code != 200 || bytes.Contains(w.Body.Bytes(), []byte(`"errors"`)) {
		b.Fatalf("status %d: %.200s", w.Code, w.Body.String())
	}
}

// BenchmarkDashboardQuery: the triage queue query of a generated
// 1k-skill corpus through the /graphql handler (no network), answered
// from the response cache:
//
//	go test ./api/server -run '^$' -bench DashboardQuery -benchtime 2s
func BenchmarkDashboardQuery(b *testing.B) {
	srv := dashboardServer(b)
	h := srv.Server.Config.Handler
	vars := map[string]any{"first": 100}
	post(b, h, dashboardQuery, vars)
	b.ReportAllocs()
	for b.Loop() {
		post(b, h, dashboardQuery, vars)
	}
}

// BenchmarkDashboardQueryUncached: each query of the dashboard mix
// (cmd/loadgen/mix) as the first request after a new graph version: every
// iteration gets a new handler (empty caches) over the same snapshot, so
// the answer is computed, not looked up. The handler's construction is
// outside the timer.
func BenchmarkDashboardQueryUncached(b *testing.B) {
	srv := dashboardServer(b)
	schema, err := api.NewSchema()
	if err != nil {
		b.Fatal(err)
	}
	for _, q := range mix.Dashboard {
		b.Run(q.Name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				h := server.Handler(srv.Service, schema, srv.Config, nil, nil)
				b.StartTimer()
				post(b, h, q.Text, nil)
			}
		})
	}
}

// BenchmarkDashboardMixCached: the whole dashboard mix from 32 clients at
// once (b.SetParallelism over GOMAXPROCS), every answer from the response
// cache: the cost of a cached hit under the concurrency loadgen -c 32
// applies, without the network.
//
//	go test ./api/server -run '^$' -bench DashboardMixCached -benchtime 20000x -cpuprofile /tmp/cpu.out
func BenchmarkDashboardMixCached(b *testing.B) {
	srv := dashboardServer(b)
	h := srv.Server.Config.Handler
	bodies := make([][]byte, len(mix.Dashboard))
	for i, q := range mix.Dashboard {
		post(b, h, q.Text, nil)
		bodies[i], _ = json.Marshal(map[string]any{"query": q.Text})
	}
	b.SetParallelism(max(1, 32/runtime.GOMAXPROCS(0)))
	b.ResetTimer()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			i++
			req := httptest.NewRequest(http.MethodPost, "/graphql", bytes.NewReader(bodies[i%len(bodies)]))
			req.Header.Set("Content-Type", "application/json")
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if w.Code != 200 {
				b.Errorf("status %d", w.Code)
				return
			}
		}
	})
}
