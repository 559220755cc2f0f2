package server

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/ingest"
)

// TestHeavyExportsAreBounded: with every JSON-LD export slot taken, one
// more is 503 with Retry-After (not queued, not loaded); N-Quads streams
// have slots of their own; a freed slot serves again.
func TestHeavyExportsAreBounded(t *testing.T) {
	ctx := context.Background()
	st, err := graph.Open(ctx, "memory")
	if err != nil {
		t.Fatal(err)
	}
	svc := NewService(st, []string{"../../ingest/testdata/mini"}, ingest.Options{}, nil, nil)
	if _, err := svc.Ingest(ctx); err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	h := &handlers{svc: svc, cfg: cfg, log: svc.log, heavy: make(chan struct{}, 1), streams: make(chan struct{}, 1)}
	get := func(accept string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, "/export", nil)
		req.Header.Set("Accept", accept)
		rec := httptest.NewRecorder()
		h.wrap(h.export)(rec, req)
		return rec
	}
	h.heavy <- struct{}{} // a running export holds the only slot
	if rec := get("application/ld+json"); rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" {
		t.Fatalf("JSON-LD export with no slot free: %d Retry-After %q", rec.Code, rec.Header().Get("Retry-After"))
	}
	if rec := get("application/n-quads"); rec.Code != http.StatusOK || rec.Body.Len() == 0 {
		t.Fatalf("N-Quads export while JSON-LD slots are full: %d", rec.Code)
	}
	<-h.heavy
	if rec := get("application/ld+json"); rec.Code != http.StatusOK {
		t.Fatalf("JSON-LD export with a free slot: %d", rec.Code)
	}
	if len(h.heavy) != 0 {
		t.Fatal("the export kept its slot")
	}
}

// TestNQuadsExportsAreBounded: with every N-Quads export slot taken, one
// more is 503 with Retry-After (issue 28.13: 20 at once were not
// rationed); a freed slot serves again, and the slot is given back.
func TestNQuadsExportsAreBounded(t *testing.T) {
	ctx := context.Background()
	st, err := graph.Open(ctx, "memory")
	if err != nil {
		t.Fatal(err)
	}
	svc := NewService(st, []string{"../../ingest/testdata/mini"}, ingest.Options{}, nil, nil)
	if _, err := svc.Ingest(ctx); err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	if cfg.MaxNQuadsExports < 1 {
		t.Fatalf("no default bound: %d", cfg.MaxNQuadsExports)
	}
	h := &handlers{svc: svc, cfg: cfg, log: svc.log, heavy: make(chan struct{}, 1), streams: make(chan struct{}, cfg.MaxNQuadsExports)}
	get := func() *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, "/export", nil)
		req.Header.Set("Accept", "application/n-quads")
		rec := httptest.NewRecorder()
		h.wrap(h.export)(rec, req)
		return rec
	}
	for range cfg.MaxNQuadsExports {
		h.streams <- struct{}{} // running exports hold every slot
	}
	if rec := get(); rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" || rec.Header().Get("ETag") != "" {
		t.Fatalf("N-Quads export with no slot free: %d Retry-After %q ETag %q", rec.Code, rec.Header().Get("Retry-After"), rec.Header().Get("ETag"))
	}
	<-h.streams
	if rec := get(); rec.Code != http.StatusOK || rec.Body.Len() == 0 || rec.Header().Get("ETag") == "" {
		t.Fatalf("N-Quads export with a free slot: %d, %d bytes, ETag %q", rec.Code, rec.Body.Len(), rec.Header().Get("ETag"))
	}
	if len(h.streams) != cfg.MaxNQuadsExports-1 {
		t.Fatal("the export kept its slot")
	}
}

// TestFailedExportIsVisiblyBroken: a store read that fails before the
// first chunk is a 500 without an ETag; one that fails midway aborts the
// connection, so the client sees no cleanly ended body (issue 28.7: a
// cleanly ended 87 KB body of a 12 MB export with ETag "g1-nquads").
func TestFailedExportIsVisiblyBroken(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name   string
		failAt int
	}{
		{"before the first chunk", 3},
		{"midway", 2000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hooks := &graph.Hooks{}
			st, err := graph.OpenWith(ctx, "memory", hooks)
			if err != nil {
				t.Fatal(err)
			}
			svc := NewService(st, []string{"../../examples/harness"}, ingest.Options{}, nil, nil)
			if _, err := svc.Ingest(ctx); err != nil {
				t.Fatal(err)
			}
			var whole strings.Builder
			if _, err := st.WriteNQuads(ctx, &whole); err != nil {
				t.Fatal(err)
			}
			if whole.Len() < 2*streamChunk || strings.Count(whole.String(), "\n") < tt.failAt {
				t.Fatalf("the corpus exports %d bytes: too few to fail midway", whole.Len())
			}
			hooks.FailRead = func(n int) error {
				if n >= tt.failAt {
					return errors.New("page 17: damaged (injected)")
				}
				return nil
			}
			srv := httptest.NewServer(Handler(svc, nil, DefaultConfig(), nil, nil))
			defer srv.Close()
			req, _ := http.NewRequest(http.MethodGet, srv.URL+"/export", nil)
			req.Header.Set("Accept", "application/n-quads")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, readErr := io.ReadAll(resp.Body)
			if tt.failAt*100 < streamChunk { // fails inside the first chunk
				if resp.StatusCode != http.StatusInternalServerError || resp.Header.Get("ETag") != "" {
					t.Fatalf("%d ETag %q, want 500 without an ETag", resp.StatusCode, resp.Header.Get("ETag"))
				}
				return
			}
			if readErr == nil {
				t.Fatalf("%d: a %d-byte body of %d ended cleanly", resp.StatusCode, len(body), whole.Len())
			}
			if len(body) >= whole.Len() {
				t.Fatalf("the whole export arrived (%d bytes) though the read failed", len(body))
			}
		})
	}
}
