package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/pipeline/ingest"
)

// TestHeavyExportsAreBounded: with every JSON-LD export slot taken, one
// more is 503 with Retry-After (not queued, not loaded); N-Quads streams
// are not rationed; a freed slot serves again.
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
	h := &handlers{svc: svc, cfg: cfg, log: svc.log, heavy: make(chan struct{}, 1)}
	get := func(accept string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, "/export", nil)
		req.Header.Set("Accept", accept)
		rec := httptest.NewRecorder()
		h.export(rec, req)
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
