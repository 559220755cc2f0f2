package server_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/skillgraph/skillgraph/api/server/servertest"
	"github.com/skillgraph/skillgraph/ingest/gen"
)

// dashboardQuery is loadgen's triage queue query (cmd/loadgen).
const dashboardQuery = `query Queue($first: Int) { skills(tiers: ["C","A","B","D"], orderBy: TIER, first: $first) { totalCount nodes { id package tier evidence } pageInfo { endCursor hasNextPage } } }`

// BenchmarkDashboardQuery: the triage queue query of a generated
// 1k-skill corpus through the /graphql handler (no network), answered
// from the response cache, and computed each time (every request has
// another key, so it misses):
//
//	go test ./api/server -run '^$' -bench DashboardQuery -benchtime 2s
func BenchmarkDashboardQuery(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "corpus")
	if _, err := gen.Write(dir, gen.Options{Skills: 1000, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	srv := servertest.Start(b, servertest.Options{Corpus: dir})
	defer srv.Close()
	h := srv.Server.Config.Handler
	do := func(b *testing.B, nonce int) {
		// nonce is a variable the query does not use: it only changes the key
		body, _ := json.Marshal(map[string]any{"query": dashboardQuery, "variables": map[string]any{"first": 100, "nonce": nonce}})
		req := httptest.NewRequest(http.MethodPost, "/graphql", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != 200 || bytes.Contains(w.Body.Bytes(), []byte(`"errors"`)) {
			b.Fatalf("status %d: %.200s", w.Code, w.Body.String())
		}
	}
	b.Run("cached", func(b *testing.B) {
		do(b, 0)
		b.ReportAllocs()
		for b.Loop() {
			do(b, 0)
		}
	})
	b.Run("uncached", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			i++
			do(b, i) // a new key every time
		}
	})
}
